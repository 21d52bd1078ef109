import { Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PublicController } from '../common/auth/controllers.js';
import { OAuth2Pages } from './oauth2-pages.service.js';
import { UiErrorFilter } from './ui-error.filter.js';

/** The built-in OAuth2 login, consent and logout pages (defaults of URLS_LOGIN, URLS_CONSENT, URLS_LOGOUT). */
@PublicController('ui/oauth2')
@UseFilters(UiErrorFilter)
export class OAuth2PagesController {
  constructor(private readonly pages: OAuth2Pages) {}

  @Get('login')
  showLogin(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.pages.showLogin({ request, reply });
  }

  @Post('login')
  submitLogin(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.pages.submitLogin({ request, reply });
  }

  @Get('consent')
  showConsent(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.pages.showConsent({ request, reply });
  }

  @Post('consent')
  submitConsent(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.pages.submitConsent({ request, reply });
  }

  @Get('logout')
  showLogout(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.pages.showLogout({ request, reply });
  }

  @Post('logout')
  submitLogout(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.pages.submitLogout({ request, reply });
  }
}
