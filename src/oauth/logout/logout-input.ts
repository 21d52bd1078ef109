import type { FastifyRequest } from 'fastify';
import { AppError } from '../../common/errors/app-error.js';
import { ErrorKind } from '../../common/errors/error-kind.js';
import { requestCookies } from '../../common/http/cookies.js';
import type { LogoutInput } from './logout.service.js';

const FORM = 'application/x-www-form-urlencoded';

/** The parts of a logout request the service reads: the query of a GET, the form of a POST (nothing else). */
export function logoutInputOf(request: FastifyRequest, from: 'query' | 'form'): LogoutInput {
  if (from === 'form') {
    const contentType = (request.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
    const hasBody = request.body !== undefined && request.body !== null;
    if (hasBody && contentType !== FORM) {
      throw new AppError(ErrorKind.UnsupportedMediaType, 'unsupported_media_type', `The logout endpoint takes ${FORM} bodies only.`);
    }
  }
  const parameters = from === 'query' ? request.query : request.body;
  return {
    parameters: (parameters ?? {}) as Record<string, unknown>,
    cookies: requestCookies(request),
    path: request.url,
  };
}
