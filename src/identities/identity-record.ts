import type { IdentityRecoveryAddressEntity } from './entities/identity-recovery-address.entity.js';
import type { IdentityVerifiableAddressEntity } from './entities/identity-verifiable-address.entity.js';
import type { IdentityEntity } from './entities/identity.entity.js';

/** An identity with its addresses, as the service hands it out (mapped to the wire by identities.mapper.ts). */
export interface IdentityRecord {
  readonly identity: IdentityEntity;
  readonly verifiableAddresses: readonly IdentityVerifiableAddressEntity[];
  readonly recoveryAddresses: readonly IdentityRecoveryAddressEntity[];
}
