import { Injectable } from '@nestjs/common';
import { compactVerify, decodeProtectedHeader } from 'jose';
import { ACCESS_TOKEN_SET, KeysService } from '../../keys/index.js';
import type { StoredAccessToken, StoredRefreshToken } from './stored-token.js';
import { TokenCodec } from './token-codec.js';
import { TokensRepository } from './tokens.repository.js';

export type FoundToken =
  | { readonly use: 'access_token'; readonly token: StoredAccessToken }
  | { readonly use: 'refresh_token'; readonly token: StoredRefreshToken };

/**
 * Finds presented access and refresh tokens. What the token looks like decides where to look (the
 * prefix, or JWT shape for JWT access tokens), and an opaque token whose HMAC does not verify is
 * unknown without a database query. A JWT is stored by its signature part only, so it must also carry
 * a valid signature of ours over its own header and payload: otherwise anyone holding one token could
 * dress its signature in other claims and have introspection call the forgery active.
 */
@Injectable()
export class TokenLookup {
  constructor(
    private readonly codec: TokenCodec,
    private readonly repository: TokensRepository,
    private readonly keys: KeysService,
  ) {}

  /** The stored token, whatever its state (expired, rotated); undefined when it does not exist. */
  async find(value: string): Promise<FoundToken | undefined> {
    switch (this.codec.kindOf(value)) {
      case 'jwt':
        return (await this.signedByUs(value)) ? this.findAccessToken(value) : undefined;
      case 'access_token':
        return this.findAccessToken(value);
      case 'refresh_token': {
        const signature = this.codec.signatureOf('refresh_token', value);
        const token = signature === undefined ? undefined : await this.repository.findRefreshToken(signature);
        return token === undefined ? undefined : { use: 'refresh_token', token };
      }
      case 'authorization_code':
      case undefined:
        return undefined;
    }
  }

  /** The token when it can be used now: not expired, not revoked, and for refresh tokens not rotated. */
  async findActive(value: string): Promise<FoundToken | undefined> {
    const found = await this.find(value);
    if (found === undefined || found.token.expiresAt.getTime() <= Date.now()) return undefined;
    if (found.use === 'refresh_token' && !found.token.active) return undefined;
    return found;
  }

  /** An access token that can be used now, or undefined (refresh tokens, codes and ID tokens are not). */
  async activeAccessToken(value: string): Promise<StoredAccessToken | undefined> {
    if (this.accessSignatureOf(value) === undefined) return undefined;
    const found = await this.findActive(value);
    return found?.use === 'access_token' ? found.token : undefined;
  }

  private async findAccessToken(value: string): Promise<FoundToken | undefined> {
    const signature = this.accessSignatureOf(value);
    const token = signature === undefined ? undefined : await this.repository.findAccessToken(signature);
    return token === undefined ? undefined : { use: 'access_token', token };
  }

  /** Signed by a key of the access-token set, over exactly this header and payload (expiry aside: `find` sees every state). */
  private async signedByUs(token: string): Promise<boolean> {
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      return false;
    }
    for (const candidate of await this.keys.verificationKeys(ACCESS_TOKEN_SET)) {
      if (kid !== undefined && candidate.kid !== kid) continue;
      try {
        await compactVerify(token, candidate.key, { algorithms: [candidate.alg] });
        return true;
      } catch {
        // Not this key: try the next one.
      }
    }
    return false;
  }

  private accessSignatureOf(value: string): string | undefined {
    return this.codec.kindOf(value) === 'jwt' ? this.codec.jwtSignatureOf(value) : this.codec.signatureOf('access_token', value);
  }
}
