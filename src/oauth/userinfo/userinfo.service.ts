import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { SignJWT } from 'jose';
import { ClientsService } from '../../clients/index.js';
import { CommonErrors } from '../../common/errors/app-error.js';
import { type UrlsConfig } from '../../config/app-config.js';
import { ID_TOKEN_SET, KeysService } from '../../keys/index.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { PROTECTED_ID_TOKEN_CLAIMS } from '../tokens/id-token.signer.js';
import { TokenLookup } from '../tokens/token-lookup.js';
import { TokenError } from '../tokens/token.errors.js';

export type UserinfoResponse =
  { readonly format: 'json'; readonly claims: Readonly<Record<string, unknown>> } | { readonly format: 'jwt'; readonly jwt: string };

/**
 * OIDC Core §5.3: the claims of the subject the access token was granted for: `sub` as the client
 * sees it (public or pairwise) and the consent's `session.id_token` (never overriding protected ID-token
 * claims). A signed JWT (`application/jwt`, with `iss` and `aud`) when the client registered a
 * `userinfo_signed_response_alg`, signed by the ID-token key set.
 */
@Injectable()
export class UserinfoService {
  constructor(
    private readonly lookup: TokenLookup,
    private readonly clients: ClientsService,
    private readonly keys: KeysService,
    @InjectConfig('urls') private readonly urls: UrlsConfig,
  ) {}

  async userinfo(accessToken: string): Promise<UserinfoResponse> {
    const token = await this.lookup.activeAccessToken(accessToken);
    if (token === undefined) throw TokenError.invalidToken('The access token is missing, expired, revoked or not an access token.');
    const claims: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(token.session.userinfoClaims ?? token.session.idTokenClaims)) {
      if (!PROTECTED_ID_TOKEN_CLAIMS.has(name)) claims[name] = value;
    }
    claims['sub'] = token.session.idTokenSubject;

    const client = await this.clients.get(token.clientId);
    const alg = client.userinfoSignedResponseAlg;
    if (alg === '' || alg === 'none') return { format: 'json', claims };
    const key = await this.keys.signingKey(ID_TOKEN_SET);
    if (key.alg !== alg) {
      throw CommonErrors.internal(
        new Error(`client ${client.id} wants userinfo signed with ${alg}; the ${ID_TOKEN_SET} key is ${key.alg}`),
      );
    }
    const jwt = await new SignJWT({ ...claims, iss: this.urls.issuerIdentifier, aud: [client.id], jti: randomUUID() })
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
      .setIssuedAt()
      .sign(key.key);
    return { format: 'jwt', jwt };
  }
}
