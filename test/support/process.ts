import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('../..', import.meta.url).pathname;

/** Builds dist/ if the sources changed; process-level tests run the real entry point. */
export function ensureBuilt(): void {
  execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'inherit' });
}

export { freePort } from '../../src/common/net/free-port.js';

/** A data folder the embedded PostgreSQL (run as the `postgres` user under root) can enter. */
export async function tempDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'latchkey-proc-'));
  await chmod(dir, 0o755);
  return dir;
}

export interface ServiceProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
}

/** Runs `node dist/src/main.js` (or another script of the repository) with exactly the given environment (plus PATH). */
export function runService(env: Record<string, string>, script = 'dist/src/main.js'): ServiceProcess {
  const child = spawn(process.execPath, [script], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
