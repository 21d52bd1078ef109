import { Injectable } from '@nestjs/common';
import type { Client } from '../../clients/index.js';
import type { StoredCode } from '../tokens/stored-token.js';
import { TokenCodec } from '../tokens/token-codec.js';
import type { TokenResponse } from '../tokens/token-response.js';
import { TokenError } from '../tokens/token.errors.js';
import { TokensRepository } from '../tokens/tokens.repository.js';
import { required, type FormParameters } from './form-parameters.js';
import { checkPkce } from './pkce.js';
import { TokenSetIssuer } from './token-set.issuer.js';

/**
 * `grant_type=authorization_code` (RFC 6749 §4.1.3). The code must be ours, unexpired, issued to this
 * client, redeemed with the redirect URI it was sent to and with its PKCE verifier, and only once:
 * a second redemption fails and revokes every token issued from the code (RFC 6749 §4.1.2).
 */
@Injectable()
export class AuthorizationCodeGrant {
  constructor(
    private readonly codec: TokenCodec,
    private readonly repository: TokensRepository,
    private readonly tokenSets: TokenSetIssuer,
  ) {}

  async handle(client: Client, parameters: FormParameters): Promise<TokenResponse> {
    if (!client.grantTypes.includes('authorization_code')) {
      throw TokenError.unauthorizedClient('The client is not allowed to use the authorization_code grant.');
    }
    const signature = this.codec.signatureOf('authorization_code', required(parameters, 'code'));
    const code = signature === undefined ? undefined : await this.repository.findCode(signature);
    if (code === undefined) throw TokenError.invalidGrant('The authorization code is not valid.');
    if (!code.active) {
      await this.repository.revokeFamily(code.requestId);
      throw TokenError.invalidGrant('The authorization code has already been used.');
    }
    if (code.expiresAt.getTime() <= Date.now()) throw TokenError.invalidGrant('The authorization code has expired.');
    if (code.clientId !== client.id) throw TokenError.invalidGrant('The authorization code was issued to another client.');
    checkRedirectUri(code, client, parameters['redirect_uri']);
    checkPkce(code.codeChallenge, parameters['code_verifier'], client.tokenEndpointAuthMethod === 'none');

    const {
      signature: _signature,
      active: _active,
      redirectUri: _redirectUri,
      codeChallenge: _challenge,
      issuedAt: _issued,
      expiresAt: _expires,
      ...grant
    } = code;
    return this.tokenSets.issue(
      {
        client,
        grant,
        accessScope: grant.scope,
        claim: (writes) => writes.claimCode(code.signature),
        reuseMessage: 'The authorization code has already been used.',
      },
      true,
    );
  }
}

/**
 * RFC 6749 §4.1.3: the redirect URI must be repeated, identical. It may be left out only when the
 * client has a single registered redirect URI (the authorization request could then omit it too), as
 * the code could not have been sent anywhere else.
 */
function checkRedirectUri(code: StoredCode, client: Client, redirectUri: string | undefined): void {
  if (redirectUri === undefined) {
    if (client.redirectUris.length === 1 && client.redirectUris[0] === code.redirectUri) return;
    throw TokenError.invalidGrant('The redirect_uri is missing; it must equal the one of the authorization request.');
  }
  if (redirectUri !== code.redirectUri)
    throw TokenError.invalidGrant('The redirect_uri differs from the one of the authorization request.');
}
