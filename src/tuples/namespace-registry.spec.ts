import { describe, expect, it } from 'vitest';
import type { TuplesConfig } from '../config/app-config.js';
import { NamespaceRegistry } from './namespace-registry.js';

const registry = (namespaces: { name: string; id: number }[]) => new NamespaceRegistry({ namespaces } as unknown as TuplesConfig);

describe('NamespaceRegistry.ensure', () => {
  it('keeps a configured namespace and its id', () => {
    expect(registry([{ name: 'groups', id: 7 }]).ensure('groups')).toBe(7);
  });

  it('adds an unconfigured one under an id derived from its name, the same on every instance', () => {
    const first = registry([]);
    const id = first.ensure('groups');
    expect(id).toBeGreaterThanOrEqual(2 ** 30);
    expect(id).toBeLessThan(2 ** 31);
    expect(first.has('groups')).toBe(true);
    expect(first.nameOf(id)).toBe('groups');
    expect(registry([{ name: 'files', id: 1 }]).ensure('groups')).toBe(id);
    expect(first.ensure('teams')).not.toBe(id);
  });

  it('refuses a name whose derived id another namespace holds', () => {
    const id = registry([]).ensure('groups');
    expect(() => registry([{ name: 'squatter', id }]).ensure('groups')).toThrow(/holds/);
  });
});
