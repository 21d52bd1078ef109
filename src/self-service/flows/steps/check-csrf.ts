import type { CsrfProtection } from '../../csrf/csrf-protection.js';
import { SelfServiceError } from '../../self-service.errors.js';
import type { FlowEntity } from '../entities/flow.entity.js';
import type { SelfServiceRequest } from '../self-service-request.js';

/**
 * The API/browser conventions of a submit: an API flow must not come from a browser (a `Cookie` or
 * `Origin` header: 400); a browser flow must carry, in `csrf_token`, the CSRF token it was issued with,
 * matching the browser's CSRF cookie (403 `security_csrf_violation`).
 */
export function checkCsrf(
  csrf: CsrfProtection,
  flow: FlowEntity,
  request: SelfServiceRequest,
  body: Readonly<Record<string, unknown>>,
): void {
  if (flow.type === 'api') {
    if (request.hasCookieHeader) throw SelfServiceError.browserRequestOnApiFlow('Cookie');
    if (request.origin !== undefined) throw SelfServiceError.browserRequestOnApiFlow('Origin');
    return;
  }
  csrf.verify(request, body['csrf_token'], flow.csrfTokenHash);
}
