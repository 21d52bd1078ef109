import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { SignJWT } from 'jose';
import { type OAuth2Config, type UrlsConfig } from '../../config/app-config.js';
import { ACCESS_TOKEN_SET, KeysService } from '../../keys/index.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import type { StoredAccessToken, StoredGrant } from './stored-token.js';
import { TokenCodec } from './token-codec.js';

/** A grant's fields, before the token's own times are known. */
export type GrantFields = Omit<StoredGrant, 'issuedAt' | 'expiresAt'>;

export interface MintedAccessToken {
  /** What the client gets. */
  readonly token: string;
  /** What is stored. */
  readonly stored: StoredAccessToken;
  readonly expiresIn: number;
}

/**
 * Makes access tokens in the configured format (OAUTH2_ACCESS_TOKEN_STRATEGY). `opaque`:
 * `lk_at_<random>.<hmac>`. `jwt`: an RFC 9068 token (`typ: at+jwt`) signed by the newest key of
 * `openid.jwt-access-token` (created with one RS256 key on first use), with Hydra's claims besides
 * RFC 9068's (`scp`, `ext`); its `sub` is the one the client sees, so that a pairwise client does not
 * learn the local subject from its access tokens. Either way the token is recorded, so that revocation, introspection and
 * /userinfo treat both formats alike; the caller stores `stored`.
 */
@Injectable()
export class AccessTokenMinter {
  constructor(
    private readonly codec: TokenCodec,
    private readonly keys: KeysService,
    @InjectConfig('oauth2') private readonly oauth2: OAuth2Config,
    @InjectConfig('urls') private readonly urls: UrlsConfig,
  ) {}

  async mint(grant: GrantFields, now: Date): Promise<MintedAccessToken> {
    const expiresIn = this.oauth2.ttl.accessToken;
    const expiresAt = new Date(now.getTime() + expiresIn * 1000);
    if (this.oauth2.accessTokenStrategy === 'opaque') {
      const { token, signature } = this.codec.mint('access_token');
      return { token, stored: storedAccessToken(grant, grant.audience, signature, now, expiresAt), expiresIn };
    }
    // RFC 9068 §2.2 requires `aud`: the granted audience, else the client itself (never an empty list).
    // It is recorded as the token's audience too, so that introspection (and which resource servers
    // may introspect it) agrees with what the token says of itself.
    const audience = grant.audience.length > 0 ? grant.audience : [grant.clientId];
    const token = await this.signJwt(grant, audience, now, expiresAt);
    return { token, stored: storedAccessToken(grant, audience, this.codec.jwtSignatureOf(token)!, now, expiresAt), expiresIn };
  }

  private async signJwt(grant: GrantFields, audience: readonly string[], issuedAt: Date, expiresAt: Date): Promise<string> {
    const key = await this.keys.signingKey(ACCESS_TOKEN_SET);
    const iat = Math.floor(issuedAt.getTime() / 1000);
    const { session } = grant;
    const claims: Record<string, unknown> = {
      iss: this.urls.issuerIdentifier,
      // The subject the client sees (pairwise for pairwise clients): the JWT is readable by the client.
      sub: session.idTokenSubject,
      aud: [...audience],
      client_id: grant.clientId,
      iat,
      nbf: iat,
      exp: Math.floor(expiresAt.getTime() / 1000),
      jti: randomUUID(),
      scope: grant.scope.join(' '),
      scp: [...grant.scope],
      ext: session.accessTokenClaims,
    };
    if (session.authTime !== null) claims['auth_time'] = session.authTime;
    if (session.acr !== '') claims['acr'] = session.acr;
    if (session.amr.length > 0) claims['amr'] = session.amr;
    return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt' }).sign(key.key);
  }
}

/** Field by field rather than by spreading: one object of one shape, on the busiest path. */
function storedAccessToken(
  grant: GrantFields,
  audience: readonly string[],
  signature: string,
  issuedAt: Date,
  expiresAt: Date,
): StoredAccessToken {
  return {
    signature,
    requestId: grant.requestId,
    clientId: grant.clientId,
    consentId: grant.consentId,
    subject: grant.subject,
    scope: grant.scope,
    audience,
    session: grant.session,
    issuedAt,
    expiresAt,
  };
}
