import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import type { LogoutStep } from '../../consent/logout-hand-off.js';

/** Writes a logout step: its cookies (HttpOnly, Path=/, Secure and SameSite as configured), then a 302. */
@Injectable()
export class LogoutResponder {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  send(reply: FastifyReply, step: LogoutStep): FastifyReply {
    for (const cookie of step.cookies) {
      void reply.setCookie(cookie.name, cookie.value, {
        httpOnly: true,
        path: '/',
        secure: this.config.cookies.secure,
        sameSite: this.config.cookies.sameSite,
        ...(cookie.maxAgeSeconds === undefined ? {} : { maxAge: cookie.maxAgeSeconds }),
      });
    }
    return reply.header('cache-control', 'no-store').redirect(step.location, 302);
  }
}
