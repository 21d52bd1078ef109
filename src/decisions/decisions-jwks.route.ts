import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { registerJwksRoute } from '../keys/index.js';
import { DecisionsService } from './decisions.service.js';

/**
 * `GET /.well-known/jwks.json` on the admin and proxy listeners (Oathkeeper's): the public keys of the
 * id_token mutator's key set, for upstreams that verify the tokens it adds. Public by nature, as the
 * public listener's JWKS (which serves the OAuth2 keys) is, and cached the same way (ETag, 304).
 */
@Injectable()
export class DecisionsJwksRoute implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly decisions: DecisionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    registerJwksRoute(this.adapterHost.httpAdapter.getInstance<FastifyInstance>(), {
      listeners: ['admin', 'proxy'],
      exposeInternal: this.config.errors.exposeInternal,
      load: () => this.decisions.jwks(),
    });
  }
}
