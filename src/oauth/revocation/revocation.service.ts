import { Injectable } from '@nestjs/common';
import type { Client } from '../../clients/index.js';
import { TokenLookup } from '../tokens/token-lookup.js';
import { TokenError } from '../tokens/token.errors.js';
import { TokensRepository } from '../tokens/tokens.repository.js';

/**
 * RFC 7009 revocation by the client the token was issued to (seed: "a token may be revoked only by the
 * client it was issued to"). A refresh token takes its whole grant family with it (every refresh and
 * access token of the same authorization); an access token goes alone. Unknown, expired and already
 * revoked tokens are a success (RFC 7009 §2.2); another client's token is an `unauthorized_client`
 * error and stays valid.
 */
@Injectable()
export class RevocationService {
  constructor(
    private readonly lookup: TokenLookup,
    private readonly repository: TokensRepository,
  ) {}

  async revoke(client: Client, value: string): Promise<void> {
    const found = await this.lookup.find(value);
    if (found === undefined) return;
    if (found.token.clientId !== client.id) throw TokenError.unauthorizedClient('The token was not issued to this client.');
    if (found.use === 'refresh_token') await this.repository.revokeFamily(found.token.requestId);
    else await this.repository.deleteAccessToken(found.token.signature);
  }
}
