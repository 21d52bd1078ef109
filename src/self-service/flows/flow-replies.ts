import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { wantsJson } from './browser-requests.js';
import type { FlowEntity } from './entities/flow.entity.js';
import { FLOW_KINDS } from './flow-kind.js';
import type { SelfServiceHttp } from './flows.service.js';

/**
 * The HTTP answers of flows, the same for every kind (reference §1.5, seed 001):
 * API flows answer JSON; browser flows redirect (302, never 307: S12) to the flow's UI with
 * `?flow=<id>`, or answer JSON when the client asked for it (`Accept: application/json`, a SPA).
 */
@Injectable()
export class FlowReplies {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** A flow was created: API → 200 `body`; browser → 302 to its UI. */
  started(http: SelfServiceHttp, flow: FlowEntity, body: unknown, uiUrl: string): FastifyReply {
    if (flow.type === 'api' || wantsJson(http.request)) return this.json(http.reply, 200, body);
    return this.redirect(http.reply, uiUrl);
  }

  /**
   * The form is shown again (validation errors, or a new state): API → `apiStatus` (400 for errors,
   * 200 for a state change) with the flow; browser → 302 to its UI (JSON with `apiStatus` for a SPA).
   */
  form(http: SelfServiceHttp, flow: FlowEntity, body: unknown, uiUrl: string, apiStatus: 200 | 400): FastifyReply {
    if (flow.type === 'api' || wantsJson(http.request)) return this.json(http.reply, apiStatus, body);
    return this.redirect(http.reply, uiUrl);
  }

  /**
   * The submitted flow had expired and `fresh` replaces it (carrying the "expired" message): 302 to the
   * fresh flow — for API flows to `GET <kind>/flows?id=` with the fresh flow as the body too, so clients
   * that do not follow redirects still get it; for browsers to the UI.
   */
  restarted(http: SelfServiceHttp, fresh: FlowEntity, body: unknown, uiUrl: string): FastifyReply {
    if (fresh.type === 'api') {
      const location = `${this.config.urls.issuer}${FLOW_KINDS[fresh.kind].path}/flows?id=${fresh.id}`;
      return http.reply
        .status(302)
        .header('location', location)
        .header('cache-control', 'no-store')
        .type('application/json; charset=utf-8')
        .send(body);
    }
    return this.redirect(http.reply, uiUrl);
  }

  json(reply: FastifyReply, status: number, body: unknown): FastifyReply {
    return reply.status(status).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body);
  }

  redirect(reply: FastifyReply, location: string): FastifyReply {
    return reply.status(302).header('location', location).header('cache-control', 'no-store').send();
  }
}
