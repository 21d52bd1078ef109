import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Only settings flows (and redeemed recovery flows) name an identity; the index on
 * `self_service_flows.identity_id` now leaves out the others' nulls, so a login, registration,
 * recovery or verification flow insert updates two indexes, not three. The cascade from identities
 * (`identity_id = $1`) still uses it: a strict `=` implies `IS NOT NULL`.
 */
export class FlowsIdentityIndexPartial1763800009000 implements MigrationInterface {
  name = 'FlowsIdentityIndexPartial1763800009000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_self_service_flows_identity"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_self_service_flows_identity" ON "self_service_flows" ("identity_id") WHERE "identity_id" IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_self_service_flows_identity"`);
    await queryRunner.query(`CREATE INDEX "IDX_self_service_flows_identity" ON "self_service_flows" ("identity_id")`);
  }
}
