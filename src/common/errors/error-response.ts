import { Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { databaseUnavailableResponses } from '../../metrics/unavailable-metric.js';
import { listenerOf } from '../http/listener.js';
import { DATABASE_UNAVAILABLE_REASON } from './app-error.js';
import { familyOf } from './error-family.js';
import { renderError } from './error-renderer.js';
import { toProblem, type Problem } from './problem.js';

/**
 * Sends any error in the shape of the family that owns the request's path. Used by the Nest exception
 * filter and by Fastify's `frameworkErrors` hook (errors raised while routing, before Nest runs).
 */
export function sendError(request: FastifyRequest, reply: FastifyReply, exception: unknown, exposeInternal: boolean): Problem {
  const problem = toProblem(exception);
  const path = request.url.split('?', 1)[0] ?? '/';
  const listener = listenerOf(request.raw);
  if (problem.details?.['reason'] === DATABASE_UNAVAILABLE_REASON)
    databaseUnavailableResponses()
      .series(listener ?? 'unknown')
      .inc();
  const body = renderError(familyOf(listener, path), problem, request.id, exposeInternal);
  if (problem.headers !== undefined) void reply.headers(problem.headers);
  void reply
    .status(problem.status)
    .header('x-request-id', request.id)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(body);
  return problem;
}

const errorsLogger = new Logger('Errors');

/**
 * Logs a request that failed on the server's side, once, in one format for every route: the exception
 * filter's (Nest routes) and the plain routes'. 4xx are the caller's doing and are not logged.
 */
export function logServerError(request: FastifyRequest, problem: Problem): void {
  errorsLogger.error({ msg: 'request failed', reqId: request.id, code: problem.code, error: problem.debug });
}
