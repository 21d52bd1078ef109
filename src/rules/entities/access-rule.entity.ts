import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AccessRule } from '../access-rule.js';

/**
 * A row of `access_rules`: one rule written through the admin API (rule files are never stored).
 * Persistence only: never serialized (see rules.mapper.ts). The rule is kept whole as the document
 * it was accepted as; it is read back through the same validation as any other source.
 */
@Entity({ name: 'access_rules' })
export class AccessRuleEntity {
  @PrimaryColumn({ type: 'varchar', length: 190, primaryKeyConstraintName: 'PK_access_rules' })
  id!: string;

  @Column({ type: 'jsonb' })
  document!: AccessRule;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
