import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Access rules written through the admin API (src/rules); each rule is one sealed JSON document. */
export class CreateAccessRules1764000200000 implements MigrationInterface {
  name = 'CreateAccessRules1764000200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "access_rules" (
        "id" character varying(190) NOT NULL,
        "sealed_document" text NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_access_rules" PRIMARY KEY ("id")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "access_rules"`);
  }
}
