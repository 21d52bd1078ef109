import { createHook } from 'node:async_hooks';
import { execFileSync } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { keptTickObject } from './keep-tick-object-maps.js';

const ROUNDS = 12;

/** The tick object the next `process.nextTick` queues, caught the way the module catches one. */
function nextTickObject(): object {
  let caught: object | undefined;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') caught ??= resource;
    },
  });
  hook.enable();
  process.nextTick(() => undefined);
  hook.disable();
  return caught!;
}

// Outside any tick callback, so that no tick object is alive during the collection but the kept one.
const betweenTicks = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('keep-tick-object-maps', () => {
  it('keeps a tick object whose map every later tick object shares, across full collections', async () => {
    setFlagsFromString('--allow-natives-syntax');
    setFlagsFromString('--expose-gc');
    const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
    const gc = runInNewContext('gc') as () => void;
    const kept = keptTickObject();
    expect(kept).toBeDefined();
    expect(Object.getOwnPropertySymbols(kept)).toHaveLength(2);
    const shared: boolean[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      await betweenTicks();
      gc();
      shared.push(haveSameMap(nextTickObject(), kept!));
    }
    expect(shared).toEqual(Array<boolean>(ROUNDS).fill(true));
  });

  it('is needed: without a kept one, V8 frees the maps and later tick objects get new ones', () => {
    // A process without the module prints the map of a fresh tick object after each full collection
    // (%DebugPrint), holding none of them: the maps are rebuilt, so the addresses differ.
    const script = `
      const { createHook } = require('node:async_hooks');
      const next = () => { let caught; const hook = createHook({ init(a, type, t, resource) { if (type === 'TickObject') caught ??= resource; } });
        hook.enable(); process.nextTick(() => undefined); hook.disable(); return caught; };
      let round = 0;
      const step = () => { gc(); %DebugPrint(next()); if (++round < ${ROUNDS}) setImmediate(step); };
      setImmediate(step);`;
    const out = execFileSync(process.execPath, ['--expose-gc', '--allow-natives-syntax', '-e', script], { encoding: 'utf8' });
    const maps = [...out.matchAll(/^ - map: (0x[0-9a-f]+)/gm)].map((match) => match[1]);
    expect(maps).toHaveLength(ROUNDS);
    expect(new Set(maps).size).toBeGreaterThan(1);
  });
});
