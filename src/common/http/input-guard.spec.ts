import { type AddressInfo, connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { inputProblem, installInputGuard, MAX_INPUT_DEPTH } from './input-guard.js';

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = level % 2 === 0 ? { a: value } : [value];
  return value;
}

describe('inputProblem', () => {
  it('accepts ordinary input, non-Latin-1 text, paired surrogates and nesting up to the limit', () => {
    expect(inputProblem({ email: 'zo\u00eb@example.com', emoji: '\u{1F600}', list: ['a', { b: null }], n: 1 })).toBeUndefined();
    expect(inputProblem(nested(MAX_INPUT_DEPTH))).toBeUndefined();
  });

  it('refuses NUL and lone surrogates in values and member names, at any depth', () => {
    for (const input of [{ a: 'x\u0000' }, { a: ['\ud800'] }, { a: { b: '\udfffx' } }, { 'k\u0000': 1 }, { '\ud83d': 1 }, 'a\u0000b']) {
      expect(inputProblem(input), JSON.stringify(input)).toMatch(/NUL|surrogate/);
    }
  });

  it('refuses nesting past the limit, 10,000 levels included, without using the call stack', () => {
    expect(inputProblem(nested(MAX_INPUT_DEPTH + 1))).toMatch(/nested/);
    expect(inputProblem(JSON.parse(`${'['.repeat(10_000)}${']'.repeat(10_000)}`))).toMatch(/nested/);
  });

  it('checks only the depth when strings are left to the route', () => {
    expect(inputProblem({ a: 'x\u0000' }, false)).toBeUndefined();
    expect(inputProblem(nested(MAX_INPUT_DEPTH + 1), false)).toMatch(/nested/);
  });
});

describe('installInputGuard', () => {
  async function guarded(): Promise<FastifyInstance> {
    const fastify = Fastify();
    installInputGuard(fastify, false);
    fastify.all('/echo', async (request) => ({ query: request.query, body: request.body ?? null }));
    await fastify.ready();
    return fastify;
  }

  it('lets a request with no body and no query through, and refuses NUL in a body or a query', async () => {
    const fastify = await guarded();
    try {
      expect((await fastify.inject({ method: 'GET', url: '/echo' })).statusCode).toBe(200);
      expect((await fastify.inject({ method: 'POST', url: '/echo', payload: { a: 'b' } })).statusCode).toBe(200);
      expect((await fastify.inject({ method: 'POST', url: '/echo', payload: { a: 'b\u0000' } })).statusCode).toBe(400);
      expect((await fastify.inject({ method: 'GET', url: '/echo?a=b%00' })).statusCode).toBe(400);
      expect((await fastify.inject({ method: 'GET', url: '/echo?%00=b' })).statusCode).toBe(400);
      expect((await fastify.inject({ method: 'GET', url: '/echo?a=b&c=d+e' })).statusCode).toBe(200);
    } finally {
      await fastify.close();
    }
  });

  it('over HTTP, where a query without escapes is not walked: a raw NUL or byte above 0x7E never reaches a route', async () => {
    const fastify = await guarded();
    try {
      await fastify.listen({ port: 0, host: '127.0.0.1' });
      const { port } = fastify.server.address() as AddressInfo;
      // The request target sent as raw bytes, unescaped, as a hostile client could.
      const statusOf = (target: string): Promise<number> =>
        new Promise((resolve, reject) => {
          const socket = connect(port, '127.0.0.1', () =>
            socket.end(Buffer.from(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 'latin1')),
          );
          let head = '';
          socket.on('data', (chunk: Buffer) => (head += chunk.toString('latin1')));
          socket.once('close', () => resolve(Number(head.split(' ', 2)[1])));
          socket.once('error', reject);
        });
      expect(await statusOf('/echo?a=b%00')).toBe(400);
      expect(await statusOf('/echo?a=b')).toBe(200);
      for (const raw of ['\u0000', '\u0001', '\u007f', '\u0080', '\u00ed\u00a0\u0080', '\u00ff']) {
        expect(await statusOf(`/echo?a=${raw}`)).toBe(400);
      }
    } finally {
      await fastify.close();
    }
  });
});
