import type { CookieSerializeOptions } from '@fastify/cookie';
import type { CookiesConfig } from '../config/app-config.js';

/** The session cookie (the documented name; Kratos' `ory_kratos_session`). Its value is the session token. */
export const SESSION_COOKIE = 'service_session';
/** The CSRF cookie of browser flows (double submit; see csrf/csrf-tokens.ts). */
export const CSRF_COOKIE = 'service_csrf_token';

/** HttpOnly, path `/`, SameSite and Secure from COOKIE_SAME_SITE / COOKIE_SECURE; `maxAgeSeconds` undefined = browser session. */
export function cookieOptions(config: CookiesConfig, maxAgeSeconds: number | undefined): CookieSerializeOptions {
  return {
    path: '/',
    httpOnly: true,
    secure: config.secure,
    sameSite: config.sameSite,
    ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
  };
}
