import { Injectable, Logger } from '@nestjs/common';
import { sha1HexForRangeApi } from '../../common/crypto/digest.js';
import { CommonErrors } from '../../common/errors/app-error.js';
import { OutboundHttp } from '../../common/http/outbound-http.js';
import type { HaveIBeenPwnedConfig, PasswordPolicyConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';

const RANGE_LINE = /^([0-9A-F]{35}):(\d+)$/;

/**
 * The online breached-password check (Kratos' HIBP validator): the SHA-1 of the password is computed
 * here and only its first five hex digits are sent to the range API (k-anonymity); the answer lists the
 * suffixes of every breached hash with that prefix and how often each was seen. Off unless
 * PASSWORD_HIBP_ENABLED. Fetched through OutboundHttp (timeout, size cap, address policy).
 */
@Injectable()
export class BreachedPasswords {
  private readonly logger = new Logger('PasswordPolicy');
  private readonly config: HaveIBeenPwnedConfig;

  constructor(
    private readonly outbound: OutboundHttp,
    @InjectConfig('passwordPolicy') passwordPolicy: PasswordPolicyConfig,
  ) {
    this.config = passwordPolicy.haveIBeenPwned;
  }

  get enabled(): boolean {
    return this.config.enabled;
  }

  /**
   * How many breaches the password was seen in (0 when not listed). `undefined` when the API could not
   * be asked and network errors are ignored; a 503 when they are not.
   */
  async breachCount(password: string): Promise<number | undefined> {
    const digest = sha1HexForRangeApi(password);
    const prefix = digest.slice(0, 5);
    const suffix = digest.slice(5);
    let body: string;
    try {
      const response = await this.outbound.get(`${this.config.url}/range/${prefix}`, { accept: 'text/plain' });
      if (response.status !== 200) throw new Error(`the range API answered ${response.status}`);
      body = response.body.toString('utf8');
    } catch (error) {
      return this.unreachable(error);
    }
    for (const line of body.split(/\r?\n/)) {
      const match = RANGE_LINE.exec(line.trim());
      if (match?.[1] === suffix) return Number(match[2]);
    }
    return 0;
  }

  private unreachable(error: unknown): undefined {
    const reason = error instanceof Error ? error.message : String(error);
    if (this.config.ignoreNetworkErrors) {
      this.logger.warn(`breached-password check skipped: ${reason}`);
      return undefined;
    }
    throw CommonErrors.unavailable('The password could not be checked against known data breaches; try again later.', error);
  }
}
