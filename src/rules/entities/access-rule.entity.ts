import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A row of `access_rules`: one rule written through the admin API (rule files are never stored).
 * Persistence only: never serialized (see rules.mapper.ts). Handler configurations may hold
 * credentials (an introspection client's secret, a hydrator's basic-auth password), so the rule is
 * kept whole as a sealed JSON document (AES-256-GCM under SECRETS_SYSTEM, the id as associated data).
 */
@Entity({ name: 'access_rules' })
export class AccessRuleEntity {
  @PrimaryColumn({ type: 'varchar', length: 190, primaryKeyConstraintName: 'PK_access_rules' })
  id!: string;

  @Column({ name: 'sealed_document', type: 'text' })
  sealedDocument!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
