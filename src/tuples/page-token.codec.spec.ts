import { describe, expect, it } from 'vitest';
import type { SecretsConfig } from '../config/app-config.js';
import { PageTokenCodec } from './page-token.codec.js';
import type { StoredFilter } from './storage/stored-tuple.js';
import { TuplesError, TuplesErrorCode } from './tuples.errors.js';

const OLD = 'old-system-secret-0123456789abcdef';
const NEW = 'new-system-secret-0123456789abcdef';

const codec = (...system: string[]): PageTokenCodec => new PageTokenCodec({ system } as SecretsConfig);
const filter: StoredFilter = { namespaceId: 1, object: 'doc' };
const cursor = { object: 'doc', relation: 'viewer', subjectKey: 'i:alice' };

function reasonOf(run: () => unknown): TuplesErrorCode | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(TuplesError);
    return (error as TuplesError).reason;
  }
}

describe('PageTokenCodec', () => {
  it('round-trips a cursor, and the token is opaque', () => {
    const token = codec(OLD).encode(cursor, filter);
    expect(token).not.toContain('alice');
    expect(codec(OLD).decode(token, filter)).toEqual(cursor);
  });

  it('opens tokens of the previous secret after a rotation, and refuses them once it is dropped', () => {
    const token = codec(OLD).encode(cursor, filter);
    expect(codec(NEW, OLD).decode(token, filter)).toEqual(cursor);
    expect(reasonOf(() => codec(NEW).decode(token, filter))).toBe(TuplesErrorCode.InvalidPageToken);
  });

  it('refuses a token issued for other filters', () => {
    const token = codec(OLD).encode(cursor, filter);
    for (const other of [{ namespaceId: 2, object: 'doc' }, { namespaceId: 1 }, { namespaceId: 1, object: 'doc', subjectKey: 'i:x' }]) {
      expect(reasonOf(() => codec(OLD).decode(token, other))).toBe(TuplesErrorCode.InvalidPageToken);
    }
  });

  it('refuses garbage and a token sealed around something else', () => {
    for (const garbage of ['', 'x', 'v1.a.b.c.d', '....', 'v1.' + 'A'.repeat(200)]) {
      expect(reasonOf(() => codec(OLD).decode(garbage, filter))).toBe(TuplesErrorCode.InvalidPageToken);
    }
  });
});
