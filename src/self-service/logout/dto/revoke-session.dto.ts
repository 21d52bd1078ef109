import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** Body of `DELETE /self-service/logout/api` and `DELETE /sessions` (Kratos `revokeSession`). */
export class RevokeSessionDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  session_token!: string;
}
