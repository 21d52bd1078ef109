import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { registerPlainRoute } from '../../common/http/plain-route.js';
import type { ErrorsConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { SelfServiceError } from '../self-service.errors.js';
import type { CachedWhoami } from './session-cache.js';
import { sessionTokenOf } from './session-token.js';
import { SessionsService } from './sessions.service.js';

/** Kratos' header naming the identity of the session, for gateways that forward it. */
const IDENTITY_HEADER = 'x-kratos-authenticated-identity-id';

/**
 * `GET /sessions/whoami` on the public listener, as a plain Fastify route: gateways call it on every
 * request they authorize, so Nest's router, guard and pipes would be most of its cost (like
 * `/.well-known/jwks.json`). The answer is SessionsService.whoami's: from the session cache when it
 * can be; on a miss, one indexed session lookup plus the identity. 401 (identity family) without a valid session.
 */
@Injectable()
export class WhoamiRoute implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly sessions: SessionsService,
    @InjectConfig('errors') private readonly errors: ErrorsConfig,
  ) {}

  onModuleInit(): void {
    registerPlainRoute(this.adapterHost.httpAdapter.getInstance<FastifyInstance>(), {
      method: 'GET',
      url: '/sessions/whoami',
      listeners: ['public'],
      access: 'public',
      exposeInternal: this.errors.exposeInternal,
      // Not an async function: a cache hit, nearly every call, is answered with no promise made.
      handler: (request, reply) => {
        const token = sessionTokenOf(request);
        if (token === undefined) throw SelfServiceError.noSession();
        const found = this.sessions.whoami(token);
        if (found instanceof Promise) return found.then((answer) => this.send(reply, answer));
        this.send(reply, found);
        return undefined;
      },
    });
  }

  private send(reply: FastifyReply, answer: CachedWhoami | undefined): FastifyReply {
    if (answer === undefined) throw SelfServiceError.noSession();
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('cache-control', 'private, no-store')
      .header(IDENTITY_HEADER, answer.identityId)
      .send(answer.body);
  }
}
