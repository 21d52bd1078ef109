import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { KRATOS_PAGE_OPTIONS, parseNumberedPage, type NumberedPage, type NumberedPageOptions } from './numbered-page.js';

/** Handler parameter: the validated `page`/`per_page` of the request (400 when malformed). */
export const NumberedPageQuery = createParamDecorator(
  (options: NumberedPageOptions | undefined, context: ExecutionContext): NumberedPage => {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return parseNumberedPage(request.query as Record<string, unknown>, options ?? KRATOS_PAGE_OPTIONS);
  },
);
