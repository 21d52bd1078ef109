import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('../..', import.meta.url).pathname;

/** Builds dist/ if the sources changed; process-level tests run the real entry point. */
export function ensureBuilt(): void {
  execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'inherit' });
}

import { freePort as freePortOf } from '../../src/common/net/free-port.js';
import { NODE_START_FLAGS } from '../../src/common/runtime/start-flags.js';

export { freePortOf as freePort };

/** A data folder the embedded PostgreSQL (run as the `postgres` user under root) can enter. */
export async function tempDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'latchkey-proc-'));
  await chmod(dir, 0o755);
  return dir;
}

/**
 * The environment of a service process run by a test: its data folder and database, a system secret,
 * one admin token, two free ports and a log level (`warn` unless told), plus `more`.
 */
export async function serviceEnv(
  setup: { readonly dataDir: string; readonly databaseUrl: string; readonly adminToken: string; readonly publicPort?: number },
  more: Record<string, string> = {},
): Promise<Record<string, string>> {
  return {
    DATA_DIR: setup.dataDir,
    DATABASE_URL: setup.databaseUrl,
    SECRETS_SYSTEM: 'process-test-system-secret-0123456789',
    ADMIN_TOKENS: setup.adminToken,
    PUBLIC_PORT: String(setup.publicPort ?? (await freePortOf())),
    ADMIN_PORT: String(await freePortOf()),
    LOG_LEVEL: 'warn',
    ...more,
  };
}

export interface ServiceProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
}

const ENTRY_POINT = 'dist/src/main.js';

/**
 * Runs `node dist/src/main.js` with the start flags every launcher passes (or another script of the
 * repository, without them) with exactly the given environment (plus PATH). `nodeArgs` replaces the flags.
 */
export function runService(
  env: Record<string, string>,
  script = ENTRY_POINT,
  nodeArgs: readonly string[] = script === ENTRY_POINT ? NODE_START_FLAGS : [],
): ServiceProcess {
  return watched(
    spawn(process.execPath, [...nodeArgs, script], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

/**
 * Runs `npm start` as the README does (its build check, then the start script), with the given
 * environment plus PATH and HOME (npm's own settings); `child` is npm itself.
 */
export function runNpmStart(env: Record<string, string>): ServiceProcess {
  return watched(
    spawn('npm', ['start'], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: process.env['HOME'] ?? ROOT, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

function watched(child: ChildProcess): ServiceProcess {
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitForOutput: async (pattern, timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const match = pattern.exec(out) ?? pattern.exec(err);
        if (match !== null) return match;
        if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}: ${err}${out}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no ${String(pattern)} within ${timeoutMs} ms; stderr: ${err}`);
    },
  };
}
