// The "same answer" peer: an app that answers every request with the bytes the service answered the
// scenario's probe with (status, headers, body), doing nothing else. Its rate beside bare Fastify's
// "hello" is what the answer itself costs on this box (a larger body, more headers: the kernel's
// loopback send and the loader's parsing share the two cores with the server), so a scenario's
// `÷ peer` is the service's own cost with the answer's size taken out. Bare Fastify by default; inside
// NestJS's adapter with PEER_STACK=nest (peer-app.mjs).
// Started by bench/run.mjs as a child process with SAME_ANSWER = {"status", "headers", "body"};
// prints "READY <port>" once it listens.
import { servePeer } from './peer-app.mjs';

const answer = JSON.parse(process.env.SAME_ANSWER ?? '');
await servePeer((app) => {
  app.all('/*', (_request, reply) => reply.code(answer.status).headers(answer.headers).send(answer.body));
});
