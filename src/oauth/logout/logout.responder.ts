import { Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { sendHtmlPage } from '../../common/html/html-page.js';
import type { CookiesConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import type { LogoutOutcome } from './logout.service.js';

/**
 * Writes a logout outcome: its cookies (HttpOnly, Path=/, Secure and SameSite as configured), then a
 * 302, or the front-channel logout page (which carries its own headers, no-store among them).
 */
@Injectable()
export class LogoutResponder {
  constructor(@InjectConfig('cookies') private readonly cookies: CookiesConfig) {}

  send(reply: FastifyReply, outcome: LogoutOutcome): FastifyReply {
    for (const cookie of outcome.cookies) {
      void reply.setCookie(cookie.name, cookie.value, {
        httpOnly: true,
        path: '/',
        secure: this.cookies.secure,
        sameSite: this.cookies.sameSite,
        ...(cookie.maxAgeSeconds === undefined ? {} : { maxAge: cookie.maxAgeSeconds }),
      });
    }
    switch (outcome.kind) {
      case 'redirect':
        return reply.header('cache-control', 'no-store').redirect(outcome.location, 302);
      case 'page':
        return sendHtmlPage(reply, outcome.page);
    }
  }
}
