import { Injectable } from '@nestjs/common';
import { sha256Hex } from '../../common/crypto/digest.js';
import type { SecretsConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { setCookie, type SelfServiceRequest } from '../flows/self-service-request.js';
import { SelfServiceError } from '../self-service.errors.js';
import { CSRF_COOKIE } from '../self-service-cookies.js';
import { formTokenFor, formTokenMatches, isCookieToken, newCookieToken } from './csrf-tokens.js';

/** Lifetime of the CSRF cookie (nosurf's, as Kratos): it outlives any flow, so open tabs keep working. */
const CSRF_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 3600;

/**
 * CSRF protection of browser flows (double-submit cookie + form token). Used by every browser flow:
 * `issue` when a flow starts, `verify` when it is submitted, `clear` at logout.
 */
@Injectable()
export class CsrfProtection {
  constructor(@InjectConfig('secrets') private readonly secretsConfig: SecretsConfig) {}

  /**
   * Makes sure the browser holds a CSRF cookie (keeps a well-formed one, so parallel tabs share it;
   * sets a new one otherwise) and returns the form token for it, to put in the flow's `csrf_token` node.
   */
  issue(request: SelfServiceRequest): string {
    let cookieToken = request.browserCookies[CSRF_COOKIE];
    if (!isCookieToken(cookieToken)) {
      cookieToken = newCookieToken();
      setCookie(request, { name: CSRF_COOKIE, value: cookieToken, maxAgeSeconds: CSRF_COOKIE_MAX_AGE_SECONDS });
      // A request may start a flow and read the cookie again later in the same handler (e.g. restart).
      request.browserCookies[CSRF_COOKIE] = cookieToken;
    }
    return formTokenFor(cookieToken, this.secrets()[0]!);
  }

  /**
   * 403 `security_csrf_violation` unless `formToken` (the submitted `csrf_token`) was derived from the
   * request's CSRF cookie and, when `expectedHash` is given, is the token the flow was issued with
   * (its SHA-256, `flow.csrfTokenHash`).
   */
  verify(request: SelfServiceRequest, formToken: unknown, expectedHash?: string | null): void {
    const cookieToken = request.browserCookies[CSRF_COOKIE];
    if (typeof formToken !== 'string' || formToken === '' || !isCookieToken(cookieToken)) throw SelfServiceError.csrf();
    if (expectedHash !== undefined && expectedHash !== null && sha256Hex(formToken) !== expectedHash) throw SelfServiceError.csrf();
    if (!formTokenMatches(formToken, cookieToken, this.secrets())) throw SelfServiceError.csrf();
  }

  /** Drops the CSRF cookie (logout): the next flow gets a new one. */
  clear(request: SelfServiceRequest): void {
    setCookie(request, { name: CSRF_COOKIE, value: null });
  }

  private secrets(): readonly string[] {
    return this.secretsConfig.system;
  }
}
