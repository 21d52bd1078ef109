import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';

const ALIVE_BODY = '{"status":"ok"}';

/**
 * `/health/alive` as a plain Fastify route on the public and admin listeners, for the forms the
 * listeners' own fast path (http-listeners.ts) does not answer: HEAD, and URLs with a query string.
 * It touches nothing outside the process and skips Nest's router, guards and pipes. Like the JWKS
 * route (keys/well-known-jwks.route.ts) it lives outside Nest's controllers and is public by nature.
 */
@Injectable()
export class LivenessRoute implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.route({
      method: 'GET',
      url: '/health/alive',
      constraints: { listener: 'public|admin' },
      handler: (_request, reply) => reply.type('application/json; charset=utf-8').send(ALIVE_BODY),
    });
  }
}
