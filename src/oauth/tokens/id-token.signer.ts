import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { SignJWT } from 'jose';
import { type OAuth2Config, type UrlsConfig } from '../../config/app-config.js';
import { ID_TOKEN_SET, KeysService } from '../../keys/index.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { halfHash } from './token-hash.js';
import type { TokenSession } from './token-session.js';

/** Claims this service sets itself: the consent's `session.id_token` can add claims but never replace these. */
export const PROTECTED_ID_TOKEN_CLAIMS: ReadonlySet<string> = new Set([
  'iss',
  'sub',
  'aud',
  'exp',
  'iat',
  'nbf',
  'jti',
  'auth_time',
  'nonce',
  'at_hash',
  'c_hash',
  'acr',
  'amr',
  'sid',
  'rat',
  'azp',
]);

export interface IdTokenInput {
  readonly clientId: string;
  readonly session: TokenSession;
  /** Present when the same response carries an access token (at_hash). */
  readonly accessToken?: string;
  /** Present when the same response carries a code (c_hash). */
  readonly code?: string;
  /** False on refresh: a refreshed ID token carries no nonce (OIDC Core §12.2). */
  readonly withNonce: boolean;
  readonly now: Date;
}

/**
 * Signs ID tokens with the newest signing key of `openid.id-token`. `kid` is always in the header and
 * nothing else that points at keys (no `jku`, `x5u`, `jwk`: OIDC Core §2).
 */
@Injectable()
export class IdTokenSigner {
  constructor(
    private readonly keys: KeysService,
    @InjectConfig('oauth2') private readonly oauth2: OAuth2Config,
    @InjectConfig('urls') private readonly urls: UrlsConfig,
  ) {}

  async sign(input: IdTokenInput): Promise<string> {
    const key = await this.keys.signingKey(ID_TOKEN_SET);
    const { session } = input;
    const iat = Math.floor(input.now.getTime() / 1000);
    const claims: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(session.idTokenClaims)) {
      if (!PROTECTED_ID_TOKEN_CLAIMS.has(name)) claims[name] = value;
    }
    Object.assign(claims, {
      iss: this.urls.issuerIdentifier,
      sub: session.idTokenSubject,
      aud: [input.clientId],
      iat,
      exp: iat + this.oauth2.ttl.idToken,
      jti: randomUUID(),
      rat: session.requestedAt,
    });
    if (session.authTime !== null) claims['auth_time'] = session.authTime;
    if (input.withNonce && session.nonce !== '') claims['nonce'] = session.nonce;
    if (input.accessToken !== undefined) claims['at_hash'] = halfHash(key.alg, input.accessToken);
    if (input.code !== undefined) claims['c_hash'] = halfHash(key.alg, input.code);
    if (session.acr !== '') claims['acr'] = session.acr;
    if (session.amr.length > 0) claims['amr'] = session.amr;
    if (session.sid !== '') claims['sid'] = session.sid;
    return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' }).sign(key.key);
  }
}
