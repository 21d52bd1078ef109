import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { IdentityEntity } from './identity.entity.js';

/**
 * A row of `identity_credential_identifiers`: one login identifier (lower-cased, NFC) of one identity
 * for one credential type, unique per type across all identities. `trait_path` is the dotted trait
 * it came from (`email`), used by the `traits.<path>=` list filter.
 */
@Entity({ name: 'identity_credential_identifiers' })
@Index('UQ_identity_credential_identifiers_type_identifier', ['type', 'identifier'], { unique: true })
@Index('IDX_identity_credential_identifiers_identity', ['identityId'])
export class IdentityCredentialIdentifierEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_identity_credential_identifiers' })
  id!: string;

  @Column({ name: 'identity_id', type: 'uuid' })
  identityId!: string;

  @ManyToOne(() => IdentityEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'identity_id', foreignKeyConstraintName: 'FK_identity_credential_identifiers_identity' })
  identity?: IdentityEntity;

  @Column({ type: 'varchar', length: 32 })
  type!: string;

  @Column({ type: 'text' })
  identifier!: string;

  @Column({ name: 'trait_path', type: 'text' })
  traitPath!: string;
}
