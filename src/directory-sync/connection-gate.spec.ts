import { describe, expect, it } from 'vitest';
import { ConnectionGate } from './connection-gate.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('ConnectionGate', () => {
  it('runs at most `limit` deliveries of one connection at once, in arrival order, others freely', async () => {
    const gate = new ConnectionGate(2, 10);
    const release = [deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = release.map((entry, index) =>
      gate.run('a', async () => {
        started.push(index);
        await entry.promise;
      }),
    );
    const other = gate.run('b', async () => 'b');
    await expect(other).resolves.toBe('b');
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1]);
    release[0]!.resolve();
    await runs[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    release[1]!.resolve();
    release[2]!.resolve();
    await Promise.all(runs);
  });

  it('refuses a delivery past the waiting bound with too_many_deliveries, and a failure frees its slot', async () => {
    const gate = new ConnectionGate(1, 1);
    const hold = deferred();
    const first = gate.run('a', () => hold.promise);
    const second = gate.run('a', async () => 'second');
    await expect(gate.run('a', async () => 'third')).rejects.toMatchObject({ code: 'too_many_deliveries' });
    hold.resolve();
    await first;
    await expect(second).resolves.toBe('second');
    await expect(gate.run('a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(gate.run('a', async () => 'after')).resolves.toBe('after');
  });
});
