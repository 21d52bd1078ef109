import type { DeactivationPolicy } from '../deactivation-policy.js';

/** A connection on the wire; `secret` only in the create and rotate responses. */
export class ConnectionResponseDto {
  id!: string;
  name!: string;
  schema_id!: string | null;
  groups_namespace!: string;
  on_deactivate!: DeactivationPolicy;
  webhook_url!: string;
  secret?: string;
  /** Until when the secret replaced by the last rotation still verifies; absent when none does. */
  previous_secret_expires_at?: string;
  created_at!: string;
  updated_at!: string;
}
