// The peer of the proxy scenario: a bare Fastify app that forwards every request to PEER_UPSTREAM with
// @fastify/reply-from (the library the proxy listener uses), nothing else: no rule, no pipeline, no
// headers of ours. What it reaches is the ceiling of any proxy built on that library on this box.
// Started by bench/run.mjs as a child process; prints "READY <port>" once it listens.
import replyFrom from '@fastify/reply-from';
import Fastify from 'fastify';

const upstream = process.env.PEER_UPSTREAM;
const app = Fastify({ logger: false });
await app.register(replyFrom, { base: upstream, undici: { connections: 128 } });
app.get('/*', (request, reply) => reply.from(request.url));
await app.listen({ port: Number(process.env.PEER_PORT ?? 0), host: '127.0.0.1' });
process.stdout.write(`READY ${app.server.address().port}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
