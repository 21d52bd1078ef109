import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { registerPlainRoute } from '../common/http/plain-route.js';
import type { ErrorsConfig, WebhooksConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { WebhookReceiver } from './webhook-receiver.js';

const SIGNATURE_HEADER = 'service-signature';

/**
 * `POST /webhooks/directory-sync/{connection_id}` on the public listener, as a plain Fastify route in a
 * scope of its own: the signature covers the body's exact bytes, so this scope's only parser hands
 * `application/json` bodies over as a Buffer (up to WEBHOOKS_BODY_LIMIT), and every other route keeps
 * its parsers. Other content types get 415. The route checks its own credential (the signature), so it
 * is public by nature; the route audit knows it as such (registerPlainRoute).
 */
@Injectable()
export class DirectorySyncWebhookRoute implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly receiver: WebhookReceiver,
    @InjectConfig('errors') private readonly errors: ErrorsConfig,
    @InjectConfig('webhooks') private readonly webhooks: WebhooksConfig,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    void fastify.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      registerPlainRoute<{ Params: { connectionId: string } }>(scope, {
        method: 'POST',
        url: '/webhooks/directory-sync/:connectionId',
        listeners: ['public'],
        access: 'public',
        exposeInternal: this.errors.exposeInternal,
        bodyLimit: this.webhooks.bodyLimitBytes,
        handler: async (request, reply) => {
          const header = request.headers[SIGNATURE_HEADER];
          const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const summary = await this.receiver.receive(request.params.connectionId, typeof header === 'string' ? header : undefined, body);
          return reply.code(200).header('cache-control', 'no-store').send(summary);
        },
      });
    });
  }
}
