import { Injectable, Logger } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import { sha256Hex } from '../common/crypto/digest.js';
import { sendError } from '../common/errors/error-response.js';
import { listenerOf } from '../common/http/listener.js';
import { routeListeners } from '../common/http/route-catalog.js';
import type { ErrorsConfig, RateLimitConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { INFLIGHT_EXEMPT_METHODS, inflightMayApply, inflightRuleFor, type InflightRule } from './inflight-rules.js';
import { RateLimitError } from './rate-limit.errors.js';
import { rateLimitMetrics, type RateLimitMetrics } from './rate-limit.metrics.js';
import type { StorageRecord } from './memory-throttler-storage.js';
import type { WindowCounts } from './rate-counters.js';
import { RateLimitPolicy, type ResolvedBucket } from './rate-limit-policy.js';
import { RateLimitStores } from './rate-limit-stores.js';
import { requestPathOf, type RequestPath } from './request-path.js';

/**
 * The request's path as `requestPathOf` names it, parsed by whichever hook needs it first and kept for
 * the other: `null` until then, `false` when no limit applies to the request. A request decoration, so
 * that every request object has the field from its construction on.
 */
const PATH = Symbol('latchkey.rate-limit.path');
type WithPath = FastifyRequest & { [PATH]: RequestPath | false | null };

/** The inflight key a request holds, released when its response is sent. */
const HELD_KEY = Symbol('latchkey.inflight');
interface HeldKey {
  readonly key: string;
  readonly token: string;
}
type WithHeldKey = FastifyRequest & { [HELD_KEY]?: HeldKey };

/**
 * The project rate limits and the inflight rules, as Fastify hooks: the hot routes are plain Fastify
 * routes, so a Nest guard would miss them. Limits are checked on `onRequest`, on the URL as it arrived
 * (before the admin listener's `/admin` rewrite) and before the body is read, so nothing behind a
 * refused request runs. Inflight rules run on `preHandler`, once the body is parsed, because the key
 * of recovery submissions holds the submitted e-mail address, and only on the routes a rule can apply
 * to (writes to identities and sessions, recovery): elsewhere the two hooks would be a call each per
 * request that does nothing. When the counters cannot be reached the request goes through unchecked
 * (fail open) and `rate_limit_storage_errors_total` counts it: an outage of Redis must not become an
 * outage of the service.
 */
@Injectable()
export class RateLimiter {
  private readonly policy: RateLimitPolicy;
  private readonly metrics: RateLimitMetrics = rateLimitMetrics();
  private readonly logger = new Logger('RateLimit');

  constructor(
    @InjectConfig('rateLimit') private readonly rateLimit: RateLimitConfig,
    @InjectConfig('errors') private readonly errors: ErrorsConfig,
    private readonly stores: RateLimitStores,
  ) {
    this.policy = new RateLimitPolicy(rateLimit);
  }

  /**
   * Installs the hooks. Called at start before the application initialises, when no route exists yet
   * (as the route audit is attached): the inflight hooks are added to each route as it is registered.
   */
  attach(fastify: FastifyInstance): void {
    // With the plan and the inflight rules off no hook is added, so the limits cost nothing.
    if (!this.policy.enabled && this.rateLimit.inflight === 'off') return;
    fastify.decorateRequest(PATH, null);
    if (this.policy.enabled) fastify.addHook('onRequest', (request, reply, done) => this.limit(request, reply, done));
    if (this.rateLimit.inflight === 'off') return;
    const hold = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => this.inflight(request, reply, done);
    const release = (
      request: FastifyRequest,
      _reply: FastifyReply,
      payload: unknown,
      done: (error: null, payload: unknown) => void,
    ): void => {
      this.releaseHeld(request as WithHeldKey);
      done(null, payload);
    };
    fastify.addHook('onRoute', (route: RouteOptions) => {
      if (!inflightMayApply([route.method].flat(), route.url, routeListeners(route))) return;
      // First among the route's own hooks, where the global hook ran before them.
      route.preHandler = [hold, ...[route.preHandler ?? []].flat()];
      route.onSend = [release, ...[route.onSend ?? []].flat()] as RouteOptions['onSend'];
    });
  }

  /**
   * Calls `done` when the request may go on, or sends the 429 (Fastify then stops). A callback hook,
   * not an async one: the in-memory counters answer synchronously, and then no promise is made.
   */
  private limit(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const path = pathOf(request as WithPath);
    if (path === undefined) return done();
    // Fastify answers HEAD with the GET route's handler: it spends the GET bucket, or HEAD would dodge it.
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    // Reading `request.ip` costs (with a trusted proxy it walks X-Forwarded-For): only when it matters.
    const trusted = this.policy.trustsAddresses && this.policy.isTrusted(request.ip);
    const bucket = this.policy.bucketFor(method, path, trusted);
    let counts: WindowCounts | Promise<WindowCounts>;
    try {
      counts = this.stores.counters.count(bucket);
    } catch (error) {
      this.storageFailed(error);
      return done();
    }
    if (!(counts instanceof Promise)) return this.answer(request, reply, bucket, counts, done);
    counts
      .then(
        (answered) => this.answer(request, reply, bucket, answered, done),
        (error: unknown) => {
          this.storageFailed(error);
          done();
        },
      )
      // What an async hook would have done with a throw: hand it to Fastify's error handling.
      .catch((error: unknown) => done(error instanceof Error ? error : new Error(String(error))));
  }

  private answer(
    request: FastifyRequest,
    reply: FastifyReply,
    bucket: ResolvedBucket,
    counts: WindowCounts,
    done: HookHandlerDoneFunction,
  ): void {
    const { burst, sustained } = counts;
    void reply.header('ratelimit-policy', bucket.policyHeader);
    void reply.header(
      'ratelimit',
      `"burst";${remaining(bucket.burstRps, burst)}, "sustained";${remaining(bucket.sustainedRpm, sustained)}`,
    );
    if (!burst.isBlocked && !sustained.isBlocked) return done();
    const retryAfter = Math.max(1, burst.isBlocked ? burst.timeToBlockExpire : 0, sustained.isBlocked ? sustained.timeToBlockExpire : 0);
    this.metrics.limited.series(bucket.name).inc();
    sendError(request, reply, RateLimitError.limitExceeded(bucket.name, retryAfter), this.errors.exposeInternal);
  }

  /**
   * Calls `done` when the request may go on, or sends the 429. A callback hook like `limit`: most
   * requests (every GET, and every path no rule names) are let through without a promise.
   */
  private inflight(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    if (INFLIGHT_EXEMPT_METHODS.has(request.method)) return done();
    const path = pathOf(request as WithPath);
    if (path === undefined) return done();
    const rule = inflightRuleFor(request.method, path);
    if (rule === undefined) return done();
    this.hold(request, reply, rule, path).then(
      (refused) => {
        if (refused === undefined) done();
      },
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  }

  /** Takes the rule's key for the request; resolves with the reply when an enforced rule refused it, else with nothing. */
  private async hold(
    request: FastifyRequest,
    reply: FastifyReply,
    rule: InflightRule,
    path: RequestPath,
  ): Promise<FastifyReply | undefined> {
    const key = this.inflightKey(rule, path, request);
    let token: string | undefined;
    try {
      token = await this.stores.inflight.acquire(key);
    } catch (error) {
      this.storageFailed(error);
      return undefined;
    }
    if (token !== undefined) {
      (request as WithHeldKey)[HELD_KEY] = { key, token };
      return undefined;
    }
    const action = this.rateLimit.inflight === 'report-only' ? 'report-only' : rule.action;
    this.metrics.inflightViolations.series(rule.pattern.source, action).inc();
    this.logger.warn({ msg: 'inflight rule violated', rule: rule.pattern.source, action, key, reqId: request.id });
    if (action === 'report-only') return undefined;
    sendError(request, reply, RateLimitError.concurrentRequest(), this.errors.exposeInternal);
    return reply;
  }

  /**
   * `{project}:{path}`; for recovery `{project}:{path}/{e-mail or flow id}`, the e-mail folded to lower
   * case and kept as a digest so that neither Redis nor the logs hold the address. Paths are folded to
   * lower case too: identity ids are UUIDs, and `…/ABC` must not dodge the key of `…/abc`.
   */
  private inflightKey(rule: InflightRule, path: RequestPath, request: FastifyRequest): string {
    const prefix = `latchkey:inflight:${this.rateLimit.project}:${path.hosted.toLowerCase()}`;
    if (rule.key === 'path') return prefix;
    const body = request.body as Record<string, unknown> | undefined;
    const query = request.query as Record<string, unknown> | undefined;
    const email = typeof body?.['email'] === 'string' ? body['email'].trim().toLowerCase() : '';
    const flow = typeof query?.['flow'] === 'string' ? query['flow'].toLowerCase() : '';
    const subject = email !== '' ? `email:${email}` : `flow:${flow}`;
    return `${prefix}/${sha256Hex(subject).slice(0, 32)}`;
  }

  private releaseHeld(request: WithHeldKey): void {
    const held = request[HELD_KEY];
    if (held === undefined) return;
    request[HELD_KEY] = undefined;
    this.stores.inflight.release(held.key, held.token).catch((error: unknown) => this.storageFailed(error));
  }

  private storageFailed(error: unknown): void {
    this.metrics.storageErrors.series().inc();
    this.stores.warnUnreachable(error);
  }
}

function pathOf(request: WithPath): RequestPath | undefined {
  let path = request[PATH];
  if (path === null) {
    path = requestPathOf(listenerOf(request.raw), request.originalUrl) ?? false;
    request[PATH] = path;
  }
  return path === false ? undefined : path;
}

/** `r` (requests left) and `t` (seconds until the window resets, or the block ends) of the RateLimit field. */
function remaining(limit: number, record: StorageRecord): string {
  const reset = record.isBlocked ? record.timeToBlockExpire : record.timeToExpire;
  return `r=${Math.max(0, limit - record.totalHits)};t=${Math.max(0, reset)}`;
}
