import type { ConditionDefinition, Effect } from '../engine/policy-definition.js';

/** A policy on the wire (Keto v0.5 `oryAccessControlPolicy`, here `serviceAccessControlPolicy`). */
export class PolicyResponseDto {
  id!: string;
  description!: string;
  subjects!: string[];
  resources!: string[];
  actions!: string[];
  effect!: Effect;
  conditions!: Record<string, ConditionDefinition>;
}
