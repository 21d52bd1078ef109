// One stage of bench/floor-stages.mjs: `GET /health/alive` (the floor scenario's route and answer)
// served by the stack peer's app (createNestPeer, bench/peer/peer-app.mjs) with the service's own
// request plumbing, taken from dist/, added up to stage FLOOR_STAGE:
//   0  the stack alone
//   1  - the Nest adapter's idle request hooks (removeIdleAdapterHooks)
//   2  + the three listeners (HttpListeners: their request and response classes, request id, genReqId)
//   3  + the `listener` route constraint
//   4  + the global hooks (duration histogram, input guard) and the body-parser restriction
//   5  + @fastify/cookie
//   6  + the process-wide V8 flags (linear-time RegExp fallback, no pretenuring), set first, as the
//        service sets them
// Listens on PEER_PORT (0: any; from stage 2 on, the public listener's port) and prints "READY <port>".
const stage = Number(process.env.FLOOR_STAGE ?? 0);
const dist = new URL('../../dist/src/', import.meta.url);
const fromDist = (path) => import(new URL(path, dist).href);

if (stage >= 6) {
  await fromDist('common/regex/linear-regexp.js');
  await fromDist('common/runtime/no-pretenuring.js');
}
const [{ createNestPeer }, { default: fastifyCookie }] = await Promise.all([import('./peer-app.mjs'), import('@fastify/cookie')]);
const [
  { HttpListeners },
  { listenerConstraint },
  { assignedRequestIdOf },
  { installRequestHooks, restrictBodyParsers },
  { installInputGuard },
  { removeIdleAdapterHooks },
] = await Promise.all([
  fromDist('common/http/http-listeners.js'),
  fromDist('common/http/listener.js'),
  fromDist('common/http/request-id.js'),
  fromDist('common/http/request-hooks.js'),
  fromDist('common/http/input-guard.js'),
  fromDist('common/http/adapter-hooks.js'),
]);
const { httpDurationHistogram } = await fromDist('metrics/http-metrics.js');

const port = Number(process.env.PEER_PORT ?? 0);
const options = {};
let listeners;
if (stage >= 2) {
  // The public and admin listeners, as the service opens them (the proxy listener stays closed).
  listeners = new HttpListeners({ host: '127.0.0.1', publicPort: port, adminPort: 0, proxyPort: undefined });
  Object.assign(options, { serverFactory: listeners.serverFactory, requestIdHeader: false, genReqId: assignedRequestIdOf });
}
if (stage >= 3) options.routerOptions = { constraints: { listener: listenerConstraint }, maxParamLength: 1024 };
const app = await createNestPeer(options, async (adapter) => {
  if (stage >= 1 && (await removeIdleAdapterHooks(adapter)) !== undefined) throw new Error('the adapter hooks were kept');
});
const fastify = app.getHttpAdapter().getInstance();
if (stage >= 4) {
  installRequestHooks(fastify, httpDurationHistogram(), false);
  restrictBodyParsers(fastify);
  installInputGuard(fastify, false);
}
if (stage >= 5) await app.register(fastifyCookie, { hook: false });
const body = '{"status":"ok"}';
fastify.route({
  method: 'GET',
  url: '/health/alive',
  ...(stage >= 3 ? { constraints: { listener: 'public|admin' } } : {}),
  handler: (_request, reply) => reply.type('application/json; charset=utf-8').send(body),
});
await app.init();
let listening;
if (stage >= 2) {
  await fastify.ready();
  listening = Number(new URL((await listeners.listen()).public).port);
} else {
  await fastify.listen({ port, host: '127.0.0.1' });
  listening = fastify.server.address().port;
}
process.stdout.write(`READY ${listening}\n`);
process.on('SIGTERM', () => void (listeners?.close(0) ?? Promise.resolve()).then(() => app.close()).then(() => process.exit(0)));
