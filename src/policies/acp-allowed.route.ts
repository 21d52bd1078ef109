import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { AdminCredentials } from '../common/auth/admin-credentials.js';
import { answerAllowed } from '../common/http/allowed-reply.js';
import { registerPlainRoute } from '../common/http/plain-route.js';
import type { ErrorsConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { AcpDecisionsService } from './acp-decisions.service.js';
import { parseFlavor } from './acp-params.js';

/**
 * `POST /engines/acp/service/{flavor}/allowed` on the admin listener, also under `/admin`, as a plain
 * Fastify route: gateways ask it on every request they guard, and the decision, from the flavor's
 * compiled policy index, costs less than Nest's router, guard and pipes would. Admin credential as
 * for any admin route (AdminCredentials). An unknown flavor is a 404, a malformed body a 400
 * (parseAllowedInput); 200 `{"allowed":true}` or 403 `{"allowed":false}`.
 */
@Injectable()
export class AcpAllowedRoute implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly decisions: AcpDecisionsService,
    private readonly admin: AdminCredentials,
    @InjectConfig('errors') private readonly errors: ErrorsConfig,
  ) {}

  onModuleInit(): void {
    registerPlainRoute<{ Params: { flavor: string } }>(this.adapterHost.httpAdapter.getInstance<FastifyInstance>(), {
      method: 'POST',
      url: '/engines/acp/service/:flavor/allowed',
      listeners: ['admin'],
      access: 'admin',
      admin: this.admin,
      exposeInternal: this.errors.exposeInternal,
      handler: (request, reply) => answerAllowed(reply, this.decisions.allowed(parseFlavor(request.params.flavor), request.body)),
    });
  }
}
