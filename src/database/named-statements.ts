import type pg from 'pg';
import type { DataSource, EntityManager } from 'typeorm';

/** A SQL statement with a stable name: prepared once per pooled connection, then only bound and run. */
export interface NamedStatement {
  readonly name: string;
  readonly text: string;
}

/**
 * Runs a named statement on the pg pool TypeORM opened (one pool per process), skipping TypeORM's
 * query builder, query runner and entity hydration: on hot paths these cost more Node CPU than the
 * statements themselves, and a named statement also spares PostgreSQL a parse and plan each time.
 * jsonb values must be passed as JSON text (`JSON.stringify`, SQL NULL as `null`): pg would turn a
 * JavaScript array into a PostgreSQL array literal. Errors are pg's (`code` is the SQLSTATE).
 */
export async function runNamed<T extends pg.QueryResultRow = pg.QueryResultRow>(
  dataSource: DataSource,
  statement: NamedStatement,
  values: readonly unknown[],
): Promise<pg.QueryResult<T>> {
  return pgPool(dataSource).query<T>({ name: statement.name, text: statement.text, values: [...values] });
}

/**
 * The pg pool TypeORM opened (one per process), for statements that skip TypeORM's query runner.
 * TypeORM does not expose it, so this is the one place that reaches into its driver; everything else
 * runs on it through runNamed (and transactions through withTransaction's query runner).
 */
function pgPool(dataSource: DataSource): pg.Pool {
  return (dataSource.driver as unknown as { master: pg.Pool }).master;
}

/**
 * One transaction on one pooled connection, shared by both ways of reaching the database: named
 * statements and plain SQL on the pg client (`run`, `query`), and TypeORM repositories through
 * `manager`, whose calls join the same transaction.
 */
export interface Transaction {
  /** Runs a named statement in the transaction (see runNamed). */
  run<T extends pg.QueryResultRow = pg.QueryResultRow>(statement: NamedStatement, values: readonly unknown[]): Promise<pg.QueryResult<T>>;
  /** Runs plain SQL in the transaction (parsed each time: for statements whose text varies). */
  query<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: readonly unknown[]): Promise<pg.QueryResult<T>>;
  /** TypeORM on the transaction's connection: what it runs is part of the transaction. */
  readonly manager: EntityManager;
}

/**
 * Runs `work` in one transaction on one pooled connection: committed when it resolves, rolled back
 * when it throws. The transaction is TypeORM's (a query runner's), so that `manager` knows it is in
 * one and joins it instead of opening its own; named statements run on the same pg client. A
 * connection that cannot even roll back is closed instead of going back to the pool.
 */
export async function withTransaction<T>(dataSource: DataSource, work: (transaction: Transaction) => Promise<T>): Promise<T> {
  const runner = dataSource.createQueryRunner();
  try {
    // The query runner's connection is the pg client TypeORM checked out of its pool for it.
    const connection = (await runner.connect()) as pg.PoolClient;
    await runner.startTransaction();
    try {
      const result = await work({
        run: (statement, values) => connection.query({ name: statement.name, text: statement.text, values: [...values] }),
        query: (text, values) => connection.query(text, values === undefined ? undefined : [...values]),
        manager: runner.manager,
      });
      await runner.commitTransaction();
      return result;
    } catch (error) {
      if (runner.isTransactionActive) {
        await runner.rollbackTransaction().catch(() => {
          // Ending the client (not waiting for it) makes the pool drop it on release instead of
          // lending out a connection that may still be inside this transaction.
          connection.end().catch(() => undefined);
        });
      }
      throw error;
    }
  } finally {
    await runner.release();
  }
}

/** Runs a named statement and maps its first row; null when it returned none. */
export async function runNamedFirst<R extends pg.QueryResultRow, T>(
  dataSource: DataSource,
  statement: NamedStatement,
  values: readonly unknown[],
  map: (row: R) => T,
): Promise<T | null> {
  const [row] = (await runNamed<R>(dataSource, statement, values)).rows;
  return row === undefined ? null : map(row);
}

/** A jsonb parameter: JSON text, or SQL NULL for null (see runNamed). */
export function jsonb(value: unknown): string | null {
  return value === null ? null : JSON.stringify(value);
}

/**
 * A read one repository lends another to run inside the other's statement, as a scalar subquery
 * yielding one JSON value (SQL NULL when nothing matched): two reads, one round trip. `sql(first)`
 * numbers its parameters from `$first` and must return the same text for the same `first` (it becomes
 * part of a named statement); `values` are its parameters, in order; `parse` reads the JSON value.
 */
export interface EmbeddedRead<T> {
  sql(first: number): string;
  readonly values: readonly unknown[];
  parse(json: unknown): T;
}
