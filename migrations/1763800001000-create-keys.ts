import type { MigrationInterface, QueryRunner } from 'typeorm';

/** JSON Web Key sets: one row per key; private members sealed (see src/keys/entities/json-web-key.entity.ts). */
export class CreateKeys1763800001000 implements MigrationInterface {
  name = 'CreateKeys1763800001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "jwk_keys" (
        "pk" bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
        "set_name" character varying(255) NOT NULL,
        "kid" character varying(255) NOT NULL,
        "kty" character varying(8) NOT NULL,
        "alg" character varying(16) NOT NULL,
        "use" character varying(8),
        "public_jwk" jsonb NOT NULL,
        "sealed_private" text,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_jwk_keys" PRIMARY KEY ("pk")
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_jwk_keys_set_kid" ON "jwk_keys" ("set_name", "kid")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "UQ_jwk_keys_set_kid"`);
    await queryRunner.query(`DROP TABLE "jwk_keys"`);
  }
}
