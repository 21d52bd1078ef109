import { Injectable } from '@nestjs/common';
import { ClientAuthenticator } from '../client-auth/client-authenticator.js';
import type { TokenResponse } from '../tokens/token-response.js';
import { TokenError } from '../tokens/token.errors.js';
import { AuthorizationCodeGrant } from './authorization-code.grant.js';
import { ClientCredentialsGrant } from './client-credentials.grant.js';
import { required, type FormParameters } from './form-parameters.js';
import { RefreshTokenGrant } from './refresh-token.grant.js';

const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;
type SupportedGrantType = (typeof GRANT_TYPES)[number];

/** `POST /oauth2/token`: authenticate the client, then hand the request to its grant. */
@Injectable()
export class TokenEndpointService {
  constructor(
    private readonly authenticator: ClientAuthenticator,
    private readonly authorizationCode: AuthorizationCodeGrant,
    private readonly refreshToken: RefreshTokenGrant,
    private readonly clientCredentials: ClientCredentialsGrant,
  ) {}

  async exchange(authorization: string | undefined, parameters: FormParameters): Promise<TokenResponse> {
    const grantType = required(parameters, 'grant_type');
    if (!isSupported(grantType)) throw TokenError.unsupportedGrantType(grantType);
    const client = await this.authenticator.authenticate(authorization, parameters);
    switch (grantType) {
      case 'authorization_code':
        return this.authorizationCode.handle(client, parameters);
      case 'refresh_token':
        return this.refreshToken.handle(client, parameters);
      case 'client_credentials':
        return this.clientCredentials.handle(client, parameters);
    }
  }
}

function isSupported(grantType: string): grantType is SupportedGrantType {
  return (GRANT_TYPES as readonly string[]).includes(grantType);
}
