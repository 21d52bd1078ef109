import type { FastifyRequest } from 'fastify';
import { requestCookies } from '../../common/http/cookies.js';
import { sessionTokenOf } from '../sessions/session-token.js';
import type { SelfServiceRequest } from './self-service-request.js';

/** What self-service reads of a request, read once here at the edge (controllers, the built-in UI). */
export function selfServiceRequestOf(request: FastifyRequest): SelfServiceRequest {
  const headers = request.headers;
  return {
    query: request.query as Record<string, unknown>,
    body: request.body,
    contentType: headers['content-type'],
    accept: headers.accept,
    hasCookieHeader: headers.cookie !== undefined,
    origin: headers.origin,
    browserCookies: requestCookies(request),
    sessionToken: sessionTokenOf(request),
    ip: request.ip,
    url: request.url,
    browser: false,
    setCookies: undefined,
  };
}
