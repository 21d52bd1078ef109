import { Injectable } from '@nestjs/common';
import type { Client } from '../../clients/index.js';
import { type OAuth2Config } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { AccessTokenMinter, type GrantFields } from '../tokens/access-token.minter.js';
import { IdTokenSigner } from '../tokens/id-token.signer.js';
import type { StoredRefreshToken } from '../tokens/stored-token.js';
import { TokenCodec } from '../tokens/token-codec.js';
import type { TokenResponse } from '../tokens/token-response.js';
import { TokenError } from '../tokens/token.errors.js';
import { TokensRepository, type TokenWrites } from '../tokens/tokens.repository.js';

const OFFLINE_SCOPES = ['offline', 'offline_access'];

export interface TokenSetRequest {
  readonly client: Client;
  /** The family's grant (its request id, the originally granted scope). */
  readonly grant: GrantFields;
  /** Scope of the new access token when narrower than the grant's (refresh with `scope`). */
  readonly accessScope: readonly string[];
  /** Used up in the same transaction as the inserts (a code, the presented refresh token); false = lost. */
  readonly claim: (writes: TokenWrites) => Promise<boolean>;
  /** Runs after a successful claim, before the inserts (e.g. retire the family's old access tokens). */
  readonly beforeInsert?: (writes: TokenWrites) => Promise<void>;
  /** Said when the claim is lost (the credential was used already): the family is revoked. */
  readonly reuseMessage: string;
}

/**
 * The token response of the authorization_code and refresh_token grants: a new access token, a new
 * refresh token when the grant holds `offline`/`offline_access` and the client may use the
 * refresh_token grant, and an ID token when `openid` was granted. The credential presented is used up
 * and the tokens are stored in one transaction; when the credential turns out to be used already
 * (a replay, or a concurrent request that won), every token of the family is revoked instead.
 */
@Injectable()
export class TokenSetIssuer {
  constructor(
    private readonly codec: TokenCodec,
    private readonly accessTokens: AccessTokenMinter,
    private readonly idTokens: IdTokenSigner,
    private readonly repository: TokensRepository,
    @InjectConfig('oauth2') private readonly oauth2: OAuth2Config,
  ) {}

  async issue(request: TokenSetRequest, withNonce: boolean): Promise<TokenResponse> {
    const { client, grant } = request;
    const now = new Date();
    const access = await this.accessTokens.mint({ ...grant, scope: request.accessScope }, now);
    const offline = client.grantTypes.includes('refresh_token') && grant.scope.some((scope) => OFFLINE_SCOPES.includes(scope));
    let refresh: { token: string; stored: StoredRefreshToken } | undefined;
    if (offline) {
      const minted = this.codec.mint('refresh_token');
      refresh = {
        token: minted.token,
        stored: {
          ...grant,
          signature: minted.signature,
          active: true,
          issuedAt: now,
          expiresAt: new Date(now.getTime() + this.oauth2.ttl.refreshToken * 1000),
        },
      };
    }
    const idToken = grant.scope.includes('openid')
      ? await this.idTokens.sign({ clientId: client.id, session: grant.session, accessToken: access.token, withNonce, now })
      : undefined;

    const stored = await this.repository.transaction(async (writes) => {
      if (!(await request.claim(writes))) return false;
      await request.beforeInsert?.(writes);
      await writes.insertAccessToken(access.stored);
      if (refresh !== undefined) await writes.insertRefreshToken(refresh.stored);
      return true;
    });
    if (!stored) {
      await this.repository.revokeFamily(grant.requestId);
      throw TokenError.invalidGrant(request.reuseMessage);
    }
    return {
      access_token: access.token,
      token_type: 'bearer',
      expires_in: access.expiresIn,
      scope: request.accessScope.join(' '),
      ...(refresh === undefined ? {} : { refresh_token: refresh.token }),
      ...(idToken === undefined ? {} : { id_token: idToken }),
    };
  }
}
