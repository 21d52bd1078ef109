import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { registerPlainRoute } from '../../common/http/plain-route.js';
import { type ErrorsConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { formParameters } from './form-parameters.js';
import { TokenEndpointService } from './token-endpoint.service.js';

/**
 * `POST /oauth2/token` on the public listener, as a plain Fastify route (like `/.well-known/jwks.json`):
 * it is the busiest endpoint, and Nest's router, guard, pipe and response chain were a tenth of a
 * client_credentials request's CPU. Public by nature: the client authenticates in TokenEndpointService.
 * The form is checked by `formParameters` (RFC 6749 defines its own error for bad input); errors leave
 * in the OAuth family's shape, and 5xx ones are logged as the exception filter does (registerPlainRoute).
 */
@Injectable()
export class TokenRoute implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly tokens: TokenEndpointService,
    @InjectConfig('errors') private readonly errors: ErrorsConfig,
  ) {}

  onModuleInit(): void {
    registerPlainRoute(this.adapterHost.httpAdapter.getInstance<FastifyInstance>(), {
      method: 'POST',
      url: '/oauth2/token',
      listeners: ['public'],
      access: 'public',
      exposeInternal: this.errors.exposeInternal,
      handler: async (request, reply) => {
        // RFC 6749 §5.1: set first, so that error responses carry them too.
        void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
        const response = await this.tokens.exchange(
          request.headers.authorization,
          formParameters(request.body, request.headers['content-type']),
        );
        return reply.header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(response));
      },
    });
  }
}
