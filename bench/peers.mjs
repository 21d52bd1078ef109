// Peers shared by several scenarios (bench/run.mjs, `peer`).
import { PEER_STACK_NAMES } from './peer/peer-app.mjs';

/** What the answering peers run on this run (BENCH_PEER_STACK, checked by bench/run.mjs), as their names say it. */
export const peerStackName = PEER_STACK_NAMES[process.env.BENCH_PEER_STACK === 'nest' ? 'nest' : 'fastify'];

// Headers the peer's own HTTP stack writes for its answer, or that describe the connection.
const OWN_HEADERS = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

/**
 * A bare Fastify app (or NestJS's adapter, BENCH_PEER_STACK=nest) answering the scenario's request with
 * the service's answer to its probe, byte for byte but for the headers above
 * (bench/peer/same-answer.mjs), loaded with the same request.
 */
export const sameAnswerPeer = {
  name: `${peerStackName}, same answer`,
  script: 'bench/peer/same-answer.mjs',
  env: (_urls, probe) => ({
    SAME_ANSWER: JSON.stringify({
      status: probe.status,
      headers: Object.fromEntries(Object.entries(probe.headers).filter(([name]) => !OWN_HEADERS.has(name))),
      body: probe.text,
    }),
  }),
  request: (_env, request) => {
    // The peer has one answer: a scenario that varies its requests would load it with only the first.
    if (request.requests !== undefined) throw new Error('the same-answer peer needs a scenario with one fixed request');
    return { path: request.path, method: request.method, headers: request.headers, body: request.body };
  },
};
