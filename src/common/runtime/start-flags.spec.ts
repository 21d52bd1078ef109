import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NODE_START_FLAGS, startFlagWarnings } from './start-flags.js';

const ROOT = new URL('../../..', import.meta.url).pathname;

/** The young generation's size (bytes) at the start of a node process given `flags`. */
function youngGenerationAtStart(flags: readonly string[]): number {
  const script =
    "process.stdout.write(String(require('v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size))";
  return Number(execFileSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' }));
}

describe('start flags', () => {
  it('keep the young generation at 16 MB per semi-space from the start, where node alone starts it at a few', () => {
    expect(youngGenerationAtStart(NODE_START_FLAGS)).toBeGreaterThanOrEqual(16 * 1024 * 1024);
    expect(youngGenerationAtStart([])).toBeLessThan(16 * 1024 * 1024);
  });

  it('are what `npm start` passes, before the entry point', () => {
    const scripts = (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts;
    // `exec`: the shell npm runs the script in becomes the service, so the signals npm passes on reach it.
    expect(scripts['start']).toBe(['exec', 'node', ...NODE_START_FLAGS, 'dist/src/main.js'].join(' '));
  });

  it('give one warning naming each missing flag, and none when all were given', () => {
    const warnings = startFlagWarnings(['--inspect']);
    expect(warnings).toHaveLength(1);
    for (const flag of NODE_START_FLAGS) expect(warnings[0]).toContain(flag);
    expect(startFlagWarnings(['--inspect', ...NODE_START_FLAGS])).toEqual([]);
  });
});
