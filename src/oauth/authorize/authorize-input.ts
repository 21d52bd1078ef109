import type { FastifyRequest } from 'fastify';
import { AppError } from '../../common/errors/app-error.js';
import { ErrorKind } from '../../common/errors/error-kind.js';
import { requestCookies } from '../../common/http/cookies.js';
import type { AuthorizeInput } from './authorize.service.js';

const FORM = 'application/x-www-form-urlencoded';

/**
 * The parts of an HTTP request the authorization endpoint reads. A POST body must be a form (OIDC Core
 * §3.1.2.1); anything else is refused before any parameter is looked at.
 */
export function authorizeInputOf(request: FastifyRequest): AuthorizeInput {
  const queryAt = request.url.indexOf('?');
  const rawQuery = queryAt === -1 ? '' : request.url.slice(queryAt + 1);
  const contentType = (request.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
  const hasBody = request.body !== undefined && request.body !== null;
  if (hasBody && contentType !== FORM) {
    throw new AppError(ErrorKind.UnsupportedMediaType, 'unsupported_media_type', `The authorization endpoint takes ${FORM} bodies only.`);
  }
  return {
    rawQuery,
    form: hasBody ? (request.body as Record<string, unknown>) : undefined,
    cookies: requestCookies(request),
  };
}
