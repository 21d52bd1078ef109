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
    } finally {
      await fastify.close();
    }
  });
});
