// Builds dist/ when it is missing or older than the sources, so `npm start` works on a fresh clone
// and stays quick afterwards.
import { spawn } from 'node:child_process';
import { clearInterval, setInterval } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const stamp = join(root, 'dist', '.build-stamp');
const inputs = ['src', 'migrations', 'package.json', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json'];
// The build empties dist/ first (deleteOutDir), so two at once (parallel test files, `npm start` while
// tests run) would each start a service from a half-written dist/: one builds, the others wait for it.
const lock = join(root, 'node_modules', '.cache', 'latchkey-build.lock');
const STALE_LOCK_MS = 10 * 60_000;

function newest(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), info.mtimeMs);
}

function upToDate() {
  const sourceTime = Math.max(
    ...inputs
      .map((input) => join(root, input))
      .filter(existsSync)
      .map(newest),
  );
  return existsSync(stamp) && statSync(stamp).mtimeMs >= sourceTime;
}

async function acquireLock() {
  mkdirSync(join(lock, '..'), { recursive: true });
  for (let announced = false; ;) {
    try {
      mkdirSync(lock);
      return;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    // A build that crashed leaves its lock behind.
    if (Date.now() - statSync(lock, { throwIfNoEntry: false })?.mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
    if (!announced) process.stdout.write('Waiting for another build of Latchkey to finish...\n');
    announced = true;
    await sleep(500);
  }
}

if (upToDate()) process.exit(0);
await acquireLock();
if (upToDate()) {
  rmSync(lock, { recursive: true, force: true });
  process.exit(0);
}

// The TypeScript build takes from a few seconds to a minute on a busy machine and prints nothing while
// it works, so say what is happening and show that it still is.
const started = Date.now();
process.stdout.write('Building Latchkey into dist/ (first start, or the sources changed)...\n');
const ticker = setInterval(() => process.stdout.write(`  still building, ${Math.round((Date.now() - started) / 1000)} s so far\n`), 5000);
const build = spawn(join(root, 'node_modules', '.bin', 'nest'), ['build', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
build.on('exit', (code, signal) => {
  clearInterval(ticker);
  if (code === 0) writeFileSync(stamp, new Date().toISOString());
  rmSync(lock, { recursive: true, force: true });
  if (code !== 0) {
    process.stderr.write(`Build failed (${signal ?? `exit code ${code}`}).\n`);
    process.exit(code ?? 1);
  }
  process.stdout.write(`Built in ${Math.round((Date.now() - started) / 1000)} s.\n`);
});
