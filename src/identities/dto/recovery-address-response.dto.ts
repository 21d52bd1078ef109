/** `RecoveryAddress` on the wire. */
export class RecoveryAddressResponseDto {
  id!: string;
  value!: string;
  via!: string;
  created_at!: string;
  updated_at!: string;
}
