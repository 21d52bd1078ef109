import type { IdentityState } from '../identity-state.js';
import type { RecoveryAddressResponseDto } from './recovery-address-response.dto.js';
import type { VerifiableAddressResponseDto } from './verifiable-address-response.dto.js';

/** The `identity` on the wire. Credentials are never part of it. */
export class IdentityResponseDto {
  id!: string;
  schema_id!: string;
  schema_url!: string;
  traits!: Record<string, unknown>;
  state!: IdentityState;
  state_changed_at?: string;
  recovery_addresses!: RecoveryAddressResponseDto[];
  verifiable_addresses!: VerifiableAddressResponseDto[];
  created_at!: string;
  updated_at!: string;
}
