import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from '../common/errors/error-response.js';
import { DecisionsError } from './decisions.errors.js';
import type { ErrorOutcome } from './pipeline/error-handlers.js';

/** Answers a refused decision the way its error handler chose; errors leave in the access family's shape. */
export function sendRefusal(request: FastifyRequest, reply: FastifyReply, outcome: ErrorOutcome, exposeInternal: boolean): FastifyReply {
  switch (outcome.type) {
    case 'json':
      sendError(request, reply, outcome.error, exposeInternal);
      return reply;
    case 'redirect':
      return reply.status(outcome.status).header('location', outcome.location).header('cache-control', 'no-store').send();
    case 'www_authenticate':
      sendError(
        request,
        reply,
        DecisionsError.unauthorized(outcome.error.message, { 'www-authenticate': `Basic realm="${outcome.realm}"` }),
        exposeInternal,
      );
      return reply;
  }
}
