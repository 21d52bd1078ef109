import { Get, Header, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PublicController } from '../common/auth/controllers.js';
import { FlowPages } from './flow-pages.service.js';
import { UiRenderer } from './ui-renderer.js';
import { UiErrorFilter } from './ui-error.filter.js';

/** The self-service pages (`/ui/login`, ...), the error page and the stylesheet; FlowPages writes the answers. */
@PublicController('ui')
@UseFilters(UiErrorFilter)
export class UiPagesController {
  constructor(
    private readonly pages: FlowPages,
    private readonly renderer: UiRenderer,
  ) {}

  @Get('login')
  login(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.pages.show('login', { request, reply });
  }

  @Get('registration')
  registration(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.pages.show('registration', { request, reply });
  }

  @Get('recovery')
  recovery(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.pages.show('recovery', { request, reply });
  }

  @Get('verification')
  verification(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.pages.show('verification', { request, reply });
  }

  @Get('settings')
  settings(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.pages.show('settings', { request, reply });
  }

  @Post('settings/sessions')
  signOutElsewhere(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.pages.signOutElsewhere({ request, reply });
  }

  @Get('error')
  error(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.pages.showError({ request, reply });
  }

  @Get('static/style.css')
  @Header('content-type', 'text/css; charset=utf-8')
  @Header('cache-control', 'public, max-age=3600')
  @Header('x-content-type-options', 'nosniff')
  stylesheet(): string {
    return this.renderer.stylesheet;
  }
}
