import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { sha256Hex } from '../../common/crypto/digest.js';
import type { SelfServiceConfig, UrlsConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import type { EmbeddedRead } from '../../database/named-statements.js';
import { isUuid } from '../../database/uuid.js';
import { CsrfProtection } from '../csrf/csrf-protection.js';
import { SelfServiceError } from '../self-service.errors.js';
import { csrfNode } from '../ui/ui-nodes.js';
import { withMessages, type UiContainer, type UiNode, type UiText } from '../ui/ui-container.js';
import { FlowEntity } from './entities/flow.entity.js';
import { FLOW_KINDS, type FlowKind, type FlowType } from './flow-kind.js';
import type { FlowOutcome } from './flow-outcome.js';
import { FlowsRepository, type FlowChanges } from './flows.repository.js';
import type { FailureCounts, FailureQuery } from '../login/login-throttle.js';
import { allowedReturnTo } from './return-to.js';
import { markBrowserFlow, type SelfServiceRequest } from './self-service-request.js';

function flowParameter(request: SelfServiceRequest): unknown {
  return request.query['flow'];
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
 * them for a submit (the first step of its prologue; the others are in ./steps), the outcomes of a
 * shown or restarted flow, and saving changes. Kinds add their nodes, rules and methods; FlowResponder
 * writes the outcomes as HTTP answers.
 */
@Injectable()
export class FlowsService {
  constructor(
    @InjectConfig('urls') private readonly urls: UrlsConfig,
    @InjectConfig('selfService') private readonly selfService: SelfServiceConfig,
    private readonly repository: FlowsRepository,
    private readonly csrf: CsrfProtection,
  ) {}

  /**
   * Creates and stores a flow that expires after SELFSERVICE_FLOW_LIFESPAN. Browser flows get the
   * CSRF cookie (if the browser has none) and its form token in the `csrf_token` node; API flows an
   * empty one. `request_url` is the URL of the request that started it.
   */
  async start(start: FlowStart, request: SelfServiceRequest): Promise<FlowEntity> {
    const id = randomUUID();
    const now = new Date();
    const token = start.type === 'browser' ? this.csrf.issue(request) : '';
    if (start.type === 'browser') markBrowserFlow(request);
    const ui: UiContainer = withMessages(
      {
        action: `${this.urls.issuer}${FLOW_KINDS[start.kind].path}?flow=${id}`,
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
      requestUrl: `${this.urls.issuer}${request.url}`,
      returnTo: start.returnTo ?? null,
      ui,
      csrfTokenHash: token === '' ? null : sha256Hex(token),
      identityId: start.identityId ?? null,
      context: start.context ?? {},
      issuedAt: now,
      expiresAt: new Date(now.getTime() + this.selfService.flowLifespan * 1000),
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
      const base = `${this.urls.issuer}${FLOW_KINDS[kind].path}`;
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
  async forSubmit(kind: FlowKind, request: SelfServiceRequest): Promise<SubmittedFlow> {
    return this.submitted(await this.find(kind, flowParameter(request)), request);
  }

  /**
   * `forSubmit('login', request)` that also reads, in the same statement, the failed-login counts of
   * `failures` and the result of `credential` (the submit's first reads in one round trip).
   */
  async forLoginSubmit<C>(
    request: SelfServiceRequest,
    failures: FailureQuery,
    credential: EmbeddedRead<C>,
  ): Promise<SubmittedFlow & { readonly failureCounts: FailureCounts; readonly credential: C }> {
    const found = await this.load(flowParameter(request), (id) => this.repository.findLoginForSubmit(id, failures, credential));
    return {
      ...this.submitted(found.flow, request),
      failureCounts: { keys: failures.keys, rows: found.failures },
      credential: found.credential,
    };
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
  returnTo(request: SelfServiceRequest): string | undefined {
    const raw = request.query['return_to'];
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
    const url = new URL(FLOW_KINDS[flow.kind].uiUrl(this.selfService.urls));
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

  /**
   * The flow shown (started, or its form again after a submit): API and SPA get `body` with `apiStatus`
   * (200 for a new flow or state, 400 for errors), a navigating browser a 302 to its UI.
   */
  shown(flow: FlowEntity, body: unknown, apiStatus: 200 | 400): FlowOutcome {
    return { kind: 'flow', type: flow.type, status: apiStatus, body, uiUrl: this.uiUrl(flow) };
  }

  /**
   * The submitted flow had expired and `fresh` replaces it (carrying the "expired" message): a 302 to the
   * fresh flow; for API flows to `GET <kind>/flows?id=` with the fresh flow as the body too, so clients
   * that do not follow redirects still get it; for browsers to the UI.
   */
  restarted(fresh: FlowEntity, body: unknown): FlowOutcome {
    const apiLocation = `${this.urls.issuer}${FLOW_KINDS[fresh.kind].path}/flows?id=${fresh.id}`;
    return { kind: 'restarted', type: fresh.type, apiLocation, body, uiUrl: this.uiUrl(fresh) };
  }

  private submitted(flow: FlowEntity, request: SelfServiceRequest): SubmittedFlow {
    if (flow.type === 'browser') markBrowserFlow(request);
    return { expired: flow.expiresAt.getTime() <= Date.now(), flow };
  }

  private allowedReturnUrls(): string[] {
    const { selfService, urls } = this;
    return [urls.issuer, selfService.defaultBrowserReturnUrl, ...Object.values(selfService.urls), ...selfService.allowedReturnUrls];
  }
}
