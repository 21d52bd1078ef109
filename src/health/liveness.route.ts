import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { registerPlainRoute } from '../common/http/plain-route.js';
import type { ErrorsConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';

const ALIVE_BODY = '{"status":"ok"}';

/**
 * `/health/alive` as a plain Fastify route on the public and admin listeners, for the forms the
 * listeners' own fast path (http-listeners.ts) does not answer: HEAD, and URLs with a query string.
 * It touches nothing outside the process and skips Nest's router, guards and pipes. Like the JWKS
 * route (keys/well-known-jwks.route.ts) it lives outside Nest's controllers and is public by nature.
 */
@Injectable()
export class LivenessRoute implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @InjectConfig('errors') private readonly errors: ErrorsConfig,
  ) {}

  onModuleInit(): void {
    registerPlainRoute(this.adapterHost.httpAdapter.getInstance<FastifyInstance>(), {
      method: 'GET',
      url: '/health/alive',
      listeners: ['public', 'admin'],
      access: 'public',
      exposeInternal: this.errors.exposeInternal,
      handler: (_request, reply) => reply.type('application/json; charset=utf-8').send(ALIVE_BODY),
    });
  }
}
