import { type ArgumentsHost, Catch, type ExceptionFilter, Inject, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { listenerOf } from '../http/listener.js';
import { familyOf } from './error-family.js';
import { renderError } from './error-renderer.js';
import { toProblem } from './problem.js';

/** Every error of every route, and of Fastify before routing, leaves through here. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const problem = toProblem(exception);
    if (problem.status >= 500) {
      this.logger.error({ msg: 'request failed', reqId: request.id, code: problem.code, error: problem.debug });
    }
    const path = request.url.split('?', 1)[0] ?? '/';
    const body = renderError(familyOf(listenerOf(request.raw), path), problem, request.id, this.config.errors.exposeInternal);
    if (problem.headers !== undefined) void reply.headers(problem.headers);
    void reply.status(problem.status).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body);
  }
}
