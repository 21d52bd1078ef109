import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sha256Hex } from '../../common/crypto/digest.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import type { EmbeddedRead } from '../../database/named-statements.js';
import { isUuid } from '../../database/uuid.js';
import { CsrfProtection } from '../csrf/csrf-protection.js';
import { SelfServiceError } from '../self-service.errors.js';
import { csrfNode } from '../ui/ui-nodes.js';
import { withMessages, type UiContainer, type UiNode, type UiText } from '../ui/ui-container.js';
import { markBrowserRequest } from './browser-requests.js';
import { FlowEntity } from './entities/flow.entity.js';
import { FLOW_KINDS, type FlowKind, type FlowType } from './flow-kind.js';
import { FlowsRepository, type FlowChanges } from './flows.repository.js';
import type { FailureCounts, FailureQuery } from '../login/login-throttle.js';
import { allowedReturnTo } from './return-to.js';

function flowParameter(http: SelfServiceHttp): unknown {
  return (http.request.query as Record<string, unknown>)['flow'];
}

/** The request and reply of one self-service exchange (cookies are read from one and set on the other). */
export interface SelfServiceHttp {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
}

/** What a new flow is made of. The `csrf_token` node is added first by `start`. */
export interface FlowStart {
  readonly kind: FlowKind;
  readonly type: FlowType;
  /** The nodes after the CSRF node, in display order. */
  readonly nodes: readonly UiNode[];
  readonly messages?: readonly UiText[];
  /** An allow-listed URL (see `returnTo`) where browsers go when the flow completes. */
  readonly returnTo?: string | null;
  readonly state?: string | null;
  /** Login `refresh=true`. */
  readonly forced?: boolean;
  readonly identityId?: string | null;
  /** Kind-specific internal state, never serialized. */
  readonly context?: Record<string, unknown>;
}

/** A flow loaded for a submit. When `expired`, start a fresh one carrying `FLOW_KINDS[kind].expiredMessage`. */
export interface SubmittedFlow {
  readonly flow: FlowEntity;
  readonly expired: boolean;
}

/**
 * The flow framework shared by every kind (login, registration, settings, recovery, verification):
 * creating flows (with the CSRF node and cookie of browser flows), fetching them (404, 410), loading
 * them for a submit, enforcing the API/browser conventions of a submit, and saving changes.
 * HTTP answers are written by FlowReplies; kinds add their nodes, rules and outcomes.
 */
