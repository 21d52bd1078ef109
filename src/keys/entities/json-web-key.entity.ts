import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { PublicJwk } from '../jwk.js';

/**
 * One key of one set. Public members are stored in clear (`public_jwk`, served as is by the JWKS);
 * private members only sealed (`sealed_private`, AES-256-GCM under SECRETS_SYSTEM, bound to set and
 * kid). `pk` grows with every insert and orders a set: the highest is the newest key, which signs.
 */
@Entity({ name: 'jwk_keys' })
@Index('UQ_jwk_keys_set_kid', ['setName', 'kid'], { unique: true })
export class JsonWebKeyEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS', primaryKeyConstraintName: 'PK_jwk_keys' })
  pk!: string;

  @Column({ name: 'set_name', type: 'varchar', length: 255 })
  setName!: string;

  @Column({ type: 'varchar', length: 255 })
  kid!: string;

  @Column({ type: 'varchar', length: 8 })
  kty!: string;

  @Column({ type: 'varchar', length: 16 })
  alg!: string;

  @Column({ type: 'varchar', length: 8, nullable: true })
  use!: string | null;

  @Column({ name: 'public_jwk', type: 'jsonb' })
  publicJwk!: PublicJwk;

  @Column({ name: 'sealed_private', type: 'text', nullable: true })
  sealedPrivate!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
