#!/usr/bin/env node
// The `latchkey` command: builds dist/ first when the sources changed (as `npm start` does), with its progress on stderr,
// so the command's own output stays clean, then runs the CLI.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: root, stdio: ['ignore', process.stderr, 'inherit'] });
await import(new URL('../dist/src/cli/latchkey.js', import.meta.url).href);
