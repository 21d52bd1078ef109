import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppError } from '../../common/errors/app-error.js';
import { statusOf } from '../../common/errors/error-kind.js';
import { sendError } from '../../common/errors/error-response.js';
import { acceptsHtml } from '../../common/html/accepts-html.js';
import { sendHtmlPage } from '../../common/html/html-page.js';
import { type CookiesConfig, type ErrorsConfig, type OAuth2Config, type UrlsConfig } from '../../config/app-config.js';
import type { CookieInstruction } from '../../consent/index.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { errorPage } from '../fallbacks/fallback-pages.js';
import { AuthorizeError } from './authorize.errors.js';
import { deliverToClient, type AuthorizeDelivery } from './authorize-response.js';
import type { AuthorizeOutcome } from './authorize.service.js';

/**
 * Writes an authorization outcome to the reply: cookies, then a 302 or the form_post page; an error
 * that must not reach a client is a page for browsers (or a 302 to URLS_ERROR when the deployer set
 * their own) and genericError JSON for everyone else.
 */
@Injectable()
export class AuthorizeResponder {
  private readonly builtInErrorPage: boolean;

  constructor(
    @InjectConfig('oauth2') private readonly oauth2: OAuth2Config,
    @InjectConfig('urls') urls: UrlsConfig,
    @InjectConfig('errors') private readonly errors: ErrorsConfig,
    @InjectConfig('cookies') private readonly cookies: CookiesConfig,
  ) {
    this.builtInErrorPage = oauth2.urls.error === `${urls.issuer}/oauth2/fallbacks/error`;
  }

  send(request: FastifyRequest, reply: FastifyReply, outcome: AuthorizeOutcome): FastifyReply {
    switch (outcome.kind) {
      case 'deliver':
        for (const cookie of outcome.cookies) this.setCookie(reply, cookie);
        return deliver(reply, outcome.delivery);
      case 'show_error':
        return this.showError(request, reply, outcome.error);
    }
  }

  private setCookie(reply: FastifyReply, cookie: CookieInstruction): void {
    void reply.setCookie(cookie.name, cookie.value, {
      httpOnly: true,
      path: '/',
      secure: this.cookies.secure,
      sameSite: this.cookies.sameSite,
      ...(cookie.maxAgeSeconds === undefined ? {} : { maxAge: cookie.maxAgeSeconds }),
    });
  }

  private showError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
    if (!acceptsHtml(request.headers.accept)) {
      sendError(request, reply, error, this.errors.exposeInternal);
      return reply;
    }
    const hint = error instanceof AuthorizeError && error.hint !== undefined && error.hint !== '' ? error.hint : undefined;
    if (!this.builtInErrorPage) {
      const parameters = { error: error.code, error_description: error.message, ...(hint === undefined ? {} : { error_hint: hint }) };
      return deliver(reply, deliverToClient(this.oauth2.urls.error, 'query', parameters));
    }
    return sendHtmlPage(reply, errorPage({ error: error.code, description: error.message, hint }, statusOf(error.kind)));
  }
}

function deliver(reply: FastifyReply, delivery: AuthorizeDelivery): FastifyReply {
  switch (delivery.kind) {
    case 'redirect':
      // The location may carry a code or tokens: no cache may keep it (RFC 6749 §5.1 in spirit).
      return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').redirect(delivery.location, 302);
    case 'page':
      return sendHtmlPage(reply, delivery.page);
  }
}
