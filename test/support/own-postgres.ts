import { execFileSync } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { startEmbeddedPostgres, type DatabaseServer } from '../../src/database/database-server.js';
import { freePort, tempDataDir } from './process.js';

/**
 * A PostgreSQL of a test's own, for faults that would hurt the other test files' shared server: it
 * can be stopped, SIGKILLed and started again on the same port with its data kept.
 */
export class OwnPostgres {
  private server: DatabaseServer | undefined;

  private constructor(
    private readonly dir: string,
    readonly port: number,
  ) {}

  static async start(): Promise<OwnPostgres> {
    const own = new OwnPostgres(await tempDataDir(), await freePort());
    await own.restart();
    return own;
  }

  get url(): string {
    if (this.server === undefined) throw new Error('the test PostgreSQL is not running');
    return this.server.url;
  }

  /** Starts the server again (after stop or kill), same data, same port. */
  async restart(): Promise<void> {
    this.server = await startEmbeddedPostgres({
      dataDir: join(this.dir, 'data'),
      database: 'latchkey',
      persistent: true,
      port: this.port,
      log: () => {},
    });
  }

  /** A fast shutdown: sessions are terminated, new connections refused. */
  async stop(): Promise<void> {
    await this.server?.stop();
  }

  /**
   * The server SIGKILLed, postmaster and backends at once, as a crashed host would leave it: no
   * shutdown checkpoint, so the next start runs crash recovery from the write-ahead log.
   */
  async kill(): Promise<void> {
    const pid = Number((await readFile(join(this.dir, 'data', 'postmaster.pid'), 'utf8')).split('\n', 1)[0]);
    const backends = childrenOf(pid);
    for (const each of [pid, ...backends]) signal(each, 'SIGKILL');
    await waitUntil(() => ![pid, ...backends].some(isAlive), 10_000);
  }

  async destroy(): Promise<void> {
    await this.server?.stop().catch(() => {});
    await rm(this.dir, { recursive: true, force: true });
  }
}

function childrenOf(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `condition` every 50 ms until it holds, or fails after `timeoutMs`. */
export async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
