import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Self-service (src/self-service): sessions, flows of every kind, error containers and the failed-login
 * counters. Session tokens are kept only as SHA-256 digests; a session, and any flow bound to an
 * identity, goes with its identity (ON DELETE CASCADE).
 */
export class CreateSelfService1763800007000 implements MigrationInterface {
  name = 'CreateSelfService1763800007000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "self_service_sessions" (
        "id" uuid NOT NULL,
        "token_hash" character(64) NOT NULL,
        "identity_id" uuid NOT NULL,
        "active" boolean NOT NULL,
        "issued_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "authenticated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "authentication_methods" jsonb NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_self_service_sessions" PRIMARY KEY ("id"),
        CONSTRAINT "FK_self_service_sessions_identity" FOREIGN KEY ("identity_id") REFERENCES "identities"("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )
    `);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_self_service_sessions_token_hash" ON "self_service_sessions" ("token_hash")`);
    await queryRunner.query(`CREATE INDEX "IDX_self_service_sessions_identity" ON "self_service_sessions" ("identity_id")`);

    await queryRunner.query(`
      CREATE TABLE "self_service_flows" (
        "id" uuid NOT NULL,
        "kind" character varying(16) NOT NULL,
        "type" character varying(8) NOT NULL,
        "state" character varying(32),
        "active" character varying(32),
        "forced" boolean NOT NULL,
        "request_url" text NOT NULL,
        "return_to" text,
        "ui" jsonb NOT NULL,
        "csrf_token_hash" character(64),
        "identity_id" uuid,
        "context" jsonb NOT NULL,
        "issued_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_self_service_flows" PRIMARY KEY ("id"),
        CONSTRAINT "FK_self_service_flows_identity" FOREIGN KEY ("identity_id") REFERENCES "identities"("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )
    `);
    await queryRunner.query(`CREATE INDEX "IDX_self_service_flows_identity" ON "self_service_flows" ("identity_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_self_service_flows_expires_at" ON "self_service_flows" ("expires_at")`);

    await queryRunner.query(`
      CREATE TABLE "self_service_errors" (
        "id" uuid NOT NULL,
        "errors" jsonb NOT NULL,
        "was_seen" boolean NOT NULL,
        "seen_at" TIMESTAMP WITH TIME ZONE,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_self_service_errors" PRIMARY KEY ("id")
      )
    `);

    await queryRunner.query(`
      CREATE TABLE "self_service_login_failures" (
        "key" character varying(128) NOT NULL,
        "window_started_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "failures" integer NOT NULL,
        CONSTRAINT "PK_self_service_login_failures" PRIMARY KEY ("key")
      )
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "self_service_login_failures"`);
    await queryRunner.query(`DROP TABLE "self_service_errors"`);
    await queryRunner.query(`DROP TABLE "self_service_flows"`);
    await queryRunner.query(`DROP TABLE "self_service_sessions"`);
  }
}
