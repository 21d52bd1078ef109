// The peer of the ACP `allowed` scenarios: an app answering a JSON POST, nothing else. The ratio to
// bare Fastify compares a POST with a JSON body to the ceiling's GET; on a loopback box the body alone
// (reading the stream, parsing it) costs bare Fastify a good part of its rate, so the `÷ peer` column
// says how far an endpoint is from the same request served with no work at all. Bare Fastify by
// default; inside NestJS's adapter with PEER_STACK=nest (peer-app.mjs).
// Started by bench/run.mjs as a child process; prints "READY <port>" once it listens.
import { servePeer } from './peer-app.mjs';

await servePeer((app) => {
  app.post('/*', async (request) => ({ allowed: typeof request.body === 'object' && request.body !== null }));
});
