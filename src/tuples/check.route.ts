import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { AdminCredentials } from '../common/auth/admin-credentials.js';
import { answerAllowed } from '../common/http/allowed-reply.js';
import { registerPlainRoute } from '../common/http/plain-route.js';
import type { ErrorsConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { readCheckBody, readCheckQuery, readMaxDepthQuery } from './dto/check-input.js';
import { TuplesService } from './tuples.service.js';

/** Keto v0.6's `/check`, also under the later `/relation-tuples/check`. */
const PATHS = ['/check', '/relation-tuples/check'];

/**
 * `GET` and `POST` `/check` (and `/relation-tuples/check`) on the admin listener, also under `/admin`,
 * as plain Fastify routes: the check is the hottest route of the service and, answered from
 * CheckCache, costs less than Nest's router, guard and pipes would. Admin credential as for any admin
 * route (AdminCredentials); the query and the body are read by hand (check-input.ts). 200 allowed,
 * 403 `{"allowed":false}` denied; bad input 400 in the access family's shape.
 */
@Injectable()
export class CheckRoute implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly tuples: TuplesService,
    private readonly admin: AdminCredentials,
    @InjectConfig('errors') private readonly errors: ErrorsConfig,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const common = { listeners: ['admin'], access: 'admin', admin: this.admin, exposeInternal: this.errors.exposeInternal } as const;
    for (const url of PATHS) {
      registerPlainRoute(fastify, {
        ...common,
        method: 'GET',
        url,
        handler: (request, reply) => {
          const input = readCheckQuery(request.query);
          return answerAllowed(reply, this.tuples.check(input.tuple, input.maxDepth));
        },
      });
      registerPlainRoute(fastify, {
        ...common,
        method: 'POST',
        url,
        handler: (request, reply) => {
          const tuple = readCheckBody(request.body);
          const maxDepth = readMaxDepthQuery(request.query);
          return answerAllowed(reply, this.tuples.check(tuple, maxDepth));
        },
      });
    }
  }
}
