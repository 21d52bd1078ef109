// The peer of the ACP `allowed` scenarios: a bare Fastify app answering a JSON POST, nothing else. The
// ratio to bare Fastify compares a POST with a JSON body to the ceiling's GET; on a loopback box the
// body alone (reading the stream, parsing it) costs bare Fastify a good part of its rate, so the
// `÷ peer` column says how far an endpoint is from the same request served with no work at all.
// Started by bench/run.mjs as a child process; prints "READY <port>" once it listens.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/*', async (request) => ({ allowed: typeof request.body === 'object' && request.body !== null }));
await app.listen({ port: Number(process.env.PEER_PORT ?? 0), host: '127.0.0.1' });
process.stdout.write(`READY ${app.server.address().port}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
