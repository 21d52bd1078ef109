import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toProblem } from '../common/errors/problem.js';
import type { UrlsConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { UI_TEXTS } from './ui-catalogue.js';
import { UiRenderer } from './ui-renderer.js';

/**
 * Errors of the built-in pages are pages too: the status, the error code and, below 500, the message
 * (a 5xx shows a generic text; its cause goes to the log with the request id).
 */
@Catch()
export class UiErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Ui');

  constructor(
    @InjectConfig('urls') private readonly urls: UrlsConfig,
    private readonly renderer: UiRenderer,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const problem = toProblem(exception);
    if (problem.status >= 500) this.logger.error({ msg: 'request failed', reqId: request.id, code: problem.code, error: problem.debug });
    if (reply.sent) return;
    const message = problem.status >= 500 ? UI_TEXTS.error.unknown : problem.message;
    void reply.header('x-request-id', request.id);
    void this.renderer.send(
      reply,
      'error',
      UI_TEXTS.error.title,
      {
        errors: [{ status: problem.status, label: problem.code, message }],
        restartUrl: `${this.urls.issuer}/self-service/login/browser`,
      },
      problem.status,
    );
  }
}
