import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hmacSha256Base64url } from '../../common/crypto/digest.js';
import type { FastifyRequest } from 'fastify';
import { sha256Hex } from '../../common/crypto/digest.js';
import { requestCookies } from '../../common/http/cookies.js';
import { SESSION_COOKIE } from '../self-service-cookies.js';

/** 256 random bits, base64url (43 characters). Stored only as its SHA-256 (`tokenHash`). */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored and looked up instead of the token. A 256-bit random token needs no key or salt. */
export function tokenHash(token: string): string {
  return sha256Hex(token);
}

/**
 * A session's logout token (Kratos' `logout_token`): HMAC-SHA256 of the session id under a system
 * secret, base64url. Derived, never stored: only someone who can read the session (its cookie) can be
 * given it, and it ends that session and no other.
 */
export function logoutToken(secret: string, sessionId: string): string {
  return hmacSha256Base64url(secret, `logout:${sessionId}`);
}

/** Whether `candidate` is the session's logout token under one of the secrets (so secrets can rotate); constant-time. */
export function isLogoutToken(secrets: readonly string[], sessionId: string, candidate: string): boolean {
  const given = Buffer.from(candidate, 'utf8');
  return secrets.some((secret) => {
    const expected = Buffer.from(logoutToken(secret, sessionId), 'utf8');
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

/** Longer values are no token of ours; refusing them early keeps hashing bounded. */
const MAX_TOKEN_LENGTH = 256;

/**
 * The session token of a request, in Kratos' order: `X-Session-Token`, then the `service_session`
 * cookie, then `Authorization: Bearer <token>` (scheme case-insensitive). Undefined when none.
 */
export function sessionTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers['x-session-token'];
  if (typeof header === 'string' && header !== '') return bounded(header);
  const cookie = requestCookies(request)[SESSION_COOKIE];
  if (cookie !== undefined && cookie !== '') return bounded(cookie);
  const authorization = request.headers.authorization;
  if (authorization !== undefined && /^bearer /i.test(authorization)) {
    const token = authorization.slice(7).trim();
    if (token !== '') return bounded(token);
  }
  return undefined;
}

function bounded(token: string): string | undefined {
  return token.length <= MAX_TOKEN_LENGTH ? token : undefined;
}
