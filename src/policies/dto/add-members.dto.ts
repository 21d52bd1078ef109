import { ArrayMaxSize, IsArray, IsString, Matches, MaxLength } from 'class-validator';
import { AcpLimits, NO_CONTROL_CHARACTERS } from '../acp-limits.js';

/** Body of `PUT .../roles/{id}/members`: members to add (those already there are kept once). */
export class AddMembersDto {
  @IsArray()
  @ArrayMaxSize(AcpLimits.membersPerRequest)
  @IsString({ each: true })
  @MaxLength(AcpLimits.stringLength, { each: true })
  @Matches(NO_CONTROL_CHARACTERS, { each: true, message: 'each entry of $property must be free of control characters' })
  members!: string[];
}
