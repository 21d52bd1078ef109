// The app the answering peers (same-answer.mjs, bare-post.mjs) register their one route on: bare
// Fastify, or, with PEER_STACK=nest (bench/run.mjs passes BENCH_PEER_STACK), the same Fastify inside
// NestJS's FastifyAdapter with nothing else — the framework stack the service is built on, with none
// of the service. A row's `÷ peer` against that peer is the service's own cost over what any app on
// this stack pays to send the same answer; the peer's ratio to bare Fastify is the stack's ceiling
// for that answer on this box.
import Fastify from 'fastify';

export const PEER_STACKS = ['fastify', 'nest'];

/** How the peers' names say which stack ran (bench/peers.mjs, the ACP rows' peer). */
export const PEER_STACK_NAMES = { fastify: 'bare Fastify', nest: 'NestJS + Fastify adapter' };

/** The stack named by PEER_STACK (default bare Fastify); anything else is refused. */
export function peerStack(env = process.env) {
  const stack = env.PEER_STACK === undefined || env.PEER_STACK === '' ? 'fastify' : env.PEER_STACK;
  if (!PEER_STACKS.includes(stack)) throw new Error(`PEER_STACK must be one of ${PEER_STACKS.join(', ')}, got ${stack}`);
  return stack;
}

/**
 * The stack alone: an empty Nest module on NestJS's Fastify adapter, created as the service creates
 * its own — without middie, which would add an `onRequest` hook the service does not have — and with
 * the adapter options given (bench/peer/floor-stage.mjs adds the service's own). Not yet initialised.
 */
export async function createNestPeer(adapterOptions = {}, prepareAdapter = async () => undefined) {
  await import('reflect-metadata');
  const [{ Module }, { NestFactory }, { FastifyAdapter }] = await Promise.all([
    import('@nestjs/common'),
    import('@nestjs/core'),
    import('@nestjs/platform-fastify'),
  ]);
  class PeerModule {}
  Module({})(PeerModule);
  const adapter = new FastifyAdapter({ ...adapterOptions, skipMiddie: true });
  await prepareAdapter(adapter);
  return NestFactory.create(PeerModule, adapter, { logger: false });
}

/**
 * Builds the app, lets `register(fastify)` add the route, listens on PEER_PORT (0: any) and prints
 * "READY <port>" for bench/run.mjs; stops on SIGTERM.
 */
export async function servePeer(register) {
  let fastify;
  let close;
  if (peerStack() === 'nest') {
    const app = await createNestPeer();
    fastify = app.getHttpAdapter().getInstance();
    register(fastify);
    await app.init();
    close = () => app.close();
  } else {
    fastify = Fastify({ logger: false });
    register(fastify);
    close = () => fastify.close();
  }
  await fastify.listen({ port: Number(process.env.PEER_PORT ?? 0), host: '127.0.0.1' });
  process.stdout.write(`READY ${fastify.server.address().port}\n`);
  process.on('SIGTERM', () => void close().then(() => process.exit(0)));
}
