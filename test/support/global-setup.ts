import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type DatabaseServer } from '../../src/database/database-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A URL to a database on the test server from which per-file databases are created. */
    adminDatabaseUrl: string;
  }
}

let server: DatabaseServer | undefined;
let dir: string | undefined;

/** One PostgreSQL per test run: the one in DATABASE_URL when set, else an embedded one in a temporary folder. */
export async function setup(project: TestProject): Promise<void> {
  const external = process.env['DATABASE_URL'];
  if (external !== undefined && external !== '') {
    project.provide('adminDatabaseUrl', external);
    return;
  }
  dir = await mkdtemp(join(tmpdir(), 'latchkey-test-pg-'));
  // Run as root, the embedded server runs as the `postgres` user, which must be able to enter the folder.
  await chmod(dir, 0o755);
  server = await startEmbeddedPostgres({
    dataDir: join(dir, 'data'),
    database: 'postgres',
    persistent: false,
    log: (line) => console.error(line),
  });
  project.provide('adminDatabaseUrl', server.url);
}

export async function teardown(): Promise<void> {
  await server?.stop();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
}
