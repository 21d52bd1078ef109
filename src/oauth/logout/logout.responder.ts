import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { sendHtmlPage } from '../../common/html/html-page.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import type { LogoutOutcome } from './logout.service.js';

/**
 * Writes a logout outcome: its cookies (HttpOnly, Path=/, Secure and SameSite as configured), then a
 * 302, or the front-channel logout page (which carries its own headers, no-store among them).
 */
@Injectable()
export class LogoutResponder {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  send(reply: FastifyReply, outcome: LogoutOutcome): FastifyReply {
    for (const cookie of outcome.cookies) {
      void reply.setCookie(cookie.name, cookie.value, {
        httpOnly: true,
        path: '/',
        secure: this.config.cookies.secure,
        sameSite: this.config.cookies.sameSite,
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
