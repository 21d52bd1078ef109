import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../../common/errors/error-response.js';
import type { ErrorsConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { formParameters } from './form-parameters.js';
import { TokenEndpointService } from './token-endpoint.service.js';

/**
 * `POST /oauth2/token` on the public listener, as a plain Fastify route (like `/.well-known/jwks.json`):
 * it is the busiest endpoint, and Nest's router, guard, pipe and response chain were a tenth of a
 * client_credentials request's CPU. Public by nature: the client authenticates in TokenEndpointService.
 * The form is checked by `formParameters` (RFC 6749 defines its own error for bad input); errors leave
 * through `sendError` in the OAuth family's shape, and 5xx ones are logged as the exception filter does.
 */
@Injectable()
export class TokenRoute implements OnModuleInit {
  private readonly logger = new Logger('Errors');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly tokens: TokenEndpointService,
    @InjectConfig('errors') private readonly errors: ErrorsConfig,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.route({
      method: 'POST',
      url: '/oauth2/token',
      constraints: { listener: 'public' },
      errorHandler: (error, request, reply) => {
        const problem = sendError(request, reply, error, this.errors.exposeInternal);
        if (problem.status >= 500) {
          this.logger.error({ msg: 'request failed', reqId: request.id, code: problem.code, error: problem.debug });
        }
      },
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
