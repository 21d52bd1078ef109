// Builds dist/ when it is missing or older than the sources, so `npm start` works on a fresh clone
// and stays quick afterwards.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const stamp = join(root, 'dist', '.build-stamp');
const inputs = ['src', 'migrations', 'package.json', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json'];

function newest(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), info.mtimeMs);
}

const sourceTime = Math.max(
  ...inputs
    .map((input) => join(root, input))
    .filter(existsSync)
    .map(newest),
);
if (existsSync(stamp) && statSync(stamp).mtimeMs >= sourceTime) process.exit(0);

process.stdout.write('Building Latchkey...\n');
execFileSync(join(root, 'node_modules', '.bin', 'nest'), ['build', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
writeFileSync(stamp, new Date().toISOString());
