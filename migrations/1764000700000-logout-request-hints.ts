import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * RP-initiated logout passes `logout_hint` and `ui_locales` (RP-Initiated Logout 1.0 §2) to the logout
 * app, so the logout request keeps them. Rows written before have neither: '' and an empty list.
 */
export class LogoutRequestHints1764000700000 implements MigrationInterface {
  name = 'LogoutRequestHints1764000700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "oauth2_logout_requests" ADD "logout_hint" text NOT NULL DEFAULT '', ADD "ui_locales" text array NOT NULL DEFAULT '{}'`,
    );
    await queryRunner.query(
      `ALTER TABLE "oauth2_logout_requests" ALTER COLUMN "logout_hint" DROP DEFAULT, ALTER COLUMN "ui_locales" DROP DEFAULT`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "oauth2_logout_requests" DROP COLUMN "ui_locales", DROP COLUMN "logout_hint"`);
  }
}
