import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { PeriodicJob } from '../../common/scheduling/periodic-job.js';
import { type OAuth2Config } from '../../config/app-config.js';
import { ConsentFlowService } from '../../consent/index.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { TokensRepository, type ExpiredCounts } from '../tokens/tokens.repository.js';

/** Rows deleted by one janitor run. */
export interface JanitorCounts extends ExpiredCounts {
  /** Login, consent and logout requests and login sessions (the consent context's count). */
  readonly consentFlows: number;
}

/**
 * Deletes what can never be used again: expired codes, access and refresh tokens, jti records, and
 * (through the consent context) login/consent/logout requests that can no longer complete. Runs every OAUTH2_JANITOR_INTERVAL seconds (0 = never; the timer does not keep the process alive
 * and stops at shutdown) and on `POST /oauth2/flush`.
 */
@Injectable()
export class TokenJanitor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly job = new PeriodicJob(new Logger('Janitor'), { done: 'expired rows deleted', failed: 'janitor run failed' }, () =>
    this.flush(),
  );

  constructor(
    private readonly repository: TokensRepository,
    private readonly consentFlows: ConsentFlowService,
    @InjectConfig('oauth2') private readonly oauth2: OAuth2Config,
  ) {}

  onApplicationBootstrap(): void {
    this.job.start(this.oauth2.janitorIntervalSeconds);
  }

  onApplicationShutdown(): void {
    this.job.stop();
  }

  /**
   * Deletes everything that expired before `notAfter` (default: now). A later `notAfter` is cut to
   * now: flushing never removes a token that still works.
   */
  async flush(notAfter?: Date): Promise<JanitorCounts> {
    const now = new Date();
    const cutoff = notAfter === undefined || notAfter > now ? now : notAfter;
    // Tokens first: granted consents stay until their tokens are gone anyway.
    const tokens = await this.repository.deleteExpired(cutoff);
    return { ...tokens, consentFlows: await this.consentFlows.deleteExpired(cutoff) };
  }
}
