import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { DEFAULT_PAGE_OPTIONS, parsePage, type Page, type PageOptions } from './page.js';

/** Handler parameter: the validated `limit`/`offset` of the request (400 when malformed). */
export const PageQuery = createParamDecorator((options: PageOptions | undefined, context: ExecutionContext): Page => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  return parsePage(request.query as Record<string, unknown>, options ?? DEFAULT_PAGE_OPTIONS);
});
