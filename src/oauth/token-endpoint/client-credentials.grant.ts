import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Client } from '../../clients/index.js';
import { type OAuth2Config } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { audienceAllowed } from '../strategies/audience-strategy.js';
import { scopeAllowed } from '../../consent/index.js';
import { AccessTokenBatchWriter } from '../tokens/access-token-batch.writer.js';
import { AccessTokenMinter } from '../tokens/access-token.minter.js';
import type { TokenResponse } from '../tokens/token-response.js';
import type { TokenSession } from '../tokens/token-session.js';
import { TokenError } from '../tokens/token.errors.js';
import { spaceList, type FormParameters } from './form-parameters.js';

/**
 * `grant_type=client_credentials` (RFC 6749 §4.4): confidential clients only, each requested scope and
 * audience within the client's registration (OAUTH2_SCOPE_STRATEGY for scopes); `sub` is the client_id;
 * no refresh token, no ID token. This is the busiest write path: the token row is stored by the
 * AccessTokenBatchWriter.
 */
@Injectable()
export class ClientCredentialsGrant {
  /** The registered scopes as a list, once per Client object (cached clients are immutable and replaced on change). */
  private readonly registeredScopes = new WeakMap<Client, readonly string[]>();

  constructor(
    private readonly accessTokens: AccessTokenMinter,
    private readonly writer: AccessTokenBatchWriter,
    @InjectConfig('oauth2') private readonly oauth2: OAuth2Config,
  ) {}

  async handle(client: Client, parameters: FormParameters): Promise<TokenResponse> {
    if (!client.grantTypes.includes('client_credentials')) {
      throw TokenError.unauthorizedClient('The client is not allowed to use the client_credentials grant.');
    }
    if (client.tokenEndpointAuthMethod === 'none') {
      throw TokenError.invalidGrant('The client is public and thus not allowed to use the client_credentials grant.');
    }
    const scope = spaceList(parameters['scope']);
    const allowedScopes = this.scopesOf(client);
    for (const requested of scope) {
      // A scope equal to a registered one is allowed under either strategy; the strategy decides the rest.
      if (!allowedScopes.includes(requested) && !scopeAllowed(this.oauth2, allowedScopes, requested)) {
        throw TokenError.invalidScope(`The client is not allowed to request the scope ${JSON.stringify(requested)}.`);
      }
    }
    const audience = spaceList(parameters['audience']);
    for (const requested of audience) {
      if (!audienceAllowed(client.audience, requested)) {
        throw TokenError.invalidRequest(`The client is not allowed to request the audience ${JSON.stringify(requested)}.`, 'audience');
      }
    }
    const now = new Date();
    const session: TokenSession = {
      grantType: 'client_credentials',
      idTokenSubject: client.id,
      accessTokenClaims: {},
      idTokenClaims: {},
      nonce: '',
      authTime: null,
      requestedAt: Math.floor(now.getTime() / 1000),
      acr: '',
      amr: [],
      sid: '',
    };
    const minted = await this.accessTokens.mint(
      { requestId: randomUUID(), clientId: client.id, consentId: null, subject: client.id, scope, audience, session },
      now,
    );
    await this.writer.write(minted.stored);
    return { access_token: minted.token, token_type: 'bearer', expires_in: minted.expiresIn, scope: scope.join(' ') };
  }

  private scopesOf(client: Client): readonly string[] {
    let scopes = this.registeredScopes.get(client);
    if (scopes === undefined) {
      scopes = spaceList(client.scope);
      this.registeredScopes.set(client, scopes);
    }
    return scopes;
  }
}
