import { describe, expect, it } from 'vitest';
import type { TuplesConfig } from '../../config/app-config.js';
import { NamespaceRegistry } from '../namespace-registry.js';
import { decodeSubject, encodeSubject, SUBJECT_SET_END, SUBJECT_SET_FIRST } from './subject-key.js';

const registry = new NamespaceRegistry({
  namespaces: [
    { name: 'files', id: 1 },
    { name: 'groups', id: 20 },
  ],
} as unknown as TuplesConfig);

describe('subject keys', () => {
  it('encodes ids and sets (by namespace id) and decodes them back', () => {
    const cases = [
      [{ id: 'alice' }, 'i:alice'],
      [{ id: 'user:1@x#' }, 'i:user:1@x#'],
      [{ namespace: 'groups', object: 'admins', relation: 'member' }, 's:20:admins#member'],
      [{ namespace: 'files', object: '/a/b', relation: '' }, 's:1:/a/b#'],
    ] as const;
    for (const [subject, key] of cases) {
      expect(encodeSubject(subject, registry)).toBe(key);
      expect(decodeSubject(key, registry)).toEqual(subject);
    }
  });

  it('has no key for a set of an unknown namespace, and names an unconfigured id by its digits', () => {
    expect(encodeSubject({ namespace: 'ghosts', object: 'a', relation: 'b' }, registry)).toBeUndefined();
    expect(decodeSubject('s:7:a#b', registry)).toEqual({ namespace: '7', object: 'a', relation: 'b' });
  });

  it('puts every subject set, and no subject id, in the set range', () => {
    const inRange = (key: string): boolean => key >= SUBJECT_SET_FIRST && key < SUBJECT_SET_END;
    expect(inRange(encodeSubject({ namespace: 'groups', object: 'x', relation: '' }, registry)!)).toBe(true);
    expect(inRange(encodeSubject({ id: 's:looks-like-a-set' }, registry)!)).toBe(false);
    expect(inRange(encodeSubject({ id: '\u{10ffff}' }, registry)!)).toBe(false);
  });
});
