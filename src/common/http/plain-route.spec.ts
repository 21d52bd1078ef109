import { Logger } from '@nestjs/common';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdminCredentials } from '../auth/admin-credentials.js';
import { AdminTokenVerifiers } from '../auth/admin-token-verifiers.js';
import { sha256Hex } from '../crypto/digest.js';
import { CommonErrors } from '../errors/app-error.js';
import { listenerConstraint } from './listener.js';
import { PLAIN_ROUTE_ACCESS, registerPlainRoute } from './plain-route.js';

describe('registerPlainRoute', () => {
  let fastify: FastifyInstance;
  const registered: RouteOptions[] = [];

  beforeEach(() => {
    // Every injected request counts as one received by the public listener.
    const onPublic = { ...listenerConstraint, deriveConstraint: () => 'public' };
    fastify = Fastify({ routerOptions: { constraints: { listener: onPublic as never } } });
    registered.length = 0;
    fastify.addHook('onRoute', (route) => void registered.push(route));
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    await fastify.close();
  });

  it('registers with the listener constraint and the access the route audit reads', async () => {
    registerPlainRoute(fastify, {
      method: 'GET',
      url: '/plain',
      listeners: ['public', 'admin'],
      access: 'allowed_peers',
      exposeInternal: false,
      handler: (_request, reply) => reply.send('ok'),
    });
    await fastify.ready();
    const route = registered.find((candidate) => candidate.method === 'GET')!;
    expect(route.constraints).toEqual({ listener: 'public|admin' });
    expect((route.config as Record<string, unknown>)[PLAIN_ROUTE_ACCESS]).toBe('allowed_peers');
    expect((await fastify.inject({ method: 'GET', url: '/plain' })).statusCode).toBe(200);
  });

  it('renders errors through sendError and logs only the 5xx ones, once', async () => {
    const logged = vi.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    registerPlainRoute(fastify, {
      method: 'GET',
      url: '/bad-input',
      listeners: ['public'],
      access: 'public',
      exposeInternal: false,
      handler: () => Promise.reject(CommonErrors.invalidRequest('no')),
    });
    registerPlainRoute(fastify, {
      method: 'GET',
      url: '/broken',
      listeners: ['public'],
      access: 'public',
      exposeInternal: false,
      handler: () => Promise.reject(new Error('internal detail')),
    });

    const badInput = await fastify.inject({ method: 'GET', url: '/bad-input' });
    expect(badInput.statusCode).toBe(400);
    expect(badInput.headers['cache-control']).toBe('no-store');
    expect(logged).not.toHaveBeenCalled();

    const broken = await fastify.inject({ method: 'GET', url: '/broken' });
    expect(broken.statusCode).toBe(500);
    expect(broken.body).not.toContain('internal detail');
    expect(logged).toHaveBeenCalledTimes(1);
    expect(logged.mock.calls[0]![0]).toMatchObject({ msg: 'request failed', code: 'internal_error' });
  });

  it('checks the admin credential of an admin route before its handler, as AuthGuard does', async () => {
    const verifiers = new AdminTokenVerifiers();
    verifiers.register({ isAdmin: (token) => Promise.resolve(token === 'issued') });
    const handled = vi.fn();
    registerPlainRoute(fastify, {
      method: 'POST',
      url: '/relation-tuples/plain',
      listeners: ['public'],
      access: 'admin',
      admin: new AdminCredentials({ auth: 'on', tokenDigests: [sha256Hex('static')] }, verifiers),
      exposeInternal: false,
      handler: (_request, reply) => {
        handled();
        return reply.send('ok');
      },
    });
    const post = (authorization?: string) =>
      fastify.inject({
        method: 'POST',
        url: '/relation-tuples/plain',
        headers: authorization === undefined ? {} : { authorization },
        payload: { a: 1 },
      });

    for (const refused of [await post(), await post('Bearer wrong')]) {
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['www-authenticate']).toBe('Bearer realm="admin"');
      // The path's family renders it: the access family's standard error here.
      expect(refused.json()).toMatchObject({ id: 'unauthorized', code: 401 });
    }
    expect(handled).not.toHaveBeenCalled();
    expect((await post('Bearer static')).statusCode).toBe(200);
    expect((await post('Bearer issued')).statusCode).toBe(200);
    expect(handled).toHaveBeenCalledTimes(2);
    const route = registered.find((candidate) => candidate.url === '/relation-tuples/plain')!;
    expect((route.config as Record<string, unknown>)[PLAIN_ROUTE_ACCESS]).toBe('admin');
  });
});
