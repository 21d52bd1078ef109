import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type RouteHandlerMethod } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { requestCookies } from './cookies.js';

/** A Fastify with the plugin as bootstrap.ts registers it (no parsing hook). */
async function server(handler: RouteHandlerMethod): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(fastifyCookie, { hook: false });
  app.get('/', handler);
  await app.ready();
  return app;
}

describe('requestCookies', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('parses the Cookie header on first use and keeps the result on the request', async () => {
    app = await server(async (request) => {
      const first = requestCookies(request);
      return { first, same: requestCookies(request) === first };
    });
    const response = await app.inject({ method: 'GET', url: '/', headers: { cookie: 'a=1; b=two%20words' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ first: { a: '1', b: 'two words' }, same: true });
  });

  it('is empty without a Cookie header, and nothing is parsed for a route that does not ask', async () => {
    // eslint-disable-next-line no-restricted-syntax -- what the plugin leaves there: nothing parsed
    app = await server(async (request) => ({ before: request.cookies ?? null, cookies: requestCookies(request) }));
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.json()).toEqual({ before: null, cookies: {} });
  });

  it('sees a value written after a cookie was set on the reply (as CSRF issuing does)', async () => {
    app = await server(async (request, reply) => {
      const before = requestCookies(request)['csrf'];
      void reply.setCookie('csrf', 'new', { path: '/' });
      requestCookies(request)['csrf'] = 'new';
      return { before: before ?? null, after: requestCookies(request)['csrf'], other: requestCookies(request)['a'] };
    });
    const response = await app.inject({ method: 'GET', url: '/', headers: { cookie: 'a=1' } });
    expect(response.json()).toEqual({ before: null, after: 'new', other: '1' });
    expect(response.headers['set-cookie']).toMatch(/^csrf=new; Path=\/; SameSite=Lax$/);
  });
});
