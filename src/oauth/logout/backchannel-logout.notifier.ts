import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { OutboundHttp } from '../../common/http/outbound-http.js';
import { OutboundError } from '../../common/http/outbound-http.error.js';
import type { EndedLoginSession, LogoutParticipant } from '../../consent/index.js';
import { SubjectIdentifiers } from '../tokens/subject-identifiers.js';
import { LogoutTokenSigner } from './logout-token.signer.js';

/** How one delivery ended; `delivered` when the relying party answered 200 or 204 (Back-Channel Logout §2.8). */
export type BackchannelOutcome = 'delivered' | 'refused' | 'failed';

/**
 * OIDC Back-Channel Logout 1.0: POSTs a Logout Token (`logout_token`, form-encoded) to the
 * `backchannel_logout_uri` of every client of an ended login session, through the outbound client
 * (private addresses refused unless configured; OUTBOUND_TIMEOUT_MS and OUTBOUND_MAX_BYTES per request).
 *
 * The user's logout never waits for it: `notify` starts every delivery at once and returns, and a
 * failure is only logged (client id and cause, never the token). There is no retry, as in Hydra: the
 * token is short-lived, the session is already gone here, and a relying party that was down missed an
 * event that a durable queue would be needed to replay. Deliveries still under way at shutdown are
 * awaited (each one is bounded by the outbound timeout).
 */
@Injectable()
export class BackchannelLogoutNotifier implements OnModuleDestroy {
  private readonly logger = new Logger('BackchannelLogout');
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly outbound: OutboundHttp,
    private readonly tokens: LogoutTokenSigner,
    private readonly subjects: SubjectIdentifiers,
  ) {}

  /** Starts the deliveries for `ended`; the caller does not wait for the promise (it never rejects). */
  notify(ended: EndedLoginSession): Promise<BackchannelOutcome[]> {
    const deliveries = ended.participants
      .filter(({ client }) => client.backchannelLogoutUri !== '')
      .map((participant) => this.deliver(ended, participant));
    const all = Promise.all(deliveries);
    this.pending.add(all);
    void all.finally(() => this.pending.delete(all));
    return all;
  }

  /** Resolves once every delivery started so far has ended (delivered, refused or failed). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  onModuleDestroy(): Promise<void> {
    return this.idle();
  }

  /** One delivery; never rejects. */
  private async deliver(ended: EndedLoginSession, { client, forcedSubjectIdentifier }: LogoutParticipant): Promise<BackchannelOutcome> {
    try {
      const token = await this.tokens.sign({
        clientId: client.id,
        subject: this.subjects.forClient(client, ended.subject, forcedSubjectIdentifier),
        sid: ended.sid,
        now: new Date(),
      });
      const response = await this.outbound.postForm(client.backchannelLogoutUri, { logout_token: token });
      if (response.status === 200 || response.status === 204) return 'delivered';
      this.logger.warn({ msg: 'back-channel logout refused by the client', client_id: client.id, status: response.status });
      return 'refused';
    } catch (error) {
      this.logger.warn({
        msg: 'back-channel logout not delivered',
        client_id: client.id,
        failure: error instanceof OutboundError ? error.failure : 'internal',
        error: error instanceof Error ? error.message : String(error),
      });
      return 'failed';
    }
  }
}
