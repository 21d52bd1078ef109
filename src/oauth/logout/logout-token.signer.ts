import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { SignJWT } from 'jose';
import { type UrlsConfig } from '../../config/app-config.js';
import { ID_TOKEN_SET, KeysService } from '../../keys/index.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';

/** The `events` member that makes a JWT a Logout Token (OIDC Back-Channel Logout 1.0 §2.4). */
export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/**
 * How long a Logout Token is valid: it only has to survive one POST, and a captured one should not be
 * replayable for long (Back-Channel Logout §4: "preferably at most two minutes").
 */
export const LOGOUT_TOKEN_TTL_SECONDS = 120;

export interface LogoutTokenInput {
  readonly clientId: string;
  /** The subject as this client sees it (public, pairwise or forced). */
  readonly subject: string;
  /** The ended login session. */
  readonly sid: string;
  readonly now: Date;
}

/**
 * Signs Logout Tokens with the newest signing key of `openid.id-token`, the key relying parties already
 * verify our ID tokens with. `typ: logout+jwt` (Back-Channel Logout §2.4, §4.1) and the `events` claim
 * keep it from being taken for an ID token, and it never has a `nonce`, which an ID token may.
 */
@Injectable()
export class LogoutTokenSigner {
  constructor(
    private readonly keys: KeysService,
    @InjectConfig('urls') private readonly urls: UrlsConfig,
  ) {}

  async sign(input: LogoutTokenInput): Promise<string> {
    const key = await this.keys.signingKey(ID_TOKEN_SET);
    const iat = Math.floor(input.now.getTime() / 1000);
    return new SignJWT({
      iss: this.urls.issuerIdentifier,
      sub: input.subject,
      aud: input.clientId,
      iat,
      exp: iat + LOGOUT_TOKEN_TTL_SECONDS,
      jti: randomUUID(),
      events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
      sid: input.sid,
    })
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'logout+jwt' })
      .sign(key.key);
  }
}
