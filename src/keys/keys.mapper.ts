import type { JsonWebKeySetResponse } from './dto/json-web-key-set.response.js';
import { PRIVATE_MEMBERS, PUBLIC_MEMBERS, type FullJwk, type PublicJwk } from './jwk.js';
import type { KeyRecord } from './key-record.js';

/**
 * What the admin API shows of a key: everything Latchkey holds, private members included, as Hydra's
 * admin API does (docs/keys.md). Members in a fixed order, whatever order storage kept them in.
 */
export function toAdminJwk(record: KeyRecord): FullJwk {
  const { x5c, ...jwk } = publicMembers(record.publicJwk) as PublicJwk & Record<string, unknown>;
  for (const member of PRIVATE_MEMBERS[record.publicJwk.kty]) {
    const value = record.privateMembers?.[member];
    if (value !== undefined) jwk[member] = value;
  }
  return (x5c === undefined ? jwk : { ...jwk, x5c }) as FullJwk;
}

export function toAdminSet(records: readonly KeyRecord[]): JsonWebKeySetResponse {
  return { keys: records.map(toAdminJwk) };
}

/** Only public members; never `d`, `p`, `q`, `dp`, `dq`, `qi` or `k`, whatever the stored object holds. */
export function toPublicJwk(stored: PublicJwk): PublicJwk {
  return publicMembers(stored);
}

function publicMembers(stored: PublicJwk): PublicJwk {
  const jwk: Record<string, unknown> = { kid: stored.kid, kty: stored.kty, alg: stored.alg };
  if (stored.use !== undefined) jwk['use'] = stored.use;
  for (const member of PUBLIC_MEMBERS[stored.kty]) {
    if (stored[member] !== undefined) jwk[member] = stored[member];
  }
  if (stored.x5c !== undefined) jwk['x5c'] = [...stored.x5c];
  return jwk as unknown as PublicJwk;
}
