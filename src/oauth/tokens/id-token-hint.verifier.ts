import { Injectable } from '@nestjs/common';
import { decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import { type UrlsConfig } from '../../config/app-config.js';
import { ID_TOKEN_SET, KeysService } from '../../keys/index.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';

/**
 * Checks an `id_token_hint` (authorize, logout): an ID token this service signed, for any audience the
 * caller then checks. Expired tokens are accepted (OIDC Core 3.1.2.1: the hint is usually an old token),
 * so only signature, issuer and the presence of `sub` are verified. Returns undefined for anything else.
 */
@Injectable()
export class IdTokenHintVerifier {
  constructor(
    private readonly keys: KeysService,
    @InjectConfig('urls') private readonly urls: UrlsConfig,
  ) {}

  async verify(token: string): Promise<(JWTPayload & { sub: string }) | undefined> {
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      return undefined;
    }
    const candidates = (await this.keys.verificationKeys(ID_TOKEN_SET)).filter((key) => kid === undefined || key.kid === kid);
    for (const candidate of candidates) {
      try {
        const { payload } = await jwtVerify(token, candidate.key, {
          issuer: [this.urls.issuerIdentifier, this.urls.issuer, `${this.urls.issuer}/`],
          algorithms: [candidate.alg],
          // Any age: the hint identifies a past authentication; it authorises nothing by itself.
          currentDate: new Date(0),
        });
        if (typeof payload.sub === 'string' && payload.sub !== '') return { ...payload, sub: payload.sub };
        return undefined;
      } catch {
        // Not this key (or not a valid token at all): try the next one.
      }
    }
    return undefined;
  }
}
