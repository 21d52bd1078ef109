import { ArrayMaxSize, IsArray, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { AcpLimits, NO_CONTROL_CHARACTERS, NO_NUL } from '../acp-limits.js';

/** Body of `PUT .../roles` (an empty or missing `id` gets a UUID; members replace the stored ones). */
export class UpsertRoleDto {
  @IsOptional()
  @IsString()
  @MaxLength(AcpLimits.idLength)
  @Matches(NO_CONTROL_CHARACTERS, { message: '$property must not contain control characters' })
  id?: string;

  @IsOptional()
  @IsString()
  @MaxLength(AcpLimits.descriptionLength)
  @Matches(NO_NUL, { message: '$property must not contain NUL characters' })
  description?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(AcpLimits.membersPerRole)
  @IsString({ each: true })
  @MaxLength(AcpLimits.stringLength, { each: true })
  @Matches(NO_CONTROL_CHARACTERS, { each: true, message: 'each entry of $property must be free of control characters' })
  members?: string[];
}
