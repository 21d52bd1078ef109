import { describe, expect, it } from 'vitest';
import { TuplesError, TuplesErrorCode } from '../tuples.errors.js';
import { formatSubject } from './relation-tuple.js';
import { parseSubject, parseTuple } from './tuple-syntax.js';

function reasonOf(run: () => unknown): TuplesErrorCode | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(TuplesError);
    return (error as TuplesError).reason;
  }
}

describe('parseSubject', () => {
  it('reads a string without # as a subject id, verbatim', () => {
    for (const id of ['alice', 'user:42', 'a@b.c', ' spaced ', 'ünïcode', '🙂'.repeat(256)]) {
      expect(parseSubject(id, 'subject')).toEqual({ id });
    }
  });

  it('reads namespace:object#relation as a subject set, the relation possibly empty', () => {
    expect(parseSubject('groups:admins#member', 'subject')).toEqual({ namespace: 'groups', object: 'admins', relation: 'member' });
    expect(parseSubject('files:/a/b.txt#', 'subject')).toEqual({ namespace: 'files', object: '/a/b.txt', relation: '' });
  });

  it.each(['', 'a#b#c', 'team#member', 'a:b:c#d', ':obj#rel', 'ns:#rel', 'ns:obj#r@l', 'n s:obj#rel', `ns:${'o'.repeat(65)}#rel`])(
    'refuses %j as malformed',
    (text) => {
      expect(reasonOf(() => parseSubject(text, 'subject'))).toBe(TuplesErrorCode.MalformedSubject);
    },
  );

  it('refuses control characters, lone surrogates and ids over 256 characters', () => {
    for (const text of ['a\u0000', 'a\r\nb', '\t', 'x\u007f', 'bad\ud800', 'bad\udc00x', 'i'.repeat(257)]) {
      expect(
        reasonOf(() => parseSubject(text, 'subject')),
        JSON.stringify(text),
      ).toBe(TuplesErrorCode.MalformedSubject);
    }
  });

  it('round-trips through formatSubject', () => {
    for (const text of ['alice', 'groups:admins#member', 'files:x#']) expect(formatSubject(parseSubject(text, 's'))).toBe(text);
  });
});

describe('parseTuple', () => {
  const valid = { namespace: 'files', object: 'doc', relation: 'viewer', subject: 'alice' };

  it('accepts a tuple and names the failing field with the given prefix', () => {
    expect(parseTuple(valid)).toEqual({ namespace: 'files', object: 'doc', relation: 'viewer', subject: { id: 'alice' } });
    try {
      parseTuple({ ...valid, relation: '' }, '[3].relation_tuple.');
      expect.unreachable();
    } catch (error) {
      expect((error as TuplesError).details).toEqual({ field: '[3].relation_tuple.relation' });
    }
  });

  it.each([
    ['namespace', ''],
    ['namespace', 'with space'],
    ['namespace', 'a:b'],
    ['object', ''],
    ['object', 'a#b'],
    ['object', 'a:b'],
    ['object', 'a@b'],
    ['object', 'x'.repeat(65)],
    ['object', 'nul\u0000'],
    ['relation', ''],
    ['relation', 'line\nbreak'],
    ['relation', '🙂'.repeat(65)],
  ])('refuses %s %j', (field, value) => {
    expect(reasonOf(() => parseTuple({ ...valid, [field]: value }))).toBe(TuplesErrorCode.InvalidTuple);
  });

  it('counts characters, not UTF-16 units, against the 64-character limit', () => {
    expect(parseTuple({ ...valid, object: '🙂'.repeat(64) }).object).toHaveLength(128);
  });
});
