import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Verification links (src/identities, used by the self-service verification flow): one row per link
 * sent, holding only the HMAC of its token; goes with its identity and its address.
 */
export class CreateIdentityVerificationTokens1763800008100 implements MigrationInterface {
  name = 'CreateIdentityVerificationTokens1763800008100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "identity_verification_tokens" (
        "id" uuid NOT NULL,
        "identity_id" uuid NOT NULL,
        "verifiable_address_id" uuid NOT NULL,
        "token_hmac" character(64) NOT NULL,
        "flow_id" uuid NOT NULL,
        "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "used_at" TIMESTAMP WITH TIME ZONE,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_identity_verification_tokens" PRIMARY KEY ("id"),
        CONSTRAINT "FK_identity_verification_tokens_identity" FOREIGN KEY ("identity_id") REFERENCES "identities"("id") ON DELETE CASCADE ON UPDATE NO ACTION,
        CONSTRAINT "FK_identity_verification_tokens_address" FOREIGN KEY ("verifiable_address_id") REFERENCES "identity_verifiable_addresses"("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )
    `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_identity_verification_tokens_token_hmac" ON "identity_verification_tokens" ("token_hmac")`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_identity_verification_tokens_identity" ON "identity_verification_tokens" ("identity_id")`);
    await queryRunner.query(
      `CREATE INDEX "IDX_identity_verification_tokens_address" ON "identity_verification_tokens" ("verifiable_address_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "identity_verification_tokens"`);
  }
}