@Injectable()
export class FlowsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: FlowsRepository,
    private readonly csrf: CsrfProtection,
  ) {}

  /**
   * Creates and stores a flow that expires after SELFSERVICE_FLOW_LIFESPAN. Browser flows get the
   * CSRF cookie (if the browser has none) and its form token in the `csrf_token` node; API flows an
   * empty one. `request_url` is the URL of the request that started it.
   */
  async start(start: FlowStart, http: SelfServiceHttp): Promise<FlowEntity> {
    const id = randomUUID();
    const now = new Date();
    const token = start.type === 'browser' ? this.csrf.issue(http.request, http.reply) : '';
    if (start.type === 'browser') markBrowserRequest(http.request);
    const ui: UiContainer = withMessages(
      {
        action: `${this.config.urls.issuer}${FLOW_KINDS[start.kind].path}?flow=${id}`,
        method: 'POST',
        nodes: [csrfNode(token), ...start.nodes],
      },
      start.messages ?? [],
    );
    const flow = Object.assign(new FlowEntity(), {
      id,
      kind: start.kind,
      type: start.type,
      state: start.state ?? null,
      active: null,
      forced: start.forced ?? false,
      requestUrl: this.requestUrl(http.request),
      returnTo: start.returnTo ?? null,
      ui,
      csrfTokenHash: token === '' ? null : sha256Hex(token),
      identityId: start.identityId ?? null,
      context: start.context ?? {},
      issuedAt: now,
      expiresAt: new Date(now.getTime() + this.config.selfService.flowLifespan * 1000),
      createdAt: now,
      updatedAt: now,
    });
    await this.repository.insert(flow);
    return flow;
  }

  /** `GET <kind>/flows?id=`: 404 when unknown (or of another kind), 410 with where to restart when expired. */
  async fetch(kind: FlowKind, id: unknown): Promise<FlowEntity> {
    const flow = await this.find(kind, id);
    if (flow.expiresAt.getTime() <= Date.now()) {
      const base = `${this.config.urls.issuer}${FLOW_KINDS[kind].path}`;
      throw SelfServiceError.flowExpired(kind, flow.type === 'browser' ? { redirect_to: `${base}/browser` } : { api: `${base}/api` });
    }
    return flow;
  }

  /** The flow of that kind: 400 for a missing or malformed id, 404 for an unknown one. Expiry is not checked. */
  find(kind: FlowKind, id: unknown): Promise<FlowEntity> {
    return this.load(id, (valid) => this.repository.find(kind, valid));
  }

  /**
   * Loads the flow named by the `flow` query parameter of a submit (400 / 404 as `find`) and marks
   * browser flows' requests (so errors go to the error UI). Says whether it expired.
   */
  async forSubmit(kind: FlowKind, http: SelfServiceHttp): Promise<SubmittedFlow> {
    return this.submitted(await this.find(kind, flowParameter(http)), http);
  }

  /**
   * `forSubmit('login', http)` that also reads, in the same statement, the failed-login counts of
   * `failures` and the result of `credential` (the submit's first reads in one round trip).
   */
  async forLoginSubmit<C>(
    http: SelfServiceHttp,
    failures: FailureQuery,
    credential: EmbeddedRead<C>,
  ): Promise<SubmittedFlow & { readonly failureCounts: FailureCounts; readonly credential: C }> {
    const found = await this.load(flowParameter(http), (id) => this.repository.findLoginForSubmit(id, failures, credential));
    return {
      ...this.submitted(found.flow, http),
      failureCounts: { keys: failures.keys, rows: found.failures },
      credential: found.credential,
    };
  }

  /**
   * The API/browser conventions of a submit: an API flow must not come from a browser (a `Cookie` or
   * `Origin` header: 400); a browser flow must carry the CSRF token it was issued with, matching the
   * browser's CSRF cookie (403 `security_csrf_violation`).
   */
  assertSubmitAllowed(flow: FlowEntity, request: FastifyRequest, csrfToken: unknown): void {
    if (flow.type === 'api') {
      if (request.headers.cookie !== undefined) throw SelfServiceError.browserRequestOnApiFlow('Cookie');
      if (request.headers.origin !== undefined) throw SelfServiceError.browserRequestOnApiFlow('Origin');
      return;
    }
    this.csrf.verify(request, csrfToken, flow.csrfTokenHash);
  }

  /**
   * The flow's form rebuilt after a submit: the same action and CSRF node, `nodes` after it, and the
   * container `messages` (node messages travel on the nodes). Save it with `save(flow, { ui })`.
   */
  form(flow: FlowEntity, nodes: readonly UiNode[], messages: readonly UiText[] = []): UiContainer {
    const csrf = flow.ui.nodes.find((node) => node.attributes.name === 'csrf_token') ?? csrfNode('');
    return withMessages({ action: flow.ui.action, method: flow.ui.method, nodes: [csrf, ...nodes] }, messages);
  }

  /** Saves changes to a flow (and applies them to the entity, which callers then render). */
  async save(flow: FlowEntity, changes: FlowChanges): Promise<FlowEntity> {
    const now = new Date();
    const { ui, state, active, context, identityId, csrfTokenHash } = flow;
    await this.repository.update(flow.id, { ui, state, active, context, identityId, csrfTokenHash, ...changes }, now);
    return Object.assign(flow, changes, { updatedAt: now });
  }

  /**
   * The `return_to` query parameter, checked against SELFSERVICE_ALLOWED_RETURN_URLS (plus the issuer,
   * the default return URL and the UI URLs); undefined when absent, 400 when not allowed.
   */
  returnTo(request: FastifyRequest): string | undefined {
    const raw = (request.query as Record<string, unknown>)['return_to'];
    if (raw === undefined || raw === '') return undefined;
    if (typeof raw !== 'string') throw SelfServiceError.invalidRequest('return_to must be given once.', { parameter: 'return_to' });
    const allowed = allowedReturnTo(raw, this.allowedReturnUrls());
    if (allowed === undefined) throw SelfServiceError.returnToForbidden(raw);
    return allowed;
  }

  /** The URL, serialised, when it passes the `return_to` allow-list (browser logout falls back instead of failing). */
  allowedReturnTo(url: string): string | undefined {
    return allowedReturnTo(url, this.allowedReturnUrls());
  }

  /** The UI URL of a flow with `?flow=<id>` (or `&flow=` when the UI URL has a query). */
  uiUrl(flow: FlowEntity): string {
    const url = new URL(FLOW_KINDS[flow.kind].uiUrl(this.config.selfService.urls));
    url.searchParams.set('flow', flow.id);
    return url.href;
  }

  /** What `read` finds for a flow id: 400 when the id is missing or malformed, 404 when nothing is found. */
  private async load<T>(id: unknown, read: (id: string) => Promise<T | null>): Promise<T> {
    // `flow` values are UUIDs; anything else is a malformed flow id.
    if (typeof id !== 'string' || !isUuid(id)) throw SelfServiceError.missingFlowId();
    const found = await read(id);
    if (found === null) throw SelfServiceError.flowNotFound();
    return found;
  }

  private submitted(flow: FlowEntity, http: SelfServiceHttp): SubmittedFlow {
    if (flow.type === 'browser') markBrowserRequest(http.request);
    return { expired: flow.expiresAt.getTime() <= Date.now(), flow };
  }

  private allowedReturnUrls(): string[] {
    const { selfService, urls } = this.config;
    return [urls.issuer, selfService.defaultBrowserReturnUrl, ...Object.values(selfService.urls), ...selfService.allowedReturnUrls];
  }

  private requestUrl(request: FastifyRequest): string {
    return `${this.config.urls.issuer}${request.url}`;
  }
}
