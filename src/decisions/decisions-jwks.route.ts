import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../common/errors/error-response.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DecisionsService } from './decisions.service.js';

/**
 * `GET /.well-known/jwks.json` on the admin and proxy listeners (Oathkeeper's): the public keys of the
 * id_token mutator's key set, for upstreams that verify the tokens it adds. Public by nature, as the
 * public listener's JWKS (which serves the OAuth2 keys) is.
 */
@Injectable()
export class DecisionsJwksRoute implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly decisions: DecisionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.route({
      method: 'GET',
      url: '/.well-known/jwks.json',
      constraints: { listener: 'admin|proxy' },
      errorHandler: (error, request, reply) => void sendError(request, reply, error, this.config.errors.exposeInternal),
      handler: async (_request, reply) =>
        reply
          .header('content-type', 'application/json; charset=utf-8')
          .header('cache-control', 'public, no-cache')
          .send(await this.decisions.jwks()),
    });
  }
}
