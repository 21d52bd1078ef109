/** Signs ID tokens, userinfo JWTs and logout tokens; created at first start. */
export const ID_TOKEN_SET = 'openid.id-token';
/** Signs JWT access tokens when that strategy is on; published when it exists. */
export const ACCESS_TOKEN_SET = 'openid.jwt-access-token';
/** The sets whose public keys `/.well-known/jwks.json` serves, in this order. */
export const PUBLISHED_SETS: readonly string[] = [ID_TOKEN_SET, ACCESS_TOKEN_SET];

/** Most keys a set may hold: enough for any rotation scheme, small enough to load whole. */
export const MAX_KEYS_PER_SET = 100;
/** Set names and kids: 1–255 visible ASCII characters. */
export const NAME_PATTERN = /^[\x21-\x7e]{1,255}$/;
