import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { registerPlainRoute } from '../common/http/plain-route.js';
import type { DecisionsConfig, ErrorsConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { sendRefusal } from './decision-responder.js';
import { DecisionsError, DecisionsErrorCode } from './decisions.errors.js';
import { DecisionsService, type Decision } from './decisions.service.js';
import { PeerList } from './peer-list.js';
import { judgedRequest } from './request-normalisation.js';
import { PASS_THROUGH_METHODS, withRawBodies } from './raw-body-scope.js';

const PREFIX = '/decisions';

/**
 * `/decisions` and every path under it, any method, on the admin listener (Oathkeeper's API port):
 * judges `METHOD scheme://Host/<path after /decisions>` and answers 200 with the mutators' headers,
 * or the rule's error handler's answer. A route of its own kind: it carries the end user's
 * credentials, not an admin's, so it takes no admin token; only peers in DECISIONS_ALLOWED_PEERS may
 * call it. A plain Fastify route, because gateways call it on every request they pass; the route
 * audit knows it by its access, `allowed_peers` (docs/architecture.md lists it with its kind).
 */
@Injectable()
export class DecisionRoute implements OnModuleInit {
  private readonly allowedPeers: PeerList;
  private readonly trustedProxies: PeerList;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly decisions: DecisionsService,
    @InjectConfig('decisions') decisionsConfig: DecisionsConfig,
    @InjectConfig('errors') private readonly errors: ErrorsConfig,
  ) {
    this.allowedPeers = new PeerList(decisionsConfig.allowedPeers, 'DECISIONS_ALLOWED_PEERS');
    this.trustedProxies = new PeerList(decisionsConfig.trustedProxies, 'DECISIONS_TRUSTED_PROXIES');
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    withRawBodies(fastify, (scope) => {
      for (const url of [PREFIX, `${PREFIX}/*`]) {
        registerPlainRoute(scope, {
          method: PASS_THROUGH_METHODS,
          url,
          exposeHeadRoute: false,
          listeners: ['admin'],
          access: 'allowed_peers',
          exposeInternal: this.errors.exposeInternal,
          handler: (request, reply) => this.handle(request, reply),
        });
      }
    });
  }

  /** Not an async function: a decision whose handlers all answered at once is sent with no promise made. */
  private handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> | undefined {
    if (!this.allowedPeers.includes(request.raw.socket)) {
      throw new DecisionsError(DecisionsErrorCode.PeerNotAllowed, 'This peer may not call the decision API.');
    }
    const rawUrl = request.raw.url ?? PREFIX;
    const start = rawUrl.startsWith('/admin/') ? '/admin'.length + PREFIX.length : PREFIX.length;
    const judged = judgedRequest(request, {
      pathAndQuery: rawUrl.slice(start) || '/',
      trustedProxies: this.trustedProxies,
      scheme: 'http',
      forwardedRequest: true,
    });
    const decision = this.decisions.decide(judged, 'admin');
    if (decision instanceof Promise) return decision.then((decided) => this.answer(request, reply, decided));
    this.answer(request, reply, decision);
    return undefined;
  }

  private answer(request: FastifyRequest, reply: FastifyReply, decision: Decision): FastifyReply {
    if (!decision.allowed) return sendRefusal(request, reply, decision.outcome, this.errors.exposeInternal);
    void reply.header('cache-control', 'no-store');
    for (const [name, value] of Object.entries(decision.session.Header)) void reply.header(name, value);
    return reply.status(200).send();
  }
}
