import type { PrivateJwkMembers, PublicJwk } from './jwk.js';

/** A key of a set with its private members opened; what the service hands to the mapper and to signers. */
export interface KeyRecord {
  readonly publicJwk: PublicJwk;
  /** Absent for keys imported without private material (verification only). */
  readonly privateMembers: PrivateJwkMembers | undefined;
}
