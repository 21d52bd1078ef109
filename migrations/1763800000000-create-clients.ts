import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The OAuth 2.0 client registry (src/clients). Lists and key sets are jsonb; the secret is only a hash. */
export class CreateClients1763800000000 implements MigrationInterface {
  name = 'CreateClients1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "clients" (
        "id" character varying(255) NOT NULL,
        "client_name" text NOT NULL,
        "secret_hash" text,
        "redirect_uris" jsonb NOT NULL,
        "grant_types" jsonb NOT NULL,
        "response_types" jsonb NOT NULL,
        "scope" text NOT NULL,
        "audience" jsonb NOT NULL,
        "owner" text NOT NULL,
        "policy_uri" text NOT NULL,
        "tos_uri" text NOT NULL,
        "client_uri" text NOT NULL,
        "logo_uri" text NOT NULL,
        "contacts" jsonb NOT NULL,
        "allowed_cors_origins" jsonb NOT NULL,
        "subject_type" text NOT NULL,
        "sector_identifier_uri" text NOT NULL,
        "jwks" jsonb,
        "jwks_uri" text NOT NULL,
        "request_uris" jsonb NOT NULL,
        "token_endpoint_auth_method" text NOT NULL,
        "token_endpoint_auth_signing_alg" text NOT NULL,
        "request_object_signing_alg" text NOT NULL,
        "userinfo_signed_response_alg" text NOT NULL,
        "post_logout_redirect_uris" jsonb NOT NULL,
        "frontchannel_logout_uri" text NOT NULL,
        "frontchannel_logout_session_required" boolean NOT NULL,
        "backchannel_logout_uri" text NOT NULL,
        "backchannel_logout_session_required" boolean NOT NULL,
        "metadata" jsonb NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "clients_pkey" PRIMARY KEY ("id")
      )
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "clients"`);
  }
}
