import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hmacSha256Base64url } from '../../common/crypto/digest.js';

/**
 * Double-submit CSRF tokens, pure. The browser holds a random cookie token (32 bytes, base64url);
 * forms carry a token derived from it, HMAC-SHA256 under the system secret. A cross-site page can
 * neither read the cookie nor compute the form token, so a form token that matches the request's
 * cookie proves the form came from a page of ours. The derived form can be stored in a flow's UI
 * (UIs fetch flows without the browser's cookies) without giving away the cookie value.
 */
const COOKIE_TOKEN_BYTES = 32;
const COOKIE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function newCookieToken(): string {
  return randomBytes(COOKIE_TOKEN_BYTES).toString('base64url');
}

/** A cookie value we could have issued (anything else is replaced, never trusted). */
export function isCookieToken(value: string | undefined): value is string {
  return value !== undefined && COOKIE_TOKEN.test(value);
}

/** The form token for a cookie token, under one secret (the first system secret when issuing). */
export function formTokenFor(cookieToken: string, secret: string): string {
  return hmacSha256Base64url(secret, `self-service-csrf:${cookieToken}`);
}

/** Whether `formToken` was derived from `cookieToken` under any of the secrets (rotation), in constant time. */
export function formTokenMatches(formToken: string, cookieToken: string, secrets: readonly string[]): boolean {
  const given = Buffer.from(formToken);
  let matched = false;
  for (const secret of secrets) {
    const expected = Buffer.from(formTokenFor(cookieToken, secret));
    if (expected.length === given.length && timingSafeEqual(expected, given)) matched = true;
  }
  return matched;
}
