import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Client } from '../../clients/index.js';
import type { ConsentGrant } from '../../consent/index.js';
import { type OAuth2Config } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { AccessTokenMinter, type GrantFields, type MintedAccessToken } from './access-token.minter.js';
import type { AuthorizedRequest, AuthorizeResponseParameters } from './authorized-request.js';
import { claimsByDestination, type ClaimsRequest } from './claims-request.js';
import { IdTokenSigner } from './id-token.signer.js';
import type { StoredCode } from './stored-token.js';
import { SubjectIdentifiers } from './subject-identifiers.js';
import { TokenCodec } from './token-codec.js';
import { TokenError } from './token.errors.js';
import type { GrantType, TokenSession } from './token-session.js';
import { TokensRepository } from './tokens.repository.js';

/**
 * Turns an authorized request (login and consent done) into the parameters of the authorization
 * response: a code (stored with its PKCE challenge, redirect URI and nonce), an access token (implicit
 * and hybrid), an ID token, each when the response type asks for it. Everything issued here shares one
 * grant family, so a replayed code also revokes the tokens of a hybrid response.
 */
@Injectable()
export class AuthorizeResponseIssuer {
  constructor(
    private readonly codec: TokenCodec,
    private readonly accessTokens: AccessTokenMinter,
    private readonly idTokens: IdTokenSigner,
    private readonly subjects: SubjectIdentifiers,
    private readonly repository: TokensRepository,
    @InjectConfig('oauth2') private readonly oauth2: OAuth2Config,
  ) {}

  async issue(request: AuthorizedRequest): Promise<AuthorizeResponseParameters> {
    const { client, grant, responseTypes } = request;
    const wantsIdToken = responseTypes.has('id_token');
    if (wantsIdToken && !grant.grantedScope.includes('openid')) {
      throw TokenError.invalidScope('The response type asks for an ID token but the openid scope was not granted.');
    }
    const now = new Date();
    const grantType: GrantType = responseTypes.has('code') ? 'authorization_code' : 'implicit';
    const fields = grantFieldsOf(client, grant, sessionOf(client, grant, request.nonce, grantType, this.subjects, request.claimsRequest));
    const parameters: Record<string, string> = {};

    let code: StoredCode | undefined;
    let codeToken: string | undefined;
    if (responseTypes.has('code')) {
      const minted = this.codec.mint('authorization_code');
      codeToken = minted.token;
      code = {
        ...fields,
        signature: minted.signature,
        active: true,
        redirectUri: request.redirectUri,
        codeChallenge: request.codeChallenge ?? null,
        issuedAt: now,
        expiresAt: new Date(now.getTime() + this.oauth2.ttl.authorizationCode * 1000),
      };
      parameters['code'] = minted.token;
    }

    let accessToken: MintedAccessToken | undefined;
    if (responseTypes.has('token')) {
      accessToken = await this.accessTokens.mint(fields, now);
      Object.assign(parameters, {
        access_token: accessToken.token,
        token_type: 'bearer',
        expires_in: String(accessToken.expiresIn),
        scope: grant.grantedScope.join(' '),
      });
    }

    if (wantsIdToken) {
      parameters['id_token'] = await this.idTokens.sign({
        clientId: client.id,
        session: fields.session,
        ...(accessToken === undefined ? {} : { accessToken: accessToken.token }),
        ...(codeToken === undefined ? {} : { code: codeToken }),
        withNonce: true,
        now,
      });
    }

    await this.store(code, accessToken);
    return parameters;
  }

  private async store(code: StoredCode | undefined, accessToken: MintedAccessToken | undefined): Promise<void> {
    if (code !== undefined && accessToken !== undefined) {
      await this.repository.transaction(async (writes) => {
        await writes.insertCode(code);
        await writes.insertAccessToken(accessToken.stored);
      });
    } else if (code !== undefined) {
      await this.repository.insertCode(code);
    } else if (accessToken !== undefined) {
      await this.repository.insertAccessToken(accessToken.stored);
    }
  }
}

/** The session every token of an authorization-endpoint grant carries. */
export function sessionOf(
  client: Client,
  grant: ConsentGrant,
  nonce: string | undefined,
  grantType: GrantType,
  subjects: SubjectIdentifiers,
  claimsRequest: ClaimsRequest | undefined,
): TokenSession {
  const claims = claimsByDestination(grant.idTokenClaims, claimsRequest);
  return {
    grantType,
    idTokenSubject: subjects.forClient(client, grant.subject, grant.forcedSubjectIdentifier),
    accessTokenClaims: grant.accessTokenClaims,
    idTokenClaims: claims.idToken,
    ...(claimsRequest === undefined ? {} : { userinfoClaims: claims.userinfo }),
    nonce: nonce ?? '',
    authTime: Math.floor(grant.authTime.getTime() / 1000),
    requestedAt: Math.floor(grant.requestedAt.getTime() / 1000),
    acr: grant.acr,
    amr: grant.amr,
    sid: grant.loginSessionId,
  };
}

function grantFieldsOf(client: Client, grant: ConsentGrant, session: TokenSession): GrantFields {
  return {
    requestId: randomUUID(),
    clientId: client.id,
    consentId: grant.id,
    subject: grant.subject,
    scope: grant.grantedScope,
    audience: grant.grantedAudience,
    session,
  };
}
