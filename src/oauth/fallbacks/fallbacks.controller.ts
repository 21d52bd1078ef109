import { Get, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { PublicController } from '../../common/auth/controllers.js';
import { sendHtmlPage } from '../../common/html/html-page.js';
import { errorPage, logoutDonePage, notConfiguredPage, shownErrorOf } from './fallback-pages.js';

/**
 * The pages the URLS_* settings point to until the deployer sets their own (Hydra's
 * `/oauth2/fallbacks/*`): an error page, and placeholders for the login, consent and logout apps.
 */
@PublicController('oauth2/fallbacks')
export class FallbacksController {
  @Get('error')
  error(@Query() query: Record<string, unknown>, @Res() reply: FastifyReply): FastifyReply {
    return sendHtmlPage(reply, errorPage(shownErrorOf(query), 200));
  }

  @Get('login')
  login(@Res() reply: FastifyReply): FastifyReply {
    return sendHtmlPage(reply, notConfiguredPage({ setting: 'URLS_LOGIN', purpose: 'login' }));
  }

  @Get('consent')
  consent(@Res() reply: FastifyReply): FastifyReply {
    return sendHtmlPage(reply, notConfiguredPage({ setting: 'URLS_CONSENT', purpose: 'consent' }));
  }

  @Get('logout')
  logout(@Res() reply: FastifyReply): FastifyReply {
    return sendHtmlPage(reply, notConfiguredPage({ setting: 'URLS_LOGOUT', purpose: 'logout' }));
  }

  @Get('logout/callback')
  logoutCallback(@Res() reply: FastifyReply): FastifyReply {
    return sendHtmlPage(reply, logoutDonePage());
  }
}
