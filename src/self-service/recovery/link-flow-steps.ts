import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { UrlsConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { isUuid } from '../../database/uuid.js';
import { Courier } from '../courier/courier.js';
import { CsrfProtection } from '../csrf/csrf-protection.js';
import type { FlowEntity } from '../flows/entities/flow.entity.js';
import type { FlowType } from '../flows/flow-kind.js';
import { FLOW_KINDS } from '../flows/flow-kind.js';
import type { FlowMethod } from '../flows/flow-method.js';
import { json, redirect, type FlowOutcome } from '../flows/flow-outcome.js';
import { toFlowResponse } from '../flows/flow.mapper.js';
import { FlowsService, type SubmittedFlow } from '../flows/flows.service.js';
import type { SelfServiceRequest } from '../flows/self-service-request.js';
import { checkCsrf } from '../flows/steps/check-csrf.js';
import { restartIfExpired, type FlowRestarter } from '../flows/steps/restart-if-expired.js';
import { decodeSubmission } from '../forms/submission.js';
import { SelfServiceError, SelfServiceErrorCode } from '../self-service.errors.js';
import type { UiText } from '../ui/ui-container.js';
import { LinkFlowState, type LinkFlowKind } from './link-flow-kind.js';
import { LINK_FIELDS, LINK_METHOD, linkNodes, linkUrl, readLinkSubmission } from './link-form.js';

/** Longer `token` values are no token of ours; refusing them early keeps hashing bounded. */
const MAX_TOKEN_LENGTH = 256;

/** The `flow` and `token` of a link as it came in, when both look like ours. */
export interface LinkQuery {
  readonly flowId: string;
  readonly token: string;
}

/**
 * The steps recovery and verification share (Kratos' link strategy): start a flow, fetch it, the
 * submit's prologue, the `link` method (take an e-mail address and send the link, the same answer
 * whether or not anyone has the address), restart a flow with a message, and read a link's query.
 *
 * A submit answers before it looks the address up: a known address costs more work (a token row, for
 * verification an address update, a different e-mail) than an unknown one, and doing that work
 * before answering made known addresses answer measurably slower (enumeration by timing). Both
 * branches now answer after the same work (decode, check, save the flow) and send once the answer
 * has left (`bench/enumeration-timing.mjs` compares the two).
 */
@Injectable()
export class LinkFlowSteps implements OnModuleDestroy, FlowRestarter<LinkFlowKind>, FlowMethod<LinkFlowKind> {
  readonly method = LINK_METHOD;
  private readonly logger = new Logger('SelfService');
  /** Sends started after an answer and not ended yet: a graceful stop waits for them. */
  private readonly pending = new Set<Promise<void>>();

  constructor(
    @InjectConfig('urls') private readonly urls: UrlsConfig,
    private readonly flows: FlowsService,
    private readonly csrf: CsrfProtection,
    private readonly courier: Courier,
  ) {}

  /** A new flow in `choose_method` showing the e-mail form, with `messages`. */
  start(
    kind: LinkFlowKind,
    type: FlowType,
    request: SelfServiceRequest,
    messages: readonly UiText[] = [],
    returnTo?: string,
  ): Promise<FlowEntity> {
    return this.flows.start(
      { kind: kind.kind, type, nodes: linkNodes(), state: LinkFlowState.ChooseMethod, messages, returnTo: returnTo ?? null },
      request,
    );
  }

  /** Init: API → 200 with the flow; browser → 302 to the UI. */
  async init(kind: LinkFlowKind, type: FlowType, request: SelfServiceRequest, returnTo?: string): Promise<FlowOutcome> {
    const flow = await this.start(kind, type, request, [], returnTo);
    return this.flows.shown(flow, toFlowResponse(flow), 200);
  }

  /** `GET <kind>/flows?id=`: 200, 404, or 410 when expired. */
  async fetch(kind: LinkFlowKind, request: SelfServiceRequest): Promise<FlowOutcome> {
    const flow = await this.flows.fetch(kind.kind, request.query['id']);
    return json(200, toFlowResponse(flow));
  }

  /**
   * A submit of a loaded flow (the caller applied its kind's session rule), as named steps:
   * - expired → a fresh flow of the same type with the "expired" message (API: 302 to it; browser: 302 to the UI);
   * - already `passed_challenge` → likewise, with "already completed";
   * - decode, then the API/browser conventions (API: no Cookie/Origin, 400; browser: CSRF, 403);
   * - then the `link` method (`submit`), the one method of these kinds.
   */
  async submitFlow(kind: LinkFlowKind, request: SelfServiceRequest, submitted: SubmittedFlow): Promise<FlowOutcome> {
    const { flow } = submitted;
    const restarted = restartIfExpired(this, request, submitted, kind);
    if (restarted !== undefined) return restarted;
    if (flow.state === LinkFlowState.PassedChallenge) return this.restart(request, flow, kind.messages.alreadyCompleted(), kind);
    const body = decodeSubmission(request, LINK_FIELDS);
    checkCsrf(this.csrf, flow, request, body);
    return this.submit(request, flow, body, kind);
  }

  /**
   * The `link` method (a missing `method` means it too):
   * - a bad form (another method, missing or malformed `email`) → the form again with the error
   *   (API: 400 with the flow; browser: 302 to the UI), state unchanged;
   * - otherwise the flow moves to `sent_email` (API: 200; browser: 302 to the UI) and the e-mail is
   *   queued once the answer has left.
   */
  async submit(_request: SelfServiceRequest, flow: FlowEntity, body: Record<string, unknown>, kind: LinkFlowKind): Promise<FlowOutcome> {
    const submission = readLinkSubmission(body, kind.messages.noStrategy);
    if (!submission.ok) {
      const ui = this.flows.form(
        flow,
        linkNodes(submission.email, submission.emailError),
        submission.formError === undefined ? [] : [submission.formError],
      );
      const saved = await this.flows.save(flow, { active: LINK_METHOD, ui });
      return this.flows.shown(saved, toFlowResponse(saved), 400);
    }
    const saved = await this.flows.save(flow, {
      state: LinkFlowState.SentEmail,
      active: LINK_METHOD,
      ui: this.flows.form(flow, linkNodes(submission.email), [kind.messages.emailSent()]),
    });
    return {
      ...this.flows.shown(saved, toFlowResponse(saved), 200),
      onSent: this.sendAfterAnswer(kind, flow.id, flow.expiresAt, submission.email),
    };
  }

  /**
   * `sendLink` once the answer has gone (the returned function, the outcome's `onSent`, is called when the
   * response closed); a failure is logged (without the address), the answer stands. Counted as pending
   * from now, so that a stop right after the answer still sends.
   */
  private sendAfterAnswer(kind: LinkFlowKind, flowId: string, expiresAt: Date, email: string): () => void {
    let sent!: () => void;
    const answered = new Promise<void>((resolve) => {
      sent = resolve;
    });
    const sending = answered
      .then(() => this.sendLink(kind, flowId, expiresAt, email))
      .catch((error: unknown) => {
        this.logger.error({ msg: 'sending a link failed', flow: flowId, error: error instanceof Error ? error.message : String(error) });
      });
    this.pending.add(sending);
    void sending.finally(() => this.pending.delete(sending));
    return sent;
  }

  /** A stop after an answer still queues its e-mail: the database closes after this resolves. */
  async onModuleDestroy(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  /**
   * Queues the e-mail for an address: the link when someone has it, otherwise the "invalid" e-mail, so the
   * answer is the same either way. The token expires with the flow. A link goes only to the address as
   * stored for the identity that matched, never to the text typed: that text only has to normalise to
   * the stored address, and mailboxes need not agree with our normalisation. The "invalid" e-mail, which
   * carries no link, goes to what was typed.
   */
  async sendLink(kind: LinkFlowKind, flowId: string, expiresAt: Date, email: string): Promise<void> {
    const issued = await kind.issueToken(email, flowId, expiresAt);
    if (issued === undefined) {
      await this.courier.queue(kind.email(email, undefined));
      return;
    }
    await this.courier.queue(kind.email(issued.address, linkUrl(this.urls.issuer, FLOW_KINDS[kind.kind].path, flowId, issued.token)));
  }

  /** A fresh flow replacing `replaced` (same type), carrying `message`: API 302 to the flow, browser 302 to the UI. */
  async restart(request: SelfServiceRequest, replaced: FlowEntity, message: UiText, kind: LinkFlowKind): Promise<FlowOutcome> {
    const fresh = await this.start(kind, replaced.type, request, [message], replaced.returnTo ?? undefined);
    return this.flows.restarted(fresh, toFlowResponse(fresh));
  }

  /** A link that cannot be used: a new browser flow carrying `message`, and 302 to its UI. */
  async restartFromLink(kind: LinkFlowKind, request: SelfServiceRequest, message: UiText): Promise<FlowOutcome> {
    const fresh = await this.start(kind, 'browser', request, [message]);
    return redirect(this.flows.uiUrl(fresh));
  }

  /** The `flow` and `token` of a link, or undefined when either is missing or malformed. */
  linkQuery(request: SelfServiceRequest): LinkQuery | undefined {
    const query = request.query as Record<string, unknown>;
    const flowId = query['flow'];
    const token = query['token'];
    if (typeof flowId !== 'string' || !isUuid(flowId)) return undefined;
    if (typeof token !== 'string' || token === '' || token.length > MAX_TOKEN_LENGTH) return undefined;
    return { flowId, token };
  }

  /** Whether the request carries a `token` at all (a link) rather than being a plain GET of the submit URL. */
  hasToken(request: SelfServiceRequest): boolean {
    return request.query['token'] !== undefined;
  }

  /** The flow of a redeemed link, moved to `passed_challenge`; undefined when the link was not made by a flow (admin links, registration). */
  async passChallenge(kind: LinkFlowKind, flowId: string, identityId: string): Promise<FlowEntity | undefined> {
    const flow = await this.flows.find(kind.kind, flowId).catch((error: unknown) => {
      if (error instanceof SelfServiceError && error.reason === SelfServiceErrorCode.NotFound) return undefined;
      throw error;
    });
    if (flow === undefined) return undefined;
    return this.flows.save(flow, { state: LinkFlowState.PassedChallenge, identityId, ui: this.flows.form(flow, linkNodes(), []) });
  }
}
