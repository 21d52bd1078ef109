import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Flavor } from '../engine/policy-definition.js';

/** A row of `acp_roles`: one role of one flavor. Persistence only (see roles.mapper.ts). */
@Entity({ name: 'acp_roles' })
@Index('IDX_acp_roles_members', ['members'], { type: 'gin' })
export class AcpRoleEntity {
  @PrimaryColumn({ type: 'varchar', length: 8, primaryKeyConstraintName: 'PK_acp_roles' })
  flavor!: Flavor;

  @PrimaryColumn({ type: 'varchar', length: 190, primaryKeyConstraintName: 'PK_acp_roles' })
  id!: string;

  @Column({ type: 'text' })
  description!: string;

  @Column({ type: 'text', array: true })
  members!: string[];

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
