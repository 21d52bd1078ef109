import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { registerPlainRoute } from '../../common/http/plain-route.js';
import { type ErrorsConfig, type OAuth2Config, type UrlsConfig } from '../../config/app-config.js';
import { ID_TOKEN_SET, KeysService } from '../../keys/index.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { discoveryDocument } from './discovery-document.js';

/**
 * `GET /.well-known/openid-configuration` on the public listener, as a plain Fastify route like the
 * JWKS (docs/architecture.md): relying parties fetch it often and it is a constant document. It is
 * serialised once, and again only when the ID-token signing algorithm changes (key rotation to
 * another algorithm), since the document names that algorithm.
 */
@Injectable()
export class DiscoveryRoute implements OnModuleInit {
  private serialized: { readonly alg: string; readonly body: string } | undefined;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly keys: KeysService,
    @InjectConfig('oauth2') private readonly oauth2: OAuth2Config,
    @InjectConfig('urls') private readonly urls: UrlsConfig,
    @InjectConfig('errors') private readonly errors: ErrorsConfig,
  ) {}

  onModuleInit(): void {
    registerPlainRoute(this.adapterHost.httpAdapter.getInstance<FastifyInstance>(), {
      method: 'GET',
      url: '/.well-known/openid-configuration',
      listeners: ['public'],
      access: 'public',
      exposeInternal: this.errors.exposeInternal,
      handler: async (_request, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(await this.body()),
    });
  }

  private async body(): Promise<string> {
    const { alg } = await this.keys.signingKey(ID_TOKEN_SET);
    if (this.serialized?.alg !== alg) {
      this.serialized = { alg, body: JSON.stringify(discoveryDocument(this.urls, this.oauth2, alg)) };
    }
    return this.serialized.body;
  }
}
