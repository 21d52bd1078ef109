import type { IdentityState } from '../identity-state.js';
import type { RecoveryAddressResponseDto } from './recovery-address-response.dto.js';
import type { VerifiableAddressResponseDto } from './verifiable-address-response.dto.js';

/** A password credential as exported on request (`include_credential=password`), Kratos' shape. */
export interface PasswordCredentialResponseDto {
  type: 'password';
  identifiers: string[];
  config: { hashed_password?: string };
  created_at: string;
  updated_at: string;
}

/** The `identity` on the wire. Credentials are part of it only when an admin asks for them. */
export class IdentityResponseDto {
  id!: string;
  schema_id!: string;
  schema_url!: string;
  traits!: Record<string, unknown>;
  state!: IdentityState;
  state_changed_at?: string;
  recovery_addresses!: RecoveryAddressResponseDto[];
  verifiable_addresses!: VerifiableAddressResponseDto[];
  credentials?: { password?: PasswordCredentialResponseDto };
  created_at!: string;
  updated_at!: string;
}
