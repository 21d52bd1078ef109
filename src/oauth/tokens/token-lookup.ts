import { Injectable } from '@nestjs/common';
import type { StoredAccessToken, StoredRefreshToken } from './stored-token.js';
import { TokenCodec } from './token-codec.js';
import { TokensRepository } from './tokens.repository.js';

export type FoundToken =
  | { readonly use: 'access_token'; readonly token: StoredAccessToken }
  | { readonly use: 'refresh_token'; readonly token: StoredRefreshToken };

/**
 * Finds presented access and refresh tokens. What the token looks like decides where to look (the
 * prefix, or JWT shape for JWT access tokens), and an opaque token whose HMAC does not verify is
 * unknown without a database query.
 */
@Injectable()
export class TokenLookup {
  constructor(
    private readonly codec: TokenCodec,
    private readonly repository: TokensRepository,
  ) {}

  /** The stored token, whatever its state (expired, rotated); undefined when it does not exist. */
  async find(value: string): Promise<FoundToken | undefined> {
    switch (this.codec.kindOf(value)) {
      case 'access_token':
      case 'jwt': {
        const signature = this.accessSignatureOf(value);
        const token = signature === undefined ? undefined : await this.repository.findAccessToken(signature);
        return token === undefined ? undefined : { use: 'access_token', token };
      }
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

  private accessSignatureOf(value: string): string | undefined {
    return this.codec.kindOf(value) === 'jwt' ? this.codec.jwtSignatureOf(value) : this.codec.signatureOf('access_token', value);
  }
}
