import { Injectable } from '@nestjs/common';
import type { Client } from '../../clients/index.js';
import { type OAuth2Config, type UrlsConfig } from '../../config/app-config.js';
import { scopeAllowed } from '../../consent/index.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { TokenError } from '../tokens/token.errors.js';
import { TokenLookup } from '../tokens/token-lookup.js';

/** Who asks: the admin credential, or an authenticated client (a resource server). */
export type IntrospectionCaller = { readonly kind: 'admin' } | { readonly kind: 'client'; readonly client: Client };

/**
 * The client `metadata` member that lets a client introspect: `"audience"` for tokens whose `aud`
 * names the client, `"any"` for every token. Absent (or anything else): the client may not.
 */
export const INTROSPECTION_METADATA = 'introspection';

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
type Reach = 'audience' | 'any';

/**
 * RFC 7662 introspection, Hydra's fields: `sub` is the local subject and `obfuscated_subject` the one
 * the client sees when they differ (pairwise); `ext` is the consent's `session.access_token`. Anything
 * unknown, expired, revoked or rotated is `{active: false}`, as is a token that lacks one of the
 * `scope` values the caller asks about. A client may introspect only when its metadata allows it
 * (deny by default; a public client never), and then sees tokens of other audiences as inactive
 * unless allowed every token: a resource server learns nothing about tokens not meant for it.
 */
@Injectable()
export class IntrospectionService {
  constructor(
    private readonly lookup: TokenLookup,
    @InjectConfig('oauth2') private readonly oauth2: OAuth2Config,
    @InjectConfig('urls') private readonly urls: UrlsConfig,
  ) {}

  async introspect(value: string, requiredScope: readonly string[], caller: IntrospectionCaller): Promise<IntrospectionResponse> {
    const reach = caller.kind === 'admin' ? 'any' : reachOf(caller.client);
    const found = await this.lookup.findActive(value);
    if (found === undefined) return INACTIVE;
    const { token } = found;
    if (reach === 'audience' && caller.kind === 'client' && !token.audience.includes(caller.client.id)) return INACTIVE;
    if (!requiredScope.every((scope) => scopeAllowed(this.oauth2, token.scope, scope))) return INACTIVE;
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
      iss: this.urls.issuerIdentifier,
      token_type: found.use,
      token_use: found.use,
      ext: token.session.accessTokenClaims,
    };
  }
}

function reachOf(client: Client): Reach {
  const allowed = client.metadata[INTROSPECTION_METADATA];
  if (client.tokenEndpointAuthMethod === 'none' || (allowed !== 'audience' && allowed !== 'any')) {
    throw TokenError.unauthorizedClient('This client may not introspect tokens.');
  }
  return allowed;
}
