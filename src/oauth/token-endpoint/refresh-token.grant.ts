import { Injectable } from '@nestjs/common';
import type { Client } from '../../clients/index.js';
import { type OAuth2Config } from '../../config/app-config.js';
import { scopeAllowed } from '../../consent/index.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { TokenCodec } from '../tokens/token-codec.js';
import type { TokenResponse } from '../tokens/token-response.js';
import { TokenError } from '../tokens/token.errors.js';
import { TokensRepository } from '../tokens/tokens.repository.js';
import { required, spaceList, type FormParameters } from './form-parameters.js';
import { TokenSetIssuer } from './token-set.issuer.js';

/**
 * `grant_type=refresh_token` (RFC 6749 §6) with rotation: each use returns a new refresh token, and the
 * presented one and the family's older access tokens stop working. A rotated refresh token presented
 * again is a replay (RFC 9700 §4.14.2): the whole family is revoked. A narrower `scope` narrows the new
 * access token only; a wider one is `invalid_scope`.
 */
@Injectable()
export class RefreshTokenGrant {
  constructor(
    private readonly codec: TokenCodec,
    private readonly repository: TokensRepository,
    private readonly tokenSets: TokenSetIssuer,
    @InjectConfig('oauth2') private readonly oauth2: OAuth2Config,
  ) {}

  async handle(client: Client, parameters: FormParameters): Promise<TokenResponse> {
    if (!client.grantTypes.includes('refresh_token')) {
      throw TokenError.unauthorizedClient('The client is not allowed to use the refresh_token grant.');
    }
    const signature = this.codec.signatureOf('refresh_token', required(parameters, 'refresh_token'));
    const token = signature === undefined ? undefined : await this.repository.findRefreshToken(signature);
    if (token === undefined) throw TokenError.invalidGrant('The refresh token is not valid.');
    if (!token.active) {
      await this.repository.revokeFamily(token.requestId);
      throw TokenError.invalidGrant('The refresh token has already been used; every token of its grant is now revoked.');
    }
    if (token.expiresAt.getTime() <= Date.now()) throw TokenError.invalidGrant('The refresh token has expired.');
    if (token.clientId !== client.id) throw TokenError.invalidGrant('The refresh token was issued to another client.');

    const requested = spaceList(parameters['scope']);
    for (const scope of requested) {
      if (!token.scope.includes(scope)) throw TokenError.invalidScope(`The scope ${JSON.stringify(scope)} was not granted originally.`);
    }
    const allowedScopes = spaceList(client.scope);
    for (const scope of token.scope) {
      if (!scopeAllowed(this.oauth2, allowedScopes, scope)) {
        throw TokenError.invalidScope(`The client is no longer allowed the scope ${JSON.stringify(scope)}.`);
      }
    }

    const { signature: _signature, active: _active, issuedAt: _issued, expiresAt: _expires, ...grant } = token;
    return this.tokenSets.issue(
      {
        client,
        grant,
        accessScope: requested.length > 0 ? requested : grant.scope,
        claim: (writes) => writes.claimRefreshToken(token.signature),
        beforeInsert: (writes) => writes.deleteAccessTokensOfFamily(token.requestId),
        reuseMessage: 'The refresh token has already been used; every token of its grant is now revoked.',
      },
      false,
    );
  }
}
