import { REQUEST_OBJECT_SIGNING_ALGS } from '../../clients/index.js';
import type { OAuth2Config, UrlsConfig } from '../../config/app-config.js';
import { effectiveClaimsMapping, SCOPE_CLAIMS } from '../../common/oidc/standard-claims.js';
import { RESPONSE_MODES } from '../authorize/response-mode.js';
import { ASSERTION_ALGORITHMS } from '../client-auth/client-assertion.verifier.js';

/**
 * The OpenID Provider Metadata (OIDC Discovery §3; `wellKnown` in Hydra's API), each value true to what is
 * built: the authorize endpoint takes `request` and `request_uri` (only from the client's registered
 * `request_uris`) and `claims`; logout notifies clients front-channel (iframes with `iss` and `sid`
 * when the client asks) and back-channel (Logout Tokens with `sid`). Introspection is on the admin
 * listener (RFC 8414 §2), for the admin credential or an authenticated resource-server client.
 * `registration_endpoint` is left out: there is no public client registration (clients are created
 * through the admin API). `issuer` is the identifier as configured; endpoints hang off the base URL.
 */
export function discoveryDocument(urls: UrlsConfig, oauth2: OAuth2Config, idTokenAlg: string): Record<string, unknown> {
  const { issuer } = urls;
  return {
    issuer: urls.issuerIdentifier,
    authorization_endpoint: `${issuer}/oauth2/auth`,
    token_endpoint: `${issuer}/oauth2/token`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    userinfo_endpoint: `${issuer}/userinfo`,
    revocation_endpoint: `${issuer}/oauth2/revoke`,
    end_session_endpoint: `${issuer}/oauth2/sessions/logout`,
    introspection_endpoint: `${urls.admin}/oauth2/introspect`,
    scopes_supported: unique(['openid', 'offline', 'offline_access', ...builtInScopes(oauth2), ...oauth2.supportedScopes]),
    claims_supported: unique(['sub', ...builtInClaims(oauth2), ...oauth2.supportedClaims]),
    // Hydra v1.5's six, plus `code token`, which the authorize endpoint serves as well.
    response_types_supported: ['code', 'code id_token', 'id_token', 'token id_token', 'token', 'token id_token code', 'code token'],
    response_modes_supported: [...RESPONSE_MODES],
    grant_types_supported: ['authorization_code', 'implicit', 'client_credentials', 'refresh_token'],
    subject_types_supported: [...oauth2.subjectTypes],
    id_token_signing_alg_values_supported: [idTokenAlg],
    userinfo_signing_alg_values_supported: ['none', idTokenAlg],
    token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'private_key_jwt', 'none'],
    token_endpoint_auth_signing_alg_values_supported: [...ASSERTION_ALGORITHMS],
    revocation_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'private_key_jwt', 'none'],
    introspection_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'private_key_jwt'],
    introspection_endpoint_auth_signing_alg_values_supported: [...ASSERTION_ALGORITHMS],
    code_challenge_methods_supported: ['S256'],
    claims_parameter_supported: true,
    request_parameter_supported: true,
    request_uri_parameter_supported: true,
    require_request_uri_registration: true,
    request_object_signing_alg_values_supported: ['none', ...REQUEST_OBJECT_SIGNING_ALGS],
    frontchannel_logout_supported: true,
    frontchannel_logout_session_supported: true,
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
  };
}

/** The built-in consent releases the profile and e-mail claims of the identity's traits; an app of one's own says what it does. */
function builtInScopes(oauth2: OAuth2Config): string[] {
  return oauth2.builtInPages.consent ? ['profile', 'email'] : [];
}

/** The claims of those scopes that the claims mapping can fill (`email_verified` and `updated_at` need no trait). */
function builtInClaims(oauth2: OAuth2Config): string[] {
  const mapping = effectiveClaimsMapping(oauth2.claimsMapping);
  return builtInScopes(oauth2)
    .flatMap((scope) => SCOPE_CLAIMS[scope] ?? [])
    .filter((claim) => claim in mapping || claim === 'email_verified' || claim === 'updated_at');
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
