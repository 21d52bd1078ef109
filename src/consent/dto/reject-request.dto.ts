import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';

/** RFC 6749 §4.1.2.1: `error`, `error_description` (and our `error_hint`) go into the client's redirect. */
const RFC6749_TEXT = /^[\x20-\x21\x23-\x5B\x5D-\x7E]*$/;
const RFC6749_TEXT_MESSAGE = '$property may only hold printable ASCII without " and \\ (RFC 6749 §4.1.2.1)';

/** The `rejectRequest` body of PUT /oauth2/auth/requests/{login,consent}/reject. Unknown fields are a 400. */
export class RejectRequestDto {
  /** The OAuth 2.0 error code the client receives; `access_denied` when absent. */
  @IsOptional()
  @IsString()
  @MaxLength(128)
  @Matches(RFC6749_TEXT, { message: RFC6749_TEXT_MESSAGE })
  error?: string;

  @IsOptional()
  @IsString()
  @MaxLength(1024)
  @Matches(RFC6749_TEXT, { message: RFC6749_TEXT_MESSAGE })
  error_description?: string;

  @IsOptional()
  @IsString()
  @MaxLength(1024)
  @Matches(RFC6749_TEXT, { message: RFC6749_TEXT_MESSAGE })
  error_hint?: string;

  /** Kept with the rejection for debugging; never sent to the client. */
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  error_debug?: string;

  /** 400 when absent. Only shows when the error cannot be delivered by redirect. */
  @IsOptional()
  @IsInt()
  @Min(400)
  @Max(599)
  status_code?: number;
}
