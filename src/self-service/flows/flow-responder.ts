import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CookiesConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { cookieOptions } from '../self-service-cookies.js';
import { markBrowserRequest } from './browser-requests.js';
import type { FlowOutcome } from './flow-outcome.js';
import { wantsJson, type CookieChange, type SelfServiceRequest } from './self-service-request.js';

/**
 * Writes self-service outcomes as HTTP replies, the same for every kind: API flows answer JSON; browser
 * flows redirect (302, never 307) to the flow's UI with `?flow=<id>`, or answer JSON when the client
 * asked for it (`Accept: application/json`, a SPA). Every answer is `no-store`. The cookies a request
 * decided (see SelfServiceRequest) go with the answer, or with the error when there is one.
 */
@Injectable()
export class FlowResponder {
  constructor(@InjectConfig('cookies') private readonly cookies: CookiesConfig) {}

  /**
   * Answers `input` with what `outcome` settles to. When it fails, the request is marked for the error
   * UI if a browser flow said so, its cookies are kept, and the error goes on to BrowserErrorFilter.
   */
  async answer(
    request: FastifyRequest,
    reply: FastifyReply,
    input: SelfServiceRequest,
    outcome: Promise<FlowOutcome>,
  ): Promise<FastifyReply> {
    try {
      return this.send(reply, input, await outcome);
    } catch (error) {
      if (input.browser) markBrowserRequest(request);
      this.writeCookies(reply, input);
      throw error;
    }
  }

  private send(reply: FastifyReply, input: SelfServiceRequest, outcome: FlowOutcome): FastifyReply {
    if (outcome.kind === 'refused' && (outcome.type === 'api' || wantsJson(input.accept))) throw outcome.error;
    this.writeCookies(reply, input);
    const onSent = outcome.onSent;
    if (onSent !== undefined) reply.raw.once('close', () => onSent());
    switch (outcome.kind) {
      case 'flow':
        if (outcome.type === 'api' || wantsJson(input.accept)) return this.json(reply, outcome.status, outcome.body);
        return this.redirect(reply, outcome.uiUrl);
      case 'restarted':
        if (outcome.type === 'api') {
          return reply
            .status(302)
            .header('location', outcome.apiLocation)
            .header('cache-control', 'no-store')
            .type('application/json; charset=utf-8')
            .send(outcome.body);
        }
        return this.redirect(reply, outcome.uiUrl);
      case 'completed':
        if (outcome.type === 'api') return this.json(reply, 200, outcome.apiBody);
        if (wantsJson(input.accept)) return this.json(reply, 200, outcome.spaBody);
        return this.redirect(reply, outcome.location);
      case 'json':
        return this.json(reply, outcome.status, outcome.body);
      case 'refused':
      case 'redirect':
        return this.redirect(reply, outcome.location);
    }
  }

  /** Sets (or clears) the cookies `input` decided; for pages that answer on their own (the built-in UI). */
  writeCookies(reply: FastifyReply, input: SelfServiceRequest): void {
    const changes = input.setCookies;
    if (changes === undefined) return;
    input.setCookies = undefined;
    for (const change of changes) this.writeCookie(reply, change);
  }

  private writeCookie(reply: FastifyReply, change: CookieChange): void {
    if (change.value === null) void reply.clearCookie(change.name, cookieOptions(this.cookies, undefined));
    else void reply.setCookie(change.name, change.value, cookieOptions(this.cookies, change.maxAgeSeconds));
  }

  private json(reply: FastifyReply, status: number, body: unknown): FastifyReply {
    return reply.status(status).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body);
  }

  private redirect(reply: FastifyReply, location: string): FastifyReply {
    return reply.status(302).header('location', location).header('cache-control', 'no-store').send();
  }
}
