import { jsonb } from '../database/named-statements.js';
import type { ConsentRequestEntity } from './entities/consent-request.entity.js';
import type { LoginRequestEntity } from './entities/login-request.entity.js';
import type { LoginSessionEntity } from './entities/login-session.entity.js';
import type { LogoutRequestEntity } from './entities/logout-request.entity.js';
import type { StoredOidcContext } from './entities/stored-oidc-context.js';
import type { StoredRejection } from './entities/stored-rejection.js';

/*
 * The consent tables' rows as pg returns them (timestamptz as Date, jsonb parsed), and their mapping
 * to the entity shapes the hand-off works with: the hot statements of the hand-off run as named
 * statements on the pool, without TypeORM's hydration. The column lists are what those statements
 * select or return; the entities remain the schema (the drift test compares them with the migrations).
 */

/** The columns login and consent requests share (see challengeRequestColumns). */
const CHALLENGE_REQUEST_COLUMNS = `"id", "challenge_hash", "challenge_sealed", "verifier_hash", "csrf_hash", "client_id",
  "request_url", "requested_scope", "requested_audience", "oidc_context", "skip", "requested_at", "handled_at", "remember",
  "acr", "amr", "context", "force_subject_identifier", "error", "was_used"`;

/** Insert parameters for CHALLENGE_REQUEST_COLUMNS, in their order; jsonb as JSON text. */
export function challengeRequestValues(request: LoginRequestEntity | ConsentRequestEntity): unknown[] {
  return [
    request.id,
    request.challengeHash,
    request.challengeSealed,
    request.verifierHash,
    request.csrfHash,
    request.clientId,
    request.requestUrl,
    jsonb(request.requestedScope),
    jsonb(request.requestedAudience),
    jsonb(request.oidcContext),
    request.skip,
    request.requestedAt,
    request.handledAt,
    request.remember,
    request.acr,
    jsonb(request.amr),
    jsonb(request.context),
    request.forceSubjectIdentifier,
    jsonb(request.error),
    request.wasUsed,
  ];
}

export const LOGIN_REQUEST_COLUMNS = `${CHALLENGE_REQUEST_COLUMNS}, "subject", "login_session_id", "authenticated_at", "remember_for"`;

export const CONSENT_REQUEST_COLUMNS = `${CHALLENGE_REQUEST_COLUMNS}, "subject", "login_request_id", "login_challenge_sealed",
  "login_session_id", "authenticated_at", "granted_scope", "granted_audience", "remember_for", "session_access_token",
  "session_id_token"`;

export const LOGOUT_REQUEST_COLUMNS = `"id", "challenge_hash", "verifier_hash", "subject", "session_id", "request_url", "rp_initiated",
  "post_logout_redirect_uri", "accepted", "rejected", "was_used", "requested_at", "logout_hint", "ui_locales"`;

export const LOGIN_SESSION_COLUMNS = `"id", "token_hash", "subject", "authenticated_at", "remember", "expires_at"`;

interface ChallengeRequestRow {
  readonly id: string;
  readonly challenge_hash: string;
  readonly challenge_sealed: string;
  readonly verifier_hash: string | null;
  readonly csrf_hash: string;
  readonly client_id: string;
  readonly request_url: string;
  readonly requested_scope: string[];
  readonly requested_audience: string[];
  readonly oidc_context: StoredOidcContext;
  readonly skip: boolean;
  readonly requested_at: Date;
  readonly handled_at: Date | null;
  readonly remember: boolean;
  readonly acr: string;
  readonly amr: string[];
  readonly context: object;
  readonly force_subject_identifier: string;
  readonly error: StoredRejection | null;
  readonly was_used: boolean;
}

export interface LoginRequestRow extends ChallengeRequestRow {
  readonly subject: string;
  readonly login_session_id: string;
  readonly authenticated_at: Date | null;
  readonly remember_for: number;
}

export interface ConsentRequestRow extends ChallengeRequestRow {
  readonly subject: string;
  readonly login_request_id: string;
  readonly login_challenge_sealed: string;
  readonly login_session_id: string | null;
  readonly authenticated_at: Date;
  readonly granted_scope: string[];
  readonly granted_audience: string[];
  readonly remember_for: number;
  readonly session_access_token: object;
  readonly session_id_token: object;
}

export interface LogoutRequestRow {
  readonly id: string;
  readonly challenge_hash: string;
  readonly verifier_hash: string | null;
  readonly subject: string;
  readonly session_id: string;
  readonly request_url: string;
  readonly rp_initiated: boolean;
  readonly post_logout_redirect_uri: string;
  readonly accepted: boolean;
  readonly rejected: boolean;
  readonly was_used: boolean;
  readonly requested_at: Date;
  readonly logout_hint: string;
  readonly ui_locales: string[];
}

export interface LoginSessionRow {
  readonly id: string;
  readonly token_hash: string | null;
  readonly subject: string;
  readonly authenticated_at: Date;
  readonly remember: boolean;
  readonly expires_at: Date | null;
}

function challengeRequestOf(row: ChallengeRequestRow) {
  return {
    id: row.id,
    challengeHash: row.challenge_hash,
    challengeSealed: row.challenge_sealed,
    verifierHash: row.verifier_hash,
    csrfHash: row.csrf_hash,
    clientId: row.client_id,
    requestUrl: row.request_url,
    requestedScope: row.requested_scope,
    requestedAudience: row.requested_audience,
    oidcContext: row.oidc_context,
    skip: row.skip,
    requestedAt: row.requested_at,
    handledAt: row.handled_at,
    remember: row.remember,
    acr: row.acr,
    amr: row.amr,
    context: row.context,
    forceSubjectIdentifier: row.force_subject_identifier,
    error: row.error,
    wasUsed: row.was_used,
  };
}

export function toLoginRequest(row: LoginRequestRow): LoginRequestEntity {
  return {
    ...challengeRequestOf(row),
    subject: row.subject,
    loginSessionId: row.login_session_id,
    authenticatedAt: row.authenticated_at,
    rememberFor: row.remember_for,
  };
}

export function toConsentRequest(row: ConsentRequestRow): ConsentRequestEntity {
  return {
    ...challengeRequestOf(row),
    subject: row.subject,
    loginRequestId: row.login_request_id,
    loginChallengeSealed: row.login_challenge_sealed,
    loginSessionId: row.login_session_id,
    authenticatedAt: row.authenticated_at,
    grantedScope: row.granted_scope,
    grantedAudience: row.granted_audience,
    rememberFor: row.remember_for,
    sessionAccessToken: row.session_access_token,
    sessionIdToken: row.session_id_token,
  };
}

export function toLogoutRequest(row: LogoutRequestRow): LogoutRequestEntity {
  return {
    id: row.id,
    challengeHash: row.challenge_hash,
    verifierHash: row.verifier_hash,
    subject: row.subject,
    sessionId: row.session_id,
    requestUrl: row.request_url,
    rpInitiated: row.rp_initiated,
    postLogoutRedirectUri: row.post_logout_redirect_uri,
    logoutHint: row.logout_hint,
    uiLocales: row.ui_locales,
    accepted: row.accepted,
    rejected: row.rejected,
    wasUsed: row.was_used,
    requestedAt: row.requested_at,
  };
}

export function toLoginSession(row: LoginSessionRow): LoginSessionEntity {
  return {
    id: row.id,
    tokenHash: row.token_hash,
    subject: row.subject,
    authenticatedAt: row.authenticated_at,
    remember: row.remember,
    expiresAt: row.expires_at,
  };
}
