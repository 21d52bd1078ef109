import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { scopeAllowed } from '../../consent/scope-strategy.js';
import { TokenLookup } from '../tokens/token-lookup.js';

export type IntrospectionResponse =
  | { readonly active: false }
  | {
      readonly active: true;
      readonly scope: string;
      readonly client_id: string;
      readonly sub: string;
      readonly obfuscated_subject?: string;
      readonly exp: number;
      readonly iat: number;
      readonly nbf: number;
      readonly aud: readonly string[];
      readonly iss: string;
      readonly token_type: 'access_token' | 'refresh_token';
      readonly token_use: 'access_token' | 'refresh_token';
      readonly ext: Readonly<Record<string, unknown>>;
    };

const INACTIVE: IntrospectionResponse = { active: false };

/**
 * RFC 7662 introspection, Hydra's fields: `sub` is the local subject and `obfuscated_subject` the one
 * the client sees when they differ (pairwise); `ext` is the consent's `session.access_token`. Anything
 * unknown, expired, revoked or rotated is `{active: false}`, as is a token that lacks one of the
 * `scope` values the caller asks about.
 */
@Injectable()
export class IntrospectionService {
  constructor(
    private readonly lookup: TokenLookup,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async introspect(value: string, requiredScope: readonly string[]): Promise<IntrospectionResponse> {
    const found = await this.lookup.findActive(value);
    if (found === undefined) return INACTIVE;
    const { token } = found;
    if (!requiredScope.every((scope) => scopeAllowed(this.config.oauth2, token.scope, scope))) return INACTIVE;
    const iat = Math.floor(token.issuedAt.getTime() / 1000);
    return {
      active: true,
      scope: token.scope.join(' '),
      client_id: token.clientId,
      sub: token.subject,
      ...(token.session.idTokenSubject === token.subject ? {} : { obfuscated_subject: token.session.idTokenSubject }),
      exp: Math.floor(token.expiresAt.getTime() / 1000),
      iat,
      nbf: iat,
      aud: token.audience,
      iss: this.config.urls.issuer,
      token_type: found.use,
      token_use: found.use,
      ext: token.session.accessTokenClaims,
    };
  }
}
