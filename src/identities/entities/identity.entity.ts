import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { IdentityState } from '../identity-state.js';

/**
 * A row of `identities`. Persistence only: never serialized (see identities.mapper.ts). Addresses,
 * identifiers, credentials and recovery tokens reference it with ON DELETE CASCADE.
 */
@Entity({ name: 'identities' })
@Index('IDX_identities_created_at_id', ['createdAt', 'id'])
export class IdentityEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_identities' })
  id!: string;

  @Column({ name: 'schema_id', type: 'varchar', length: 64 })
  schemaId!: string;

  @Column({ type: 'jsonb' })
  traits!: object;

  /** `active` or `inactive` (IdentityState): an inactive identity cannot sign in. */
  @Column({ type: 'varchar', length: 16, default: 'active' })
  state!: IdentityState;

  /** When `state` last changed; null while it never has. */
  @Column({ name: 'state_changed_at', type: 'timestamptz', nullable: true })
  stateChangedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
