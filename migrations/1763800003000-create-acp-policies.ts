import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Access-control policies and roles, per flavor (src/policies). Pattern and member lists are text
 * arrays; the GIN indexes serve the list filters (`subjects @> ARRAY[$1]`).
 */
export class CreateAcpPolicies1763800003000 implements MigrationInterface {
  name = 'CreateAcpPolicies1763800003000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "acp_policies" (
        "flavor" character varying(8) NOT NULL,
        "id" character varying(190) NOT NULL,
        "description" text NOT NULL,
        "effect" character varying(8) NOT NULL,
        "subjects" text array NOT NULL,
        "resources" text array NOT NULL,
        "actions" text array NOT NULL,
        "conditions" jsonb NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_acp_policies" PRIMARY KEY ("flavor", "id")
      )`);
    await queryRunner.query(`CREATE INDEX "IDX_acp_policies_subjects" ON "acp_policies" USING gin ("subjects")`);
    await queryRunner.query(`CREATE INDEX "IDX_acp_policies_resources" ON "acp_policies" USING gin ("resources")`);
    await queryRunner.query(`CREATE INDEX "IDX_acp_policies_actions" ON "acp_policies" USING gin ("actions")`);
    await queryRunner.query(`
      CREATE TABLE "acp_roles" (
        "flavor" character varying(8) NOT NULL,
        "id" character varying(190) NOT NULL,
        "description" text NOT NULL,
        "members" text array NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_acp_roles" PRIMARY KEY ("flavor", "id")
      )`);
    await queryRunner.query(`CREATE INDEX "IDX_acp_roles_members" ON "acp_roles" USING gin ("members")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_acp_roles_members"`);
    await queryRunner.query(`DROP TABLE "acp_roles"`);
    await queryRunner.query(`DROP INDEX "IDX_acp_policies_actions"`);
    await queryRunner.query(`DROP INDEX "IDX_acp_policies_resources"`);
    await queryRunner.query(`DROP INDEX "IDX_acp_policies_subjects"`);
    await queryRunner.query(`DROP TABLE "acp_policies"`);
  }
}
