import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Relation tuples (see src/tuples/entities/relation-tuple.entity.ts). The primary key serves check,
 * expand and listing by object; the second index serves listing by subject.
 */
export class CreateRelationTuples1763800002000 implements MigrationInterface {
  name = 'CreateRelationTuples1763800002000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "relation_tuples" (
        "namespace_id" integer NOT NULL,
        "object" character varying(64) COLLATE "C" NOT NULL,
        "relation" character varying(64) COLLATE "C" NOT NULL,
        "subject_key" character varying(258) COLLATE "C" NOT NULL,
        CONSTRAINT "PK_relation_tuples" PRIMARY KEY ("namespace_id", "object", "relation", "subject_key")
      )`);
    await queryRunner.query(`CREATE INDEX "IDX_relation_tuples_subject" ON "relation_tuples" ("namespace_id", "subject_key")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_relation_tuples_subject"`);
    await queryRunner.query(`DROP TABLE "relation_tuples"`);
  }
}
