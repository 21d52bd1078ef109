import type { CookieInstruction } from './authorization-context.js';

/** The remembered login session (a random value; its SHA-256 is stored, never the sid). */
export const LOGIN_SESSION_COOKIE = 'oauth2_authentication_session';
/** Binds a login verifier to the browser that started the login request. */
export const LOGIN_CSRF_COOKIE = 'oauth2_authentication_csrf';
/** Binds a consent verifier to the browser that started the consent request. */
export const CONSENT_CSRF_COOKIE = 'oauth2_consent_csrf';

/** `maxAgeSeconds` undefined: a browser-session cookie. */
export function setCookie(name: string, value: string, maxAgeSeconds: number | undefined): CookieInstruction {
  return { name, value, maxAgeSeconds };
}

export function clearCookie(name: string): CookieInstruction {
  return { name, value: '', maxAgeSeconds: 0 };
}
