import { IsOptional, IsRFC3339 } from 'class-validator';

/** `POST /oauth2/flush` body (Hydra's `flushInactiveOAuth2TokensRequest`). */
export class FlushRequestDto {
  /** Delete what expired before this instant (RFC 3339); default now. */
  @IsOptional()
  @IsRFC3339()
  notAfter?: string;
}
