import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import type { ErrorsConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
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
    @InjectConfig('errors') private readonly errors: ErrorsConfig,
  ) {}

  onModuleInit(): void {
    registerJwksRoute(this.adapterHost.httpAdapter.getInstance<FastifyInstance>(), {
      listeners: ['admin', 'proxy'],
      exposeInternal: this.errors.exposeInternal,
      load: () => this.decisions.jwks(),
    });
  }
}
