import type pg from 'pg';
import type { DataSource } from 'typeorm';

/** A SQL statement with a stable name: prepared once per pooled connection, then only bound and run. */
export interface NamedStatement {
  readonly name: string;
  readonly text: string;
}

/**
 * Runs a named statement on the pg pool TypeORM opened (one pool per process), skipping TypeORM's
 * query builder and query runner. The login flow runs about seven statements per login; through
 * `manager.insert/findOne/update` their Node-side cost was most of the service's CPU besides the
 * password hash (docs/self-service.md, Performance), and named statements also spare PostgreSQL a
 * parse and plan each time. jsonb values must be passed as JSON text (`JSON.stringify`) with a
 * `::jsonb` cast: pg would turn a JavaScript array into a PostgreSQL array literal.
 */
export async function runNamed<T extends pg.QueryResultRow = pg.QueryResultRow>(
  dataSource: DataSource,
  statement: NamedStatement,
  values: readonly unknown[],
): Promise<pg.QueryResult<T>> {
  const pool = (dataSource.driver as unknown as { master: pg.Pool }).master;
  return pool.query<T>({ name: statement.name, text: statement.text, values: [...values] });
}
