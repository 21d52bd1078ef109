/** The `recoveryLink` response of POST /recovery/link. */
export class RecoveryLinkResponseDto {
  recovery_link!: string;
  expires_at!: string;
}
