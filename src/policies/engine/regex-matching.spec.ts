import { describe, expect, it } from 'vitest';
import { aPolicy, aRequest, anIndex } from '../../../test/support/acp-builders.js';
import { compileRegexPattern } from './regex-pattern.js';
import { PolicyCompileError } from './policy-compile.error.js';
import { PolicyIndex } from './policy-index.js';

const matches = (pattern: string, value: string): boolean => compileRegexPattern(pattern).test(value);

describe('regex flavor: matching', () => {
  it('a pattern without delimiters is plain text, compared for equality', () => {
    expect(matches('users:.*', 'users:.*')).toBe(true);
    expect(matches('users:.*', 'users:alice')).toBe(false);
    expect(compileRegexPattern('users:alice')).toMatchObject({ literal: true, prefix: 'users:alice' });
  });

  it('an expression between < and > matches, the rest is literal (dots included)', () => {
    expect(matches('resources:articles.<[0-9]+>', 'resources:articles.42')).toBe(true);
    expect(matches('resources:articles.<[0-9]+>', 'resources:articlesX42')).toBe(false);
    expect(matches('resources:articles.<[0-9]+>', 'resources:articles.4a')).toBe(false);
  });

  it('is anchored at both ends: the whole value must match', () => {
    expect(matches('users:<peter|ken>', 'users:peter')).toBe(true);
    expect(matches('users:<peter|ken>', 'users:ken')).toBe(true);
    expect(matches('users:<peter|ken>', 'users:peterx')).toBe(false);
    expect(matches('users:<peter|ken>', 'xusers:peter')).toBe(false);
    expect(matches('<.*>:<.*>', 'a:b')).toBe(true);
    expect(matches('<[a-z]+>', 'abc1')).toBe(false);
  });

  it('an alternation stays inside its delimiters', () => {
    expect(matches('a<b|c>d', 'ab')).toBe(false);
    expect(matches('a<b|c>d', 'cd')).toBe(false);
    expect(matches('a<b|c>d', 'acd')).toBe(true);
  });

  it('is case-sensitive', () => {
    expect(matches('users:<[a-z]+>', 'users:Alice')).toBe(false);
    expect(matches('Users:<.*>', 'users:alice')).toBe(false);
  });

  it('several expressions and nested delimiters ((?P<name>...) is accepted as in RE2)', () => {
    expect(matches('<[a-z]+>:<[0-9]+>:end', 'abc:12:end')).toBe(true);
    expect(matches('<(?P<kind>user|group)>:<.+>', 'group:admins')).toBe(true);
    expect(matches('<(?<kind>user|group)>:<.+>', 'user:x')).toBe(true);
  });

  it('the literal prefix before the first < is the index key', () => {
    expect(compileRegexPattern('resources:articles:<.*>')).toMatchObject({ prefix: 'resources:articles:', literal: false });
    expect(compileRegexPattern('<.*>')).toMatchObject({ prefix: '', literal: false });
  });

  it('patterns that share an expression after different prefixes stay independent', () => {
    const a = compileRegexPattern('tenants:a:<[0-9]+>');
    const b = compileRegexPattern('tenants:bb:<[0-9]+>');
    expect(a.test('tenants:a:1')).toBe(true);
    expect(b.test('tenants:a:1')).toBe(false);
    expect(b.test('tenants:bb:12')).toBe(true);
    expect(a.test('tenants:bb:12')).toBe(false);
    expect(a.test('tenants:a:1x')).toBe(false);
    expect(a.test('tenants:a:')).toBe(false);
  });

  it('assertions inside an expression still see the literal text before it', () => {
    expect(compileRegexPattern('x<\\b.*>').test('xa')).toBe(false);
    expect(compileRegexPattern('x<\\b.*>').test('x-a')).toBe(true);
    expect(compileRegexPattern('x<^.*>').test('xa')).toBe(false);
  });

  it('refuses unbalanced delimiters, invalid expressions and groups that would escape their delimiters', () => {
    for (const bad of ['users:<.*', 'users:.*>', '<[a-z>', '<a)|(b>', '<(>x<)>', '<*>']) {
      expect(() => compileRegexPattern(bad), bad).toThrow();
    }
  });

  it('names the offending field and pattern when a policy does not compile', () => {
    const index = new PolicyIndex('regex');
    let error: unknown;
    try {
      index.putPolicy(aPolicy({ subjects: ['users:alice'], resources: ['ok', 'bad:<[a-z>'], actions: ['read'] }));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PolicyCompileError);
    expect((error as PolicyCompileError).field).toBe('resources[1]');
    expect((error as PolicyCompileError).message).toContain('bad:<[a-z>');
  });

  it('decides with regex policies: subject, resource and action must all match', () => {
    const index = anIndex('regex', [
      aPolicy({ subjects: ['users:<peter|ken>'], resources: ['resources:articles:<.*>'], actions: ['<create|delete>'] }),
    ]);
    expect(index.isAllowed(aRequest('users:peter', 'resources:articles:ladon-introduction', 'delete'))).toBe(true);
    expect(index.isAllowed(aRequest('users:maria', 'resources:articles:ladon-introduction', 'delete'))).toBe(false);
    expect(index.isAllowed(aRequest('users:peter', 'resources:printers:1', 'delete'))).toBe(false);
    expect(index.isAllowed(aRequest('users:peter', 'resources:articles:1', 'read'))).toBe(false);
  });
});
