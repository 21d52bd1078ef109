import type { SubjectType, TokenEndpointAuthMethod } from './client.js';

/** What a registration may ask for. Where Hydra's API description is silent these follow Hydra v1.5's code (see docs/clients.md). */
export const TOKEN_ENDPOINT_AUTH_METHODS: readonly TokenEndpointAuthMethod[] = [
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
  'none',
];
export const SUBJECT_TYPES: readonly SubjectType[] = ['public', 'pairwise'];
export const GRANT_TYPES: readonly string[] = ['authorization_code', 'implicit', 'client_credentials', 'refresh_token'];
/** The parts a response_types entry is made of (`code`, `id_token token`, `code id_token`, ...). */
export const RESPONSE_TYPE_PARTS: readonly string[] = ['code', 'token', 'id_token'];
export const USERINFO_SIGNING_ALGS: readonly string[] = ['none', 'RS256', 'RS512', 'PS256', 'ES256', 'ES384', 'ES512', 'EdDSA'];
export const REQUEST_OBJECT_SIGNING_ALGS: readonly string[] = USERINFO_SIGNING_ALGS.filter((alg) => alg !== 'none');
/** Hydra v1.5's list for private_key_jwt assertions, plus EdDSA, which jose verifies as well. */
export const TOKEN_ENDPOINT_AUTH_SIGNING_ALGS: readonly string[] = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];

export const DEFAULT_TOKEN_ENDPOINT_AUTH_METHOD: TokenEndpointAuthMethod = 'client_secret_basic';
export const DEFAULT_GRANT_TYPES: readonly string[] = ['authorization_code'];
/** Hydra's `oidc.dynamic_client_registration.default_scope`. */
export const DEFAULT_SCOPE = 'offline_access offline openid';
export const DEFAULT_SUBJECT_TYPE: SubjectType = 'public';
export const DEFAULT_USERINFO_SIGNING_ALG = 'none';

/** Hosts where a plain-http redirect URI is acceptable (RFC 8252 §7.3, RFC 9700 §2.6). */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];
/** Schemes that would run code or read local data in the user agent instead of reaching a client. */
export const FORBIDDEN_REDIRECT_SCHEMES: readonly string[] = ['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:'];
