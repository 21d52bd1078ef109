import type { IncomingHttpHeaders } from 'node:http';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import replyFrom from '@fastify/reply-from';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { registerPlainRoute } from '../common/http/plain-route.js';
import type { DecisionsConfig, ErrorsConfig, HttpConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import type { RuleUpstream } from '../rules/index.js';
import { sendRefusal } from './decision-responder.js';
import { DecisionsError, DecisionsErrorCode } from './decisions.errors.js';
import { DecisionsService, type Decision } from './decisions.service.js';
import type { JudgedRequest } from './pipeline/authentication-session.js';
import { PeerList } from './peer-list.js';
import { PASS_THROUGH_METHODS, withRawBodies } from './raw-body-scope.js';
import { judgedRequest } from './request-normalisation.js';

/**
 * The reverse proxy (PROXY_PORT): every request on the proxy listener is judged by the rule it
 * matches, and an allowed one is forwarded to the rule's upstream with the mutators' headers, its body
 * streamed both ways by @fastify/reply-from (undici). The path forwarded is the normalised one the
 * rule judged, never the raw one. An upstream that is down or too slow is a 502 in the access family's
 * shape; nothing is retried (a request may not be safe to send twice).
 */
@Injectable()
export class ProxyRoute implements OnModuleInit {
  private readonly trustedProxies: PeerList;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly decisions: DecisionsService,
    @InjectConfig('decisions') private readonly decisionsConfig: DecisionsConfig,
    @InjectConfig('http') private readonly http: HttpConfig,
    @InjectConfig('errors') private readonly errors: ErrorsConfig,
  ) {
    this.trustedProxies = new PeerList(decisionsConfig.trustedProxies, 'DECISIONS_TRUSTED_PROXIES');
  }

  onModuleInit(): void {
    if (this.http.proxyPort === undefined) return;
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const timeout = this.decisionsConfig.proxyTimeoutMs;
    withRawBodies(fastify, (scope) => {
      void scope.register(replyFrom, {
        undici: { connections: 128, connectTimeout: timeout, headersTimeout: timeout, bodyTimeout: timeout },
        retryMethods: [],
        maxRetriesOn503: 0,
        disableRequestLogging: true,
      });
      for (const url of ['/', '/*']) {
        registerPlainRoute(scope, {
          method: PASS_THROUGH_METHODS,
          url,
          exposeHeadRoute: false,
          listeners: ['proxy'],
          access: 'public',
          exposeInternal: this.errors.exposeInternal,
          handler: (request, reply) => this.handle(request, reply),
        });
      }
    });
  }

  /**
   * Not an async function: a decision whose handlers all answered at once goes on with no promise
   * made. After a wait the promise resolves with the reply, which Fastify then waits on until the
   * upstream's answer is sent (a promise of nothing would make it send an empty answer at once).
   */
  private handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> | undefined {
    const judged = judgedRequest(request, {
      pathAndQuery: request.raw.url ?? '/',
      trustedProxies: this.trustedProxies,
      scheme: 'http',
      forwardedRequest: false,
    });
    const decision = this.decisions.decide(judged, 'proxy');
    if (decision instanceof Promise) return decision.then((decided) => this.forward(request, reply, judged, decided));
    this.forward(request, reply, judged, decision);
    return undefined;
  }

  private forward(request: FastifyRequest, reply: FastifyReply, judged: JudgedRequest, decision: Decision): FastifyReply {
    if (!decision.allowed) return sendRefusal(request, reply, decision.outcome, this.errors.exposeInternal);
    const upstream = decision.rule.upstream;
    if (upstream.url === '') throw new DecisionsError(DecisionsErrorCode.NoUpstream, `Rule ${decision.rule.id} defines no upstream URL.`);
    const target = backendUrl(upstream, judged.url);
    const mutated = decision.session.Header;
    const peer = request.raw.socket.remoteAddress ?? '';
    return reply.from(target.href, {
      rewriteRequestHeaders: (_request, headers) => {
        const out: IncomingHttpHeaders = { ...(headers as IncomingHttpHeaders) };
        // Hop-by-hop headers are the client's connection's, not the upstream's (undici refuses some).
        for (const name of HOP_BY_HOP) delete out[name];
        for (const [name, value] of Object.entries(mutated)) out[name.toLowerCase()] = value;
        out.host = upstream.preserve_host ? judged.url.host : target.host;
        const forwardedFor = out['x-forwarded-for'];
        out['x-forwarded-for'] =
          judged.remoteAddress === peer && forwardedFor === undefined ? peer : [forwardedFor, peer].filter(Boolean).join(', ');
        out['x-forwarded-proto'] = judged.url.protocol.slice(0, -1);
        out['x-forwarded-host'] = judged.url.host;
        return out;
      },
      // Sent as an error, so that it leaves through the route's error handler like any other.
      onError: (failed, { error }) => {
        void failed.send(new DecisionsError(DecisionsErrorCode.UpstreamUnavailable, 'The upstream did not answer.', { cause: error }));
      },
    });
  }
}

const HOP_BY_HOP = ['keep-alive', 'proxy-connection', 'upgrade', 'proxy-authorization'];

/** What a rule's upstream says once parsed: its origin, its path without slashes at the ends, the strip prefix. */
interface ParsedUpstream {
  readonly origin: string;
  readonly basePath: string;
  readonly strip: string | undefined;
}

/** Parsed once per rule object (a changed rule is a new object): the proxy's hot path parses no upstream URL. */
const parsedUpstreams = new WeakMap<RuleUpstream, ParsedUpstream>();

function parsedUpstream(upstream: RuleUpstream): ParsedUpstream {
  let parsed = parsedUpstreams.get(upstream);
  if (parsed === undefined) {
    const base = new URL(upstream.url);
    const strip = upstream.strip_path === undefined ? '' : trimSlashes(upstream.strip_path);
    parsed = { origin: base.origin, basePath: trimSlashes(base.pathname), strip: strip === '' ? undefined : `/${strip}` };
    parsedUpstreams.set(upstream, parsed);
  }
  return parsed;
}

/**
 * Oathkeeper's backend URL: the upstream's path joined with the request's, then the first occurrence
 * of `/<strip_path>` removed; the query kept.
 */
export function backendUrl(upstream: RuleUpstream, requested: URL): URL {
  const { origin, basePath, strip } = parsedUpstream(upstream);
  const joined = `/${trimSlashes(`/${basePath}/${requested.pathname.replace(/^\/+/, '')}`)}`;
  const path = strip === undefined ? joined : joined.replace(strip, '') || '/';
  const target = new URL(origin);
  target.pathname = path.startsWith('/') ? path : `/${path}`;
  target.search = requested.search;
  return target;
}

function trimSlashes(value: string): string {
  return value.replace(/^\/+|\/+$/g, '');
}
