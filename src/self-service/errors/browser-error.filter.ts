import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorFamily } from '../../common/errors/error-family.js';
import { renderError } from '../../common/errors/error-renderer.js';
import { sendError } from '../../common/errors/error-response.js';
import { toProblem } from '../../common/errors/problem.js';
import type { ErrorsConfig, SelfServiceConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { isBrowserRequest } from '../flows/browser-requests.js';
import { acceptsHtml } from '../../common/html/accepts-html.js';
import { ErrorContainersService } from './error-containers.service.js';

/**
 * Errors of self-service routes. A navigating browser in a browser flow (it wants HTML) is sent to the
 * error UI (302, `?error=<container id>`) with the error stored in a container, as Kratos forwards
 * errors; everyone else (API flows, SPAs, fetch) gets the identity-family JSON error as usual.
 */
@Catch()
export class BrowserErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('SelfService');

  constructor(
    @InjectConfig('selfService') private readonly selfService: SelfServiceConfig,
    @InjectConfig('errors') private readonly errors: ErrorsConfig,
    private readonly containers: ErrorContainersService,
  ) {}

  async catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    if (isBrowserRequest(request) && acceptsHtml(request.headers.accept) && !reply.sent) {
      try {
        const problem = toProblem(exception);
        const rendered = renderError(ErrorFamily.Identity, problem, request.id, false) as { error: Record<string, unknown> };
        const id = await this.containers.store([rendered.error]);
        if (problem.status >= 500)
          this.logger.error({ msg: 'request failed', reqId: request.id, code: problem.code, error: problem.debug });
        const url = new URL(this.selfService.urls.error);
        url.searchParams.set('error', id);
        void reply.status(302).header('location', url.href).header('cache-control', 'no-store').send();
        return;
      } catch (error) {
        exception = error;
      }
    }
    const problem = sendError(request, reply, exception, this.errors.exposeInternal);
    if (problem.status >= 500) this.logger.error({ msg: 'request failed', reqId: request.id, code: problem.code, error: problem.debug });
  }
}
