/** `verifiableIdentityAddress` on the wire; `verified_at` is null until verified (Go NullTime). */
export class VerifiableAddressResponseDto {
  id!: string;
  value!: string;
  verified!: boolean;
  via!: string;
  status!: string;
  verified_at!: string | null;
  created_at!: string;
  updated_at!: string;
}
