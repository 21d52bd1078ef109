import { type ArgumentsHost, Catch, type ExceptionFilter, Inject } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { logServerError, sendError } from './error-response.js';

/** Every error of every route, and of Fastify's body parsing and 404 handling, leaves through here. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const problem = sendError(request, http.getResponse<FastifyReply>(), exception, this.config.errors.exposeInternal);
    if (problem.status >= 500) logServerError(request, problem);
  }
}
