import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Token issuing (src/oauth/tokens): authorization codes, access and refresh tokens, and the jti values of
 * accepted private_key_jwt assertions. Tokens are stored by signature only (an HMAC; see docs/oauth2.md).
 * Every row goes with its client, and tokens go with the consent that granted them (ON DELETE CASCADE);
 * client_credentials tokens have no consent.
 */
export class CreateOAuth2Tokens1763800006000 implements MigrationInterface {
  name = 'CreateOAuth2Tokens1763800006000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['oauth2_authorization_codes', 'oauth2_access_tokens', 'oauth2_refresh_tokens'] as const) {
      const codeColumns =
        table === 'oauth2_authorization_codes'
          ? `"active" boolean NOT NULL, "redirect_uri" text NOT NULL, "code_challenge" text,`
          : table === 'oauth2_refresh_tokens'
            ? `"active" boolean NOT NULL,`
            : '';
      await queryRunner.query(`
        CREATE TABLE "${table}" (
          "signature" character varying(64) NOT NULL,
          "request_id" uuid NOT NULL,
          "client_id" character varying(255) NOT NULL,
          "consent_id" uuid,
          "subject" text NOT NULL,
          "scope" text NOT NULL,
          "audience" jsonb NOT NULL,
          "session" jsonb NOT NULL,
          ${codeColumns}
          "issued_at" TIMESTAMP WITH TIME ZONE NOT NULL,
          "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
          CONSTRAINT "PK_${table}" PRIMARY KEY ("signature"),
          CONSTRAINT "FK_${table}_client" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE CASCADE ON UPDATE NO ACTION,
          CONSTRAINT "FK_${table}_consent" FOREIGN KEY ("consent_id") REFERENCES "oauth2_consent_requests"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        )
      `);
      // Access tokens of client_credentials have no consent and a family of their own, which nothing
      // looks up: their rows skip the family and consent indexes (two of five index insertions on the
      // busiest write). Family lookups name the predicate so that the partial index serves them.
      const granted = table === 'oauth2_access_tokens' ? ' WHERE "consent_id" IS NOT NULL' : '';
      if (table !== 'oauth2_authorization_codes') {
        await queryRunner.query(`CREATE INDEX "IDX_${table}_request" ON "${table}" ("request_id")${granted}`);
      }
      // For ON DELETE CASCADE from clients (else deleting a client scans the table).
      await queryRunner.query(`CREATE INDEX "IDX_${table}_client" ON "${table}" ("client_id")`);
      await queryRunner.query(`CREATE INDEX "IDX_${table}_consent" ON "${table}" ("consent_id")${granted}`);
      await queryRunner.query(`CREATE INDEX "IDX_${table}_expires_at" ON "${table}" ("expires_at")`);
    }
    await queryRunner.query(`
      CREATE TABLE "oauth2_used_jtis" (
        "client_id" character varying(255) NOT NULL,
        "jti_hash" character(64) NOT NULL,
        "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_oauth2_used_jtis" PRIMARY KEY ("client_id", "jti_hash"),
        CONSTRAINT "FK_oauth2_used_jtis_client" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )
    `);
    await queryRunner.query(`CREATE INDEX "IDX_oauth2_used_jtis_expires_at" ON "oauth2_used_jtis" ("expires_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "oauth2_used_jtis"`);
    await queryRunner.query(`DROP TABLE "oauth2_refresh_tokens"`);
    await queryRunner.query(`DROP TABLE "oauth2_access_tokens"`);
    await queryRunner.query(`DROP TABLE "oauth2_authorization_codes"`);
  }
}
