import { ArrayMaxSize, IsArray, IsIn, IsObject, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import type { Effect } from '../engine/policy-definition.js';
import { AcpLimits, NO_CONTROL_CHARACTERS, NO_NUL } from '../acp-limits.js';

const NO_CONTROLS = { message: '$property must not contain control characters' };
const EACH_NO_CONTROLS = { each: true, message: 'each entry of $property must be free of control characters' };

/** Body of `PUT .../policies` (Keto's policy; an empty or missing `id` gets a UUID). */
export class UpsertPolicyDto {
  @IsOptional()
  @IsString()
  @MaxLength(AcpLimits.idLength)
  @Matches(NO_CONTROL_CHARACTERS, NO_CONTROLS)
  id?: string;

  @IsOptional()
  @IsString()
  @MaxLength(AcpLimits.descriptionLength)
  @Matches(NO_NUL, { message: '$property must not contain NUL characters' })
  description?: string;

  @IsIn(['allow', 'deny'], { message: 'effect must be "allow" or "deny"' })
  effect!: Effect;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(AcpLimits.patternsPerList)
  @IsString({ each: true })
  @MaxLength(AcpLimits.stringLength, { each: true })
  @Matches(NO_CONTROL_CHARACTERS, EACH_NO_CONTROLS)
  subjects?: string[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(AcpLimits.patternsPerList)
  @IsString({ each: true })
  @MaxLength(AcpLimits.stringLength, { each: true })
  @Matches(NO_CONTROL_CHARACTERS, EACH_NO_CONTROLS)
  resources?: string[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(AcpLimits.patternsPerList)
  @IsString({ each: true })
  @MaxLength(AcpLimits.stringLength, { each: true })
  @Matches(NO_CONTROL_CHARACTERS, EACH_NO_CONTROLS)
  actions?: string[];

  /** `{ "<context key>": { "type": "...", "options": {...} } }`; types and options are checked by the engine. */
  @IsOptional()
  @IsObject()
  conditions?: Record<string, unknown>;
}
