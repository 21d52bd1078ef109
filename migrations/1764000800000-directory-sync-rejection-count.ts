import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Refused webhook deliveries of one connection and reason are logged as one `rejected` entry per
 * minute that counts them, so a sender that knows a connection id cannot grow the log one row per
 * request. Every entry written before stands for one event or delivery.
 */
export class DirectorySyncRejectionCount1764000800000 implements MigrationInterface {
  name = 'DirectorySyncRejectionCount1764000800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "directory_sync_events" ADD "count" integer NOT NULL DEFAULT 1`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "directory_sync_events" DROP COLUMN "count"`);
  }
}
