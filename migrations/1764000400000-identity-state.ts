import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An identity is `active` or `inactive` (Kratos' `state`): an inactive identity cannot sign in, and
 * every identity that exists today stays active.
 */
export class IdentityState1764000400000 implements MigrationInterface {
  name = 'IdentityState1764000400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "identities" ADD "state" character varying(16) NOT NULL DEFAULT 'active'`);
    await queryRunner.query(`ALTER TABLE "identities" ADD "state_changed_at" TIMESTAMP WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "identities" DROP COLUMN "state_changed_at"`);
    await queryRunner.query(`ALTER TABLE "identities" DROP COLUMN "state"`);
  }
}
