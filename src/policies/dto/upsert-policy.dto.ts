import { IsIn, IsObject, IsOptional } from 'class-validator';
import type { Effect } from '../engine/policy-definition.js';
import { AcpLimits } from '../acp-limits.js';
import { AcpDescription, AcpId, AcpStringList } from './acp-fields.js';

/** Body of `PUT .../policies` (Keto's policy; an empty or missing `id` gets a UUID). */
export class UpsertPolicyDto {
  @AcpId()
  id?: string;

  @AcpDescription()
  description?: string;

  @IsIn(['allow', 'deny'], { message: 'effect must be "allow" or "deny"' })
  effect!: Effect;

  @AcpStringList(AcpLimits.patternsPerList)
  subjects?: string[];

  @AcpStringList(AcpLimits.patternsPerList)
  resources?: string[];

  @AcpStringList(AcpLimits.patternsPerList)
  actions?: string[];

  /** `{ "<context key>": { "type": "...", "options": {...} } }`; types and options are checked by the engine. */
  @IsOptional()
  @IsObject()
  conditions?: Record<string, unknown>;
}
