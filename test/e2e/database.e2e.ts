import pg from 'pg';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataSourceOptions } from '../../src/database/data-source.options.js';
import { runMigrationsLocked } from '../../src/database/migration-runner.js';
import { MIGRATIONS } from '../../src/database/schema.js';
import { bootApp, type TestApp } from '../support/app.js';
import { freshDatabase, queryDatabase } from '../support/database.js';
import { AdminController } from '../../src/common/auth/controllers.js';
import { Controller, Get, Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';

const POOL = { poolSize: 4, connectTimeoutMs: 2000, statementTimeoutMs: 0 };

describe('migrations', () => {
  it('agree with the entities: generating a migration against a migrated database yields nothing', async () => {
    const dataSource = new DataSource(dataSourceOptions(await freshDatabase(), POOL));
    await dataSource.initialize();
    try {
      await runMigrationsLocked(dataSource);
      const drift = await dataSource.driver.createSchemaBuilder().log();
      expect(drift.upQueries.map((query) => query.query)).toEqual([]);
    } finally {
      await dataSource.destroy();
    }
  });

  it("declare each index's predicate as the migrations made it (the schema builder compares no predicates)", async () => {
    const url = await freshDatabase();
    const dataSource = new DataSource(dataSourceOptions(url, POOL));
    await dataSource.initialize();
    try {
      await runMigrationsLocked(dataSource);
      const declared = dataSource.entityMetadatas.flatMap((metadata) =>
        metadata.indices.map((index) => [index.name, normalizePredicate(index.where)] as const),
      );
      expect(declared.filter(([, where]) => where !== '').length).toBeGreaterThan(0);
      const rows = await queryDatabase<{ name: string; predicate: string | null }>(
        url,
        `SELECT c.relname AS name, pg_get_expr(i.indpred, i.indrelid) AS predicate
           FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
          WHERE c.relname = ANY($1)`,
        [declared.map(([name]) => name)],
      );
      const actual = new Map(rows.map((row) => [row.name, normalizePredicate(row.predicate)]));
      expect(Object.fromEntries(declared.map(([name]) => [name, actual.get(name)]))).toEqual(Object.fromEntries(declared));
    } finally {
      await dataSource.destroy();
    }
  });

  it('run once when several instances start at the same time, and every one can be reverted', async () => {
    const url = await freshDatabase();
    const sources = [0, 1, 2].map(() => new DataSource(dataSourceOptions(url, POOL)));
    await Promise.all(sources.map((source) => source.initialize()));
    try {
      const applied = await Promise.all(sources.map((source) => runMigrationsLocked(source)));
      expect(applied.flat()).toHaveLength(MIGRATIONS.length);
      const rows = await queryDatabase<{ name: string }>(url, 'SELECT name FROM latchkey_migrations');
      expect(rows).toHaveLength(MIGRATIONS.length);
      for (let i = 0; i < MIGRATIONS.length; i += 1) await sources[0]!.undoLastMigration();
      expect(await queryDatabase(url, 'SELECT name FROM latchkey_migrations')).toHaveLength(0);
    } finally {
      await Promise.all(sources.map((source) => source.destroy()));
    }
  });

  it('keep readiness at 503 while pending', async () => {
    expect(MIGRATIONS.length).toBeGreaterThan(0);
    const app = await bootApp({ MIGRATE_ON_START: 'false' });
    try {
      const ready = await app.public.get('/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ errors: { database: 'migrations are pending' } });
    } finally {
      await app.close();
    }
  });
});

describe('a database outage', () => {
  let app: TestApp;
  let adminUrl: string;
  let name: string;

  beforeAll(async () => {
    app = await bootApp({ DATABASE_CONNECT_TIMEOUT_MS: '1000' });
    name = new URL(app.databaseUrl).pathname.slice(1);
    adminUrl = app.databaseUrl.replace(/\/[^/]+$/, '/postgres');
  });

  afterAll(async () => {
    await queryDatabase(adminUrl, `ALTER DATABASE ${pg.escapeIdentifier(name)} ALLOW_CONNECTIONS true`);
    await app.close();
  });

  it('turns readiness 503 without internals while the database refuses connections, and recovers without a restart', async () => {
    expect((await app.public.get('/health/ready')).status).toBe(200);
    await queryDatabase(adminUrl, `ALTER DATABASE ${pg.escapeIdentifier(name)} ALLOW_CONNECTIONS false`);
    await queryDatabase(adminUrl, 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);

    const down = await app.public.get('/health/ready');
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ errors: { database: 'the database is not reachable' } });
    expect((await app.public.get('/health/alive')).status).toBe(200);

    await queryDatabase(adminUrl, `ALTER DATABASE ${pg.escapeIdentifier(name)} ALLOW_CONNECTIONS true`);
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt += 1) {
      status = (await app.public.get('/health/ready')).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
  });
});

describe('the route audit', () => {
  @Controller('unmarked')
  class UnmarkedController {
    @Get()
    open(): string {
      return 'should never be served';
    }
  }
  @Module({ controllers: [UnmarkedController] })
  class UnmarkedModule {}

  @AdminController('marked')
  class MarkedController {
    @Get()
    fine(): string {
      return 'ok';
    }
  }
  @Module({ controllers: [MarkedController] })
  class MarkedModule {}

  it('refuses to boot when a route has no auth marker or listener', async () => {
    await expect(bootApp({}, { extraModules: [UnmarkedModule] })).rejects.toThrow(/UnmarkedController\.open/);
  });

  @Injectable()
  class BypassingRoute implements OnModuleInit {
    constructor(private readonly adapterHost: HttpAdapterHost) {}

    onModuleInit(): void {
      this.adapterHost.httpAdapter.getInstance<FastifyInstance>().route({
        method: 'GET',
        url: '/bypassing',
        constraints: { listener: 'public' },
        handler: () => 'should never be served',
      });
    }
  }
  @Module({ providers: [BypassingRoute] })
  class BypassingModule {}

  it('refuses to boot when a plain route is registered around registerPlainRoute', async () => {
    await expect(bootApp({}, { extraModules: [BypassingModule] })).rejects.toThrow(/GET \/bypassing/);
  });

  it('boots when every route is marked', async () => {
    const app = await bootApp({}, { extraModules: [MarkedModule] });
    try {
      expect((await app.admin.get('/marked')).status).toBe(200);
      expect((await app.anonymousAdmin.get('/marked')).status).toBe(401);
    } finally {
      await app.close();
    }
  });
});

/** An index predicate as text to compare: no quotes, no enclosing parentheses, single spaces, lower case. */
function normalizePredicate(predicate: string | null | undefined): string {
  let text = (predicate ?? '').replaceAll('"', '').replace(/\s+/g, ' ').trim().toLowerCase();
  while (enclosed(text)) text = text.slice(1, -1).trim();
  return text;
}

/** True when the first character is a '(' closed by the last character. */
function enclosed(text: string): boolean {
  if (!text.startsWith('(') || !text.endsWith(')')) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i += 1) {
    if (text[i] === '(') depth += 1;
    else if (text[i] === ')') depth -= 1;
    if (depth === 0 && i < text.length - 1) return false;
  }
  return true;
}
