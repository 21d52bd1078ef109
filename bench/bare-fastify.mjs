// The ceiling every benchmark figure is compared with: a bare Fastify 5 "hello" on the same machine,
// same Node, same loader, measured in the same run. No logger, no hooks, no plugins.
//
//   node bench/bare-fastify.mjs [port]      (port 0 or none = ephemeral; prints {"url": ...} once listening)
import Fastify from 'fastify';

const port = Number(process.argv[2] ?? process.env.PORT ?? 0);
const host = process.env.HOST ?? '127.0.0.1';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
// bench/calibrate.mjs only: the same answer after a busy loop of `us` microseconds. Registered apart
// so that the ceiling route above stays what it always was.
if (process.env.BARE_SPIN_ROUTE === '1') {
  app.get('/spin', async (request) => {
    const end = process.hrtime.bigint() + BigInt(Math.round(Number(request.query.us ?? 0) * 1000));
    while (process.hrtime.bigint() < end);
    return { hello: 'world' };
  });
}

const url = await app.listen({ port, host });
process.stdout.write(`${JSON.stringify({ url })}\n`);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
