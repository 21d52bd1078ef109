import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The identity store (src/identities): identities, their login identifiers, addresses, credentials and
 * admin recovery tokens. Everything hanging off an identity goes with it (ON DELETE CASCADE).
 */
export class CreateIdentities1763800004000 implements MigrationInterface {
  name = 'CreateIdentities1763800004000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "identities" (
        "id" uuid NOT NULL,
        "schema_id" character varying(64) NOT NULL,
        "traits" jsonb NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_identities" PRIMARY KEY ("id")
      )
    `);
    await queryRunner.query(`CREATE INDEX "IDX_identities_created_at_id" ON "identities" ("created_at", "id")`);

    await queryRunner.query(`
      CREATE TABLE "identity_credentials" (
        "id" uuid NOT NULL,
        "identity_id" uuid NOT NULL,
        "type" character varying(32) NOT NULL,
        "config" jsonb NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_identity_credentials" PRIMARY KEY ("id"),
        CONSTRAINT "FK_identity_credentials_identity" FOREIGN KEY ("identity_id") REFERENCES "identities"("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )
    `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_identity_credentials_identity_type" ON "identity_credentials" ("identity_id", "type")`,
    );

    await queryRunner.query(`
      CREATE TABLE "identity_credential_identifiers" (
        "id" uuid NOT NULL,
        "identity_id" uuid NOT NULL,
        "type" character varying(32) NOT NULL,
        "identifier" text NOT NULL,
        "trait_path" text NOT NULL,
        CONSTRAINT "PK_identity_credential_identifiers" PRIMARY KEY ("id"),
        CONSTRAINT "FK_identity_credential_identifiers_identity" FOREIGN KEY ("identity_id") REFERENCES "identities"("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )
    `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_identity_credential_identifiers_type_identifier" ON "identity_credential_identifiers" ("type", "identifier")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_identity_credential_identifiers_identity" ON "identity_credential_identifiers" ("identity_id")`,
    );

    await queryRunner.query(`
      CREATE TABLE "identity_verifiable_addresses" (
        "id" uuid NOT NULL,
        "identity_id" uuid NOT NULL,
        "via" character varying(16) NOT NULL,
        "value" text NOT NULL,
        "verified" boolean NOT NULL,
        "verified_at" TIMESTAMP WITH TIME ZONE,
        "status" character varying(16) NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_identity_verifiable_addresses" PRIMARY KEY ("id"),
        CONSTRAINT "FK_identity_verifiable_addresses_identity" FOREIGN KEY ("identity_id") REFERENCES "identities"("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )
    `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_identity_verifiable_addresses_via_value" ON "identity_verifiable_addresses" ("via", "value")`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_identity_verifiable_addresses_identity" ON "identity_verifiable_addresses" ("identity_id")`);

    await queryRunner.query(`
      CREATE TABLE "identity_recovery_addresses" (
        "id" uuid NOT NULL,
        "identity_id" uuid NOT NULL,
        "via" character varying(16) NOT NULL,
        "value" text NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_identity_recovery_addresses" PRIMARY KEY ("id"),
        CONSTRAINT "FK_identity_recovery_addresses_identity" FOREIGN KEY ("identity_id") REFERENCES "identities"("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )
    `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_identity_recovery_addresses_via_value" ON "identity_recovery_addresses" ("via", "value")`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_identity_recovery_addresses_identity" ON "identity_recovery_addresses" ("identity_id")`);

    await queryRunner.query(`
      CREATE TABLE "identity_recovery_tokens" (
        "id" uuid NOT NULL,
        "identity_id" uuid NOT NULL,
        "recovery_address_id" uuid NOT NULL,
        "token_hmac" character(64) NOT NULL,
        "flow_id" uuid NOT NULL,
        "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "used_at" TIMESTAMP WITH TIME ZONE,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_identity_recovery_tokens" PRIMARY KEY ("id"),
        CONSTRAINT "FK_identity_recovery_tokens_identity" FOREIGN KEY ("identity_id") REFERENCES "identities"("id") ON DELETE CASCADE ON UPDATE NO ACTION,
        CONSTRAINT "FK_identity_recovery_tokens_address" FOREIGN KEY ("recovery_address_id") REFERENCES "identity_recovery_addresses"("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )
    `);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_identity_recovery_tokens_token_hmac" ON "identity_recovery_tokens" ("token_hmac")`);
    await queryRunner.query(`CREATE INDEX "IDX_identity_recovery_tokens_identity" ON "identity_recovery_tokens" ("identity_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_identity_recovery_tokens_address" ON "identity_recovery_tokens" ("recovery_address_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "identity_recovery_tokens"`);
    await queryRunner.query(`DROP TABLE "identity_recovery_addresses"`);
    await queryRunner.query(`DROP TABLE "identity_verifiable_addresses"`);
    await queryRunner.query(`DROP TABLE "identity_credential_identifiers"`);
    await queryRunner.query(`DROP TABLE "identity_credentials"`);
    await queryRunner.query(`DROP TABLE "identities"`);
  }
}
