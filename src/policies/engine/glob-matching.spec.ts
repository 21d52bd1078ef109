import { describe, expect, it } from 'vitest';
import { aPolicy, aRequest, anIndex } from '../../../test/support/acp-builders.js';
import { compileGlobPattern } from './glob-pattern.js';

const matches = (pattern: string, value: string): boolean => compileGlobPattern(pattern).test(value);

describe('glob flavor: matching with ":" as the separator', () => {
  it('* matches within one segment only (the reference examples)', () => {
    expect(matches('foo:*:bar', 'foo:baz:bar')).toBe(true);
    expect(matches('foo:*:bar', 'foo:bar')).toBe(false);
    expect(matches('foo:*:bar', 'foo:baz:baz:bar')).toBe(false);
    expect(matches('articles:*', 'articles:')).toBe(true);
  });

  it('** matches across segments, and a whole ** segment may match none (the reference examples)', () => {
    expect(matches('foo:**:bar', 'foo:baz:baz:bar')).toBe(true);
    expect(matches('foo:**:bar', 'foo:baz:bar')).toBe(true);
    expect(matches('foo:**:bar', 'foo:bar')).toBe(true);
    expect(matches('foo:**:bar', 'foobar')).toBe(false);
    expect(matches('foo:**:bar', 'foo:baz')).toBe(false);
    expect(matches('foo:**', 'foo:a:b:c')).toBe(true);
    expect(matches('a**z', 'a:b:z')).toBe(true);
  });

  it('? is one character other than the separator', () => {
    expect(matches('?at', 'cat')).toBe(true);
    expect(matches('?at', 'at')).toBe(false);
    expect(matches('a?b', 'a:b')).toBe(false);
  });

  it('character lists and ranges, negated with !', () => {
    expect(matches('[abc]at', 'bat')).toBe(true);
    expect(matches('[abc]at', 'fat')).toBe(false);
    expect(matches('[!abc]at', 'fat')).toBe(true);
    expect(matches('[!abc]at', 'cat')).toBe(false);
    expect(matches('[a-c]at', 'cat')).toBe(true);
    expect(matches('[!a-c]at', 'cat')).toBe(false);
    expect(matches('[\\d]', 'd')).toBe(true);
    expect(matches('[\\d]', '1')).toBe(false);
  });

  it('alternatives {a,b} hold globs of their own', () => {
    expect(matches('{cat,bat,[fr]at}', 'rat')).toBe(true);
    expect(matches('{cat,bat,[fr]at}', 'mat')).toBe(false);
    expect(matches('users:{alice,bob:*}', 'users:bob:x')).toBe(true);
    expect(matches('users:{alice,bob:*}', 'users:bob')).toBe(false);
  });

  it('a backslash escapes; regex syntax means nothing; matching is case-sensitive', () => {
    expect(matches('a\\*b', 'a*b')).toBe(true);
    expect(matches('a\\*b', 'axb')).toBe(false);
    expect(matches('a.c', 'abc')).toBe(false);
    expect(matches('<.*>', '<.*>')).toBe(true);
    expect(matches('Users:*', 'users:x')).toBe(false);
  });

  it('a pattern without wildcards is compared for equality; the text before the first wildcard is the index key', () => {
    expect(compileGlobPattern('users:alice')).toMatchObject({ literal: true, prefix: 'users:alice' });
    expect(compileGlobPattern('users\\:a\\*')).toMatchObject({ literal: true, prefix: 'users:a*' });
    expect(compileGlobPattern('resources:articles:*')).toMatchObject({ literal: false, prefix: 'resources:articles:' });
  });

  it('refuses malformed globs', () => {
    for (const bad of ['a[bc', 'a{b,c', 'a\\', 'a[]', '[z-a]']) expect(() => compileGlobPattern(bad), bad).toThrow();
  });

  it('decides with glob policies', () => {
    const index = anIndex('glob', [aPolicy({ subjects: ['users:*'], resources: ['articles:**'], actions: ['{read,list}'] })]);
    expect(index.isAllowed(aRequest('users:alice', 'articles:2024:42', 'read'))).toBe(true);
    expect(index.isAllowed(aRequest('users:alice:x', 'articles:2024:42', 'read'))).toBe(false);
    expect(index.isAllowed(aRequest('users:alice', 'articles:2024:42', 'write'))).toBe(false);
  });
});
