import type { FullJwk } from '../jwk.js';

/** `JSONWebKeySet` as sent by the admin API: keys with their private members (see docs/keys.md). */
export interface JsonWebKeySetResponse {
  readonly keys: readonly FullJwk[];
}
