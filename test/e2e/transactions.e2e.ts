import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataSourceOptions } from '../../src/database/data-source.options.js';
import { type NamedStatement, withTransaction } from '../../src/database/named-statements.js';
import { freshDatabase } from '../support/database.js';

const INSERT: NamedStatement = { name: 'transactions_test_insert', text: 'INSERT INTO transaction_probe (value) VALUES ($1)' };

describe('withTransaction', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = new DataSource(dataSourceOptions(await freshDatabase(), { poolSize: 2, connectTimeoutMs: 2000, statementTimeoutMs: 0 }));
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE transaction_probe (value integer NOT NULL)');
  });

  afterAll(async () => {
    await dataSource.destroy();
  });

  const count = async (): Promise<number> =>
    Number(((await dataSource.query('SELECT count(*) AS n FROM transaction_probe')) as [{ n: string }])[0].n);

  it('runs named statements, plain SQL and TypeORM in one transaction, committed together', async () => {
    const seen = await withTransaction(dataSource, async (transaction) => {
      await transaction.run(INSERT, [1]);
      await transaction.query('INSERT INTO transaction_probe (value) VALUES ($1)', [2]);
      await transaction.manager.query('INSERT INTO transaction_probe (value) VALUES ($1)', [3]);
      expect(await count()).toBe(0);
      return (await transaction.manager.query('SELECT count(*) AS n FROM transaction_probe')) as [{ n: string }];
    });
    expect(Number(seen[0].n)).toBe(3);
    expect(await count()).toBe(3);
  });

  it('rolls all of them back when the work throws, and lends the connection out again', async () => {
    const before = await count();
    await expect(
      withTransaction(dataSource, async (transaction) => {
        await transaction.run(INSERT, [4]);
        await transaction.manager.query('INSERT INTO transaction_probe (value) VALUES ($1)', [5]);
        throw new Error('abort');
      }),
    ).rejects.toThrow();
    expect(await count()).toBe(before);
    for (let round = 0; round < 3; round += 1) await withTransaction(dataSource, (transaction) => transaction.run(INSERT, [6]));
    expect(await count()).toBe(before + 3);
  });
});
