// The "same answer" peer: a bare Fastify app that answers every request with the bytes the service
// answered the scenario's probe with (status, headers, body), doing nothing else. Its rate beside bare
// Fastify's "hello" is what the answer itself costs on this box (a larger body, more headers: the
// kernel's loopback send and the loader's parsing share the two cores with the server), so a
// scenario's `÷ peer` is the service's own cost with the answer's size taken out.
// Started by bench/run.mjs as a child process with SAME_ANSWER = {"status", "headers", "body"};
// prints "READY <port>" once it listens.
import Fastify from 'fastify';

const answer = JSON.parse(process.env.SAME_ANSWER ?? '');
const app = Fastify({ logger: false });
app.all('/*', (_request, reply) => reply.code(answer.status).headers(answer.headers).send(answer.body));
await app.listen({ port: Number(process.env.PEER_PORT ?? 0), host: '127.0.0.1' });
process.stdout.write(`READY ${app.server.address().port}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
