import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A version per cached topic, bumped by every statement that writes the topic's tables, whoever runs
 * it (the service or an operator in SQL). The change notifier's periodic net compares it instead of
 * dropping those caches blind: rebuilding the policy index or re-hashing client secrets costs far
 * more than reading one row. Statement-level triggers, so a bulk write bumps it once.
 */
export class CacheVersions1764000900000 implements MigrationInterface {
  name = 'CacheVersions1764000900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "cache_versions" ("topic" text PRIMARY KEY, "version" bigint NOT NULL)`);
    await queryRunner.query(`
      CREATE FUNCTION "bump_cache_version"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO "cache_versions" ("topic", "version") VALUES (TG_ARGV[0], 1)
          ON CONFLICT ("topic") DO UPDATE SET "version" = "cache_versions"."version" + 1;
        RETURN NULL;
      END
      $$`);
    for (const [table, topic] of VERSIONED_TABLES) {
      await queryRunner.query(
        `CREATE TRIGGER "${table}_cache_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "${table}"
         FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"('${topic}')`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [table] of VERSIONED_TABLES) await queryRunner.query(`DROP TRIGGER "${table}_cache_version" ON "${table}"`);
    await queryRunner.query(`DROP FUNCTION "bump_cache_version"()`);
    await queryRunner.query(`DROP TABLE "cache_versions"`);
  }
}

/** Table → topic (the ChangeNotifier topic of the cache built from it). */
const VERSIONED_TABLES: ReadonlyArray<readonly [string, string]> = [
  ['clients', 'clients'],
  ['acp_policies', 'acp'],
  ['acp_roles', 'acp'],
];
