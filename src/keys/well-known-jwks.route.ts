import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { registerPlainRoute } from '../common/http/plain-route.js';
import type { Listener } from '../common/http/listener.js';
import { type ErrorsConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { KeysService, type SerializedJwks } from './keys.service.js';

/**
 * `GET /.well-known/jwks.json` on the public listener, as a plain Fastify route: relying parties and
 * gateways fetch it constantly and it only returns a document serialised once per key change
 * (KeysService.publicJwks), so Nest's router, guard and pipes would be most of its cost. Public by
 * nature; errors still leave in the OAuth family's shape. `no-cache` + ETag rather than a max-age:
 * a newly added key signs at once, so verifiers must be able to see it at once (docs/keys.md).
 */
@Injectable()
export class WellKnownJwksRoute implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly keys: KeysService,
    @InjectConfig('errors') private readonly errors: ErrorsConfig,
  ) {}

  onModuleInit(): void {
    registerJwksRoute(this.adapterHost.httpAdapter.getInstance<FastifyInstance>(), {
      listeners: ['public'],
      exposeInternal: this.errors.exposeInternal,
      load: () => this.keys.publicJwks(),
    });
  }
}

/**
 * Registers `GET /.well-known/jwks.json` on `listeners` with the caching contract above: `no-cache`,
 * the document's ETag and 304 on a matching If-None-Match. Every JWKS the service publishes goes
 * through here so verifiers see one behaviour.
 */
export function registerJwksRoute(
  fastify: FastifyInstance,
  options: { readonly listeners: readonly Listener[]; readonly exposeInternal: boolean; readonly load: () => Promise<SerializedJwks> },
): void {
  let settled: { readonly from: Promise<SerializedJwks>; readonly jwks: SerializedJwks } | undefined;
  registerPlainRoute(fastify, {
    method: 'GET',
    url: '/.well-known/jwks.json',
    listeners: options.listeners,
    access: 'public',
    exposeInternal: options.exposeInternal,
    // `load` answers from a cache with the same promise until the keys change: once that promise has
    // settled, its document is sent at once, with no promise made per request.
    handler: (request, reply) => {
      const loading = options.load();
      if (settled?.from === loading) {
        answer(request, reply, settled.jwks);
        return undefined;
      }
      return loading.then((jwks) => {
        settled = { from: loading, jwks };
        answer(request, reply, jwks);
      });
    },
  });
}

function answer(request: FastifyRequest, reply: FastifyReply, jwks: SerializedJwks): void {
  void reply
    .header('content-type', 'application/json; charset=utf-8')
    .header('cache-control', 'public, no-cache')
    .header('etag', jwks.etag);
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined && matches(ifNoneMatch, jwks.etag)) void reply.status(304).send();
  else void reply.send(jwks.body);
}

/** RFC 9110 §13.1.2: a list of entity tags (weak comparison), or `*`. */
function matches(header: string, etag: string): boolean {
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed === etag || trimmed === `W/${etag}`;
  });
}
