import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The courier's outbox (src/self-service/courier): e-mails queued by the recovery and verification
 * flows and sent by the dispatcher. Bodies are stored sealed; the index serves the dispatcher's
 * "queued and due" scan.
 */
export class CreateCourier1763800008000 implements MigrationInterface {
  name = 'CreateCourier1763800008000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "courier_messages" (
        "id" uuid NOT NULL,
        "recipient" text NOT NULL,
        "template" character varying(64) NOT NULL,
        "subject" text NOT NULL,
        "body_text" text NOT NULL,
        "body_html" text NOT NULL,
        "status" character varying(16) NOT NULL,
        "send_count" integer NOT NULL,
        "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "last_error" text,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_courier_messages" PRIMARY KEY ("id")
      )
    `);
    await queryRunner.query(
      `CREATE INDEX "IDX_courier_messages_status_next_attempt_at" ON "courier_messages" ("status", "next_attempt_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "courier_messages"`);
  }
}
