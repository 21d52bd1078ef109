import { Injectable } from '@nestjs/common';
import { CsrfProtection } from './csrf/csrf-protection.js';
import { ErrorContainersService, type ErrorContainerResponse } from './errors/error-containers.service.js';
import type { FlowKind } from './flows/flow-kind.js';
import { toFlowResponse } from './flows/flow.mapper.js';
import { FlowsService } from './flows/flows.service.js';
import type { SelfServiceRequest } from './flows/self-service-request.js';
import { SelfServiceError } from './self-service.errors.js';
import { SessionsService } from './sessions/sessions.service.js';
import type { UiContainer } from './ui/ui-container.js';

export type { FlowKind } from './flows/flow-kind.js';
export type { UiContainer, UiNode, UiText } from './ui/ui-container.js';

/** A browser flow as a UI renders it: its form, and for settings the identity's traits. */
export interface BrowserFlowView {
  readonly id: string;
  readonly kind: FlowKind;
  readonly ui: UiContainer;
  readonly state: string | null;
  /** Where the browser goes when the flow completes (allow-listed when the flow started). */
  readonly returnTo: string | null;
}

/** The browser's current self-service session, as a page shows it. */
export interface BrowserSessionView {
  readonly id: string;
  readonly identityId: string;
  readonly authenticatedAt: Date;
  readonly expiresAt: Date;
}

/**
 * What a server-rendered UI on the public listener needs from self-service, without the HTTP round
 * trips an external UI makes: a browser flow by id (with the same checks as `GET <kind>/flows`), the
 * browser's session, its other sessions, error containers, and the CSRF token of forms of its own.
 */
@Injectable()
export class BrowserUiService {
  constructor(
    private readonly flows: FlowsService,
    private readonly sessions: SessionsService,
    private readonly csrf: CsrfProtection,
    private readonly errors: ErrorContainersService,
  ) {}

  /**
   * A browser flow of that kind: 400/404/410 as `GET <kind>/flows`; a settings flow only for the
   * session of its identity (401 without a session, 403 for another identity's flow).
   */
  async flow(kind: FlowKind, id: unknown, request: SelfServiceRequest): Promise<BrowserFlowView> {
    const flow = await this.flows.fetch(kind, id);
    if (flow.type !== 'browser') throw SelfServiceError.flowNotFound();
    if (kind === 'settings') {
      const active = await this.sessions.require(request);
      if (flow.identityId !== active.session.identityId) throw SelfServiceError.identityMismatch();
    }
    const wire = toFlowResponse(flow) as { ui: UiContainer };
    return { id: flow.id, kind, ui: wire.ui, state: flow.state, returnTo: flow.returnTo };
  }

  async session(request: SelfServiceRequest): Promise<BrowserSessionView | undefined> {
    const active = await this.sessions.fromRequest(request);
    return active === undefined ? undefined : toView(active.session);
  }

  /** The active sessions of the browser's identity, newest first; 401 without a session. */
  async sessionsOfBrowser(
    request: SelfServiceRequest,
  ): Promise<{ current: BrowserSessionView; all: BrowserSessionView[]; logoutToken: string }> {
    const active = await this.sessions.require(request);
    const all = await this.sessions.listActive(active.session.identityId);
    // The sign-out link carries the session's logout token, so it works when the tokenless route is
    // switched off (SELFSERVICE_LOGOUT_REQUIRE_TOKEN) and cannot be forged from another site.
    return { current: toView(active.session), all: all.map(toView), logoutToken: this.sessions.logoutTokenOf(active.session) };
  }

  /** Ends every other session of the browser's identity; 401 without a session. */
  async signOutElsewhere(request: SelfServiceRequest): Promise<number> {
    const active = await this.sessions.require(request);
    return this.sessions.revokeOthers(active.session);
  }

  /** Ends the browser's session (if any) and drops its session and CSRF cookies (FlowResponder.writeCookies). */
  async endSession(request: SelfServiceRequest): Promise<void> {
    const active = await this.sessions.fromRequest(request);
    if (active !== undefined) await this.sessions.revoke(active.token);
    this.sessions.clearCookie(request);
    this.csrf.clear(request);
  }

  errorContainer(id: unknown): Promise<ErrorContainerResponse> {
    return this.errors.get(id);
  }

  /**
   * The form token of a page's own form, tied to the browser's CSRF cookie (set when missing: write
   * `request`'s cookies with FlowResponder.writeCookies).
   */
  formToken(request: SelfServiceRequest): string {
    return this.csrf.issue(request);
  }

  /** 403 `security_csrf_violation` unless the submitted token belongs to the browser's CSRF cookie. */
  verifyFormToken(request: SelfServiceRequest, token: unknown): void {
    this.csrf.verify(request, token);
  }
}

function toView(session: { id: string; identityId: string; authenticatedAt: Date; expiresAt: Date }): BrowserSessionView {
  return { id: session.id, identityId: session.identityId, authenticatedAt: session.authenticatedAt, expiresAt: session.expiresAt };
}
