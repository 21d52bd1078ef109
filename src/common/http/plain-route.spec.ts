import { Logger } from '@nestjs/common';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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
});
