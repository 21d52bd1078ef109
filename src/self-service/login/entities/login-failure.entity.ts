import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A row of `self_service_login_failures`: failed password logins counted in a fixed window, per
 * `identifier:<sha256 of the normalized identifier>` or per `ip:<address>` (identifiers are not kept in clear).
 */
@Entity({ name: 'self_service_login_failures' })
export class LoginFailureEntity {
  @PrimaryColumn({ type: 'varchar', length: 128, primaryKeyConstraintName: 'PK_self_service_login_failures' })
  key!: string;

  @Column({ name: 'window_started_at', type: 'timestamptz' })
  windowStartedAt!: Date;

  @Column({ type: 'integer' })
  failures!: number;
}
