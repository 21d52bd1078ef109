import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The login/consent/logout hand-off (src/consent): login sessions, login, consent and logout requests.
 * Challenges, verifiers, CSRF values and session cookies are stored only as SHA-256 digests. Requests
 * go with their client; consent rows are what tokens reference (`oauth2_consent_requests.id`).
 */
export class CreateConsent1763800005000 implements MigrationInterface {
  name = 'CreateConsent1763800005000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "oauth2_authentication_sessions" (
        "id" uuid NOT NULL,
        "token_hash" character(64),
        "subject" character varying(255) NOT NULL,
        "authenticated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "remember" boolean NOT NULL,
        "expires_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_oauth2_authentication_sessions" PRIMARY KEY ("id")
      )
    `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_oauth2_authentication_sessions_token_hash" ON "oauth2_authentication_sessions" ("token_hash")`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_oauth2_authentication_sessions_subject" ON "oauth2_authentication_sessions" ("subject")`);
    await queryRunner.query(
      `CREATE INDEX "IDX_oauth2_authentication_sessions_expires_at" ON "oauth2_authentication_sessions" ("expires_at")`,
    );

    await queryRunner.query(`
      CREATE TABLE "oauth2_login_requests" (
        "id" uuid NOT NULL,
        "challenge_hash" character(64) NOT NULL,
        "challenge_sealed" text NOT NULL,
        "verifier_hash" character(64),
        "csrf_hash" character(64) NOT NULL,
        "client_id" character varying(255) NOT NULL,
        "request_url" text NOT NULL,
        "requested_scope" jsonb NOT NULL,
        "requested_audience" jsonb NOT NULL,
        "oidc_context" jsonb NOT NULL,
        "skip" boolean NOT NULL,
        "subject" character varying(255) NOT NULL,
        "login_session_id" uuid NOT NULL,
        "requested_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "authenticated_at" TIMESTAMP WITH TIME ZONE,
        "handled_at" TIMESTAMP WITH TIME ZONE,
        "remember" boolean NOT NULL,
        "remember_for" integer NOT NULL,
        "acr" text NOT NULL,
        "amr" jsonb NOT NULL,
        "context" jsonb NOT NULL,
        "force_subject_identifier" character varying(255) NOT NULL,
        "error" jsonb,
        "was_used" boolean NOT NULL,
        CONSTRAINT "PK_oauth2_login_requests" PRIMARY KEY ("id"),
        CONSTRAINT "FK_oauth2_login_requests_client" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )
    `);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_oauth2_login_requests_challenge_hash" ON "oauth2_login_requests" ("challenge_hash")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_oauth2_login_requests_verifier_hash" ON "oauth2_login_requests" ("verifier_hash")`);
    await queryRunner.query(`CREATE INDEX "IDX_oauth2_login_requests_client" ON "oauth2_login_requests" ("client_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_oauth2_login_requests_requested_at" ON "oauth2_login_requests" ("requested_at")`);

    await queryRunner.query(`
      CREATE TABLE "oauth2_consent_requests" (
        "id" uuid NOT NULL,
        "challenge_hash" character(64) NOT NULL,
        "challenge_sealed" text NOT NULL,
        "verifier_hash" character(64),
        "csrf_hash" character(64) NOT NULL,
        "client_id" character varying(255) NOT NULL,
        "subject" character varying(255) NOT NULL,
        "force_subject_identifier" character varying(255) NOT NULL,
        "request_url" text NOT NULL,
        "requested_scope" jsonb NOT NULL,
        "requested_audience" jsonb NOT NULL,
        "oidc_context" jsonb NOT NULL,
        "skip" boolean NOT NULL,
        "acr" text NOT NULL,
        "amr" jsonb NOT NULL,
        "context" jsonb NOT NULL,
        "login_request_id" uuid NOT NULL,
        "login_challenge_sealed" text NOT NULL,
        "login_session_id" uuid,
        "requested_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "authenticated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "handled_at" TIMESTAMP WITH TIME ZONE,
        "granted_scope" jsonb NOT NULL,
        "granted_audience" jsonb NOT NULL,
        "remember" boolean NOT NULL,
        "remember_for" integer NOT NULL,
        "session_access_token" jsonb NOT NULL,
        "session_id_token" jsonb NOT NULL,
        "error" jsonb,
        "was_used" boolean NOT NULL,
        CONSTRAINT "PK_oauth2_consent_requests" PRIMARY KEY ("id"),
        CONSTRAINT "FK_oauth2_consent_requests_client" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE CASCADE ON UPDATE NO ACTION,
        CONSTRAINT "FK_oauth2_consent_requests_login_session" FOREIGN KEY ("login_session_id") REFERENCES "oauth2_authentication_sessions"("id") ON DELETE SET NULL ON UPDATE NO ACTION
      )
    `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_oauth2_consent_requests_challenge_hash" ON "oauth2_consent_requests" ("challenge_hash")`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_oauth2_consent_requests_verifier_hash" ON "oauth2_consent_requests" ("verifier_hash")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_oauth2_consent_requests_subject_client" ON "oauth2_consent_requests" ("subject", "client_id")`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_oauth2_consent_requests_client" ON "oauth2_consent_requests" ("client_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_oauth2_consent_requests_login_session" ON "oauth2_consent_requests" ("login_session_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_oauth2_consent_requests_requested_at" ON "oauth2_consent_requests" ("requested_at")`);

    await queryRunner.query(`
      CREATE TABLE "oauth2_logout_requests" (
        "id" uuid NOT NULL,
        "challenge_hash" character(64) NOT NULL,
        "verifier_hash" character(64),
        "subject" character varying(255) NOT NULL,
        "session_id" uuid NOT NULL,
        "request_url" text NOT NULL,
        "rp_initiated" boolean NOT NULL,
        "post_logout_redirect_uri" text NOT NULL,
        "accepted" boolean NOT NULL,
        "rejected" boolean NOT NULL,
        "was_used" boolean NOT NULL,
        "requested_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_oauth2_logout_requests" PRIMARY KEY ("id")
      )
    `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_oauth2_logout_requests_challenge_hash" ON "oauth2_logout_requests" ("challenge_hash")`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_oauth2_logout_requests_verifier_hash" ON "oauth2_logout_requests" ("verifier_hash")`);
    await queryRunner.query(`CREATE INDEX "IDX_oauth2_logout_requests_requested_at" ON "oauth2_logout_requests" ("requested_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "oauth2_logout_requests"`);
    await queryRunner.query(`DROP TABLE "oauth2_consent_requests"`);
    await queryRunner.query(`DROP TABLE "oauth2_login_requests"`);
    await queryRunner.query(`DROP TABLE "oauth2_authentication_sessions"`);
  }
}
