import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Directory sync (src/directory-sync): connections, the links from directory users and groups to
 * identities and group names, the event log and the replay records. Everything of a connection goes
 * with it; a deleted identity leaves its user link with a null identity.
 */
export class CreateDirectorySync1764000401000 implements MigrationInterface {
  name = 'CreateDirectorySync1764000401000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "directory_sync_connections" (
        "id" uuid NOT NULL,
        "name" character varying(255) NOT NULL,
        "schema_id" character varying(64),
        "groups_namespace" character varying(64) NOT NULL,
        "on_deactivate" character varying(16) NOT NULL,
        "secret_sealed" text NOT NULL,
        "previous_secret_sealed" text,
        "previous_secret_expires_at" TIMESTAMP WITH TIME ZONE,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_directory_sync_connections" PRIMARY KEY ("id")
      )
    `);
    await queryRunner.query(
      `CREATE INDEX "IDX_directory_sync_connections_created_at_id" ON "directory_sync_connections" ("created_at", "id")`,
    );

    await queryRunner.query(`
      CREATE TABLE "directory_sync_users" (
        "connection_id" uuid NOT NULL,
        "directory_user_id" character varying(255) NOT NULL,
        "identity_id" uuid,
        "raw" jsonb,
        "last_event_at" bigint NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_directory_sync_users" PRIMARY KEY ("connection_id", "directory_user_id"),
        CONSTRAINT "FK_directory_sync_users_connection" FOREIGN KEY ("connection_id") REFERENCES "directory_sync_connections"("id") ON DELETE CASCADE ON UPDATE NO ACTION,
        CONSTRAINT "FK_directory_sync_users_identity" FOREIGN KEY ("identity_id") REFERENCES "identities"("id") ON DELETE SET NULL ON UPDATE NO ACTION
      )
    `);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_directory_sync_users_identity" ON "directory_sync_users" ("identity_id")`);

    await queryRunner.query(`
      CREATE TABLE "directory_sync_groups" (
        "connection_id" uuid NOT NULL,
        "directory_group_id" character varying(64) NOT NULL,
        "name" text NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_directory_sync_groups" PRIMARY KEY ("connection_id", "directory_group_id"),
        CONSTRAINT "FK_directory_sync_groups_connection" FOREIGN KEY ("connection_id") REFERENCES "directory_sync_connections"("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )
    `);

    await queryRunner.query(`
      CREATE TABLE "directory_sync_events" (
        "id" uuid NOT NULL,
        "connection_id" uuid NOT NULL,
        "received_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "event" character varying(32),
        "directory_id" character varying(255),
        "object_id" character varying(255),
        "group_id" character varying(255),
        "outcome" character varying(16) NOT NULL,
        "error_code" character varying(64),
        CONSTRAINT "PK_directory_sync_events" PRIMARY KEY ("id"),
        CONSTRAINT "FK_directory_sync_events_connection" FOREIGN KEY ("connection_id") REFERENCES "directory_sync_connections"("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )
    `);
    await queryRunner.query(
      `CREATE INDEX "IDX_directory_sync_events_connection_received" ON "directory_sync_events" ("connection_id", "received_at", "id")`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_directory_sync_events_received_at" ON "directory_sync_events" ("received_at")`);

    await queryRunner.query(`
      CREATE TABLE "directory_sync_deliveries" (
        "connection_id" uuid NOT NULL,
        "signature_digest" character varying(64) NOT NULL,
        "received_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_directory_sync_deliveries" PRIMARY KEY ("connection_id", "signature_digest"),
        CONSTRAINT "FK_directory_sync_deliveries_connection" FOREIGN KEY ("connection_id") REFERENCES "directory_sync_connections"("id") ON DELETE CASCADE ON UPDATE NO ACTION
      )
    `);
    await queryRunner.query(`CREATE INDEX "IDX_directory_sync_deliveries_received_at" ON "directory_sync_deliveries" ("received_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "directory_sync_deliveries"`);
    await queryRunner.query(`DROP TABLE "directory_sync_events"`);
    await queryRunner.query(`DROP TABLE "directory_sync_groups"`);
    await queryRunner.query(`DROP TABLE "directory_sync_users"`);
    await queryRunner.query(`DROP TABLE "directory_sync_connections"`);
  }
}
