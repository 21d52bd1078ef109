import type { Client } from '../clients/index.js';
import type { AuthorizationContext } from './authorization-context.js';
import { ConsentError } from './consent.errors.js';
import { scopesCovered, type ScopeRules } from './scope-strategy.js';

/** A remembered login session that answers the browser's session cookie. */
export interface RememberedLogin {
  readonly subject: string;
  readonly authenticatedAt: Date;
  /** The subject identifier forced for this client at an earlier login ('' when none). */
  readonly forcedSubjectIdentifier: string;
}

/** What a remembered, unexpired consent of the same subject and client granted. */
export interface RememberedConsent {
  readonly grantedScope: readonly string[];
  readonly grantedAudience: readonly string[];
}

type LoginInputs = Pick<AuthorizationContext, 'prompt' | 'maxAgeSeconds' | 'hintMatches'>;
type ConsentInputs = Pick<AuthorizationContext, 'prompt' | 'requestedScope' | 'requestedAudience'>;

/**
 * Whether the login app may be told to skip (Hydra's requestAuthentication): `prompt=login` always
 * asks; otherwise a remembered session skips unless `max_age` has passed since it authenticated. An
 * `id_token_hint` naming someone else is `login_required`, and so is `prompt=none` whenever the
 * answer is not a skip.
 */
export function decideLoginSkip(context: LoginInputs, session: RememberedLogin | undefined, now: Date): boolean {
  const skip = loginSkip(context, session, now);
  if (!skip && context.prompt.has('none')) {
    throw ConsentError.loginRequired(
      session === undefined
        ? "Prompt 'none' was requested, but no existing login session was found."
        : "Prompt 'none' was requested, but the login session is older than max_age.",
    );
  }
  return skip;
}

function loginSkip(context: LoginInputs, session: RememberedLogin | undefined, now: Date): boolean {
  if (context.prompt.has('login') || session === undefined) return false;
  if (context.maxAgeSeconds !== undefined && session.authenticatedAt.getTime() + context.maxAgeSeconds * 1000 < now.getTime()) {
    return false;
  }
  if (context.hintMatches !== undefined && !context.hintMatches(session.subject, session.forcedSubjectIdentifier)) {
    throw ConsentError.loginRequired('The subject of the id_token_hint is not the subject of the login session.');
  }
  return true;
}

/**
 * RFC 6749 §10.2: a public client cannot be identified, so its consent is only remembered when the
 * redirect goes somewhere only it can receive: https, or a loopback host.
 */
export function consentMayBeSkipped(client: Pick<Client, 'tokenEndpointAuthMethod'>, redirectUri: string): boolean {
  if (client.tokenEndpointAuthMethod !== 'none') return true;
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return true;
  if (url.protocol !== 'http:') return false;
  const host = url.hostname;
  return host === 'localhost' || host.endsWith('.localhost') || host === '127.0.0.1' || host === '[::1]';
}

/**
 * Whether the consent app may be told to skip (Hydra's requestConsent): `prompt=consent` always asks;
 * otherwise a remembered consent whose grants cover every requested scope (under the scope strategy)
 * and audience skips. `prompt=none` without a skip is `consent_required`.
 */
export function decideConsentSkip(
  context: ConsentInputs,
  skippable: boolean,
  remembered: readonly RememberedConsent[],
  rules: ScopeRules,
): boolean {
  const skip =
    !context.prompt.has('consent') &&
    skippable &&
    remembered.some(
      (consent) =>
        scopesCovered(rules, consent.grantedScope, context.requestedScope) &&
        context.requestedAudience.every((audience) => consent.grantedAudience.includes(audience)),
    );
  if (!skip && context.prompt.has('none')) {
    throw ConsentError.consentRequired(
      skippable
        ? "Prompt 'none' was requested, but no previous consent covers the requested scopes."
        : "Prompt 'none' was requested, but the client is public and its redirect URI is neither https nor loopback, so consent cannot be remembered.",
    );
  }
  return skip;
}

/** Whether a login/consent flow that started at `requestedAt` is past its lifetime. */
export function flowExpired(requestedAt: Date, ttlSeconds: number, now: Date): boolean {
  return requestedAt.getTime() + ttlSeconds * 1000 < now.getTime();
}

/**
 * Whether two authorize URLs carry the same request: same endpoint and the same parameters, in any
 * order, the hand-off's own `login_verifier` / `consent_verifier` aside. A verifier only completes the
 * request it was issued for.
 */
export function sameAuthorizationRequest(a: string, b: string): boolean {
  const left = normalized(a);
  return left !== undefined && left === normalized(b);
}

function normalized(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  const params = [...url.searchParams].filter(([name]) => name !== 'login_verifier' && name !== 'consent_verifier');
  params.sort(([x, xv], [y, yv]) => (x === y ? compare(xv, yv) : compare(x, y)));
  return `${url.origin}${url.pathname}?${new URLSearchParams(params).toString()}`;
}

function compare(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * `url` with one more query parameter. The existing query is kept byte for byte (no re-encoding), so
 * the browser comes back to exactly the authorize request it left, plus the verifier.
 */
export function withQueryParameter(url: string, name: string, value: string): string {
  const separator = url.includes('?') ? (url.endsWith('?') || url.endsWith('&') ? '' : '&') : '?';
  return `${url}${separator}${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
}
