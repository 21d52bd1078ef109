import { describe, expect, it } from 'vitest';
import { aPolicy, aRequest, anIndex } from '../../../test/support/acp-builders.js';
import { compileCondition } from './condition-compiler.js';
import { compileGlobPattern } from './glob-pattern.js';
import { linearRegExpAvailable } from '../../common/regex/linear-regexp.js';
import { compileRegexPattern } from './regex-pattern.js';

/** Milliseconds a call takes. */
function timed(run: () => unknown): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

describe('ReDoS guard', () => {
  it('this runtime has the linear-time engine the guard relies on', () => {
    expect(linearRegExpAvailable()).toBe(true);
  });

  it('refuses expressions that have no linear-time form: backreferences, lookaround, large counted repetitions', () => {
    for (const bad of ['<(a)\\1>', '<(?=a)a>', '<(?!a).>', '<a{17}>', '<[0-9]{1,100}>']) {
      expect(() => compileRegexPattern(bad), bad).toThrow(/linear time/);
    }
    for (const bad of ['(?=x)', '(?<=a)b', '(a)\\1']) {
      expect(() => compileCondition('k', { type: 'StringMatchCondition', options: { matches: bad } }), bad).toThrow(/linear time/);
    }
  });

  it('accepts the usual shapes, counted repetitions up to 16 included', () => {
    for (const good of ['<.*>', 'users:<[^:]+>', '<[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}>', '<a|b|c>:<.*>:<.*>']) {
      expect(() => compileRegexPattern(good), good).not.toThrow();
    }
  });

  it('an exponential pattern (nested quantifiers) against a hostile value answers in milliseconds', () => {
    const pattern = compileRegexPattern('<(a+)+b>');
    expect(timed(() => expect(pattern.test(`${'a'.repeat(40)}c`)).toBe(false))).toBeLessThan(500);
  });

  it('a polynomial pattern (three overlapping .*) against a 1000-character hostile value answers in milliseconds', () => {
    const pattern = compileRegexPattern('<.*>:<.*>:<.*>:end');
    expect(timed(() => expect(pattern.test(`${':'.repeat(1000)}y`)).toBe(false))).toBeLessThan(500);
    const index = anIndex('regex', [aPolicy({ subjects: ['<.*>'], resources: ['<.*>:<.*>:<.*>:end'], actions: ['<.*>'] })]);
    expect(timed(() => expect(index.isAllowed(aRequest('u', `${':'.repeat(1000)}y`, 'a'))).toBe(false))).toBeLessThan(500);
  });

  it('glob ** runs are protected the same way', () => {
    const pattern = compileGlobPattern('**a**a**a**a**b');
    expect(timed(() => expect(pattern.test('a'.repeat(1000))).toBe(false))).toBeLessThan(500);
  });

  it('a StringMatchCondition with nested quantifiers against a hostile context value answers in milliseconds', () => {
    const index = anIndex('exact', [
      aPolicy({
        subjects: ['u'],
        resources: ['r'],
        actions: ['a'],
        conditions: { k: { type: 'StringMatchCondition', options: { matches: '^(\\w+\\s?)*$' } } },
      }),
    ]);
    expect(timed(() => expect(index.isAllowed(aRequest('u', 'r', 'a', { k: `${'word '.repeat(2000)}!` }))).toBe(false))).toBeLessThan(500);
  });
});
