import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { ConditionDefinition, Effect, Flavor } from '../engine/policy-definition.js';

/**
 * A row of `acp_policies`: one policy of one flavor. Persistence only: never serialized (see
 * policies.mapper.ts). The pattern lists are text arrays with GIN indexes for the list filters
 * (`subject`, `resource`, `action` are element-equality filters).
 */
@Entity({ name: 'acp_policies' })
@Index('IDX_acp_policies_subjects', ['subjects'], { type: 'gin' })
@Index('IDX_acp_policies_resources', ['resources'], { type: 'gin' })
@Index('IDX_acp_policies_actions', ['actions'], { type: 'gin' })
export class AcpPolicyEntity {
  @PrimaryColumn({ type: 'varchar', length: 8, primaryKeyConstraintName: 'PK_acp_policies' })
  flavor!: Flavor;

  @PrimaryColumn({ type: 'varchar', length: 190, primaryKeyConstraintName: 'PK_acp_policies' })
  id!: string;

  @Column({ type: 'text' })
  description!: string;

  @Column({ type: 'varchar', length: 8 })
  effect!: Effect;

  @Column({ type: 'text', array: true })
  subjects!: string[];

  @Column({ type: 'text', array: true })
  resources!: string[];

  @Column({ type: 'text', array: true })
  actions!: string[];

  @Column({ type: 'jsonb' })
  conditions!: Record<string, ConditionDefinition>;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
