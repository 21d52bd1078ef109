import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorsConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { logServerError, sendError } from './error-response.js';

/** Every error of every route, and of Fastify's body parsing and 404 handling, leaves through here. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(@InjectConfig('errors') private readonly errors: ErrorsConfig) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const problem = sendError(request, http.getResponse<FastifyReply>(), exception, this.errors.exposeInternal);
    if (problem.status >= 500) logServerError(request, problem);
  }
}
