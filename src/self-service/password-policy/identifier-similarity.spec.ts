import { describe, expect, it } from 'vitest';
import { isTooSimilar, levenshtein, longestCommonSubstring } from './identifier-similarity.js';

const chars = (value: string): string[] => [...value];

describe('levenshtein', () => {
  it.each([
    ['', '', 0],
    ['abc', '', 3],
    ['', 'abc', 3],
    ['kitten', 'sitting', 3],
    ['flaw', 'lawn', 2],
    ['same', 'same', 0],
  ])('%s -> %s is %i', (a, b, distance) => {
    expect(levenshtein(chars(a), chars(b))).toBe(distance);
    expect(levenshtein(chars(b), chars(a))).toBe(distance);
  });
});

describe('longestCommonSubstring', () => {
  it.each([
    ['bob@example.com', 'xbob24', 3],
    ['abcdef', 'zzcdezz', 3],
    ['abc', 'xyz', 0],
    ['', 'abc', 0],
  ])('%s / %s is %i', (a, b, length) => {
    expect(longestCommonSubstring(chars(a), chars(b))).toBe(length);
  });
});

describe('isTooSimilar', () => {
  it('refuses the documented example bob24 for bob@example.com', () => {
    expect(isTooSimilar('bob24', 'bob@example.com')).toBe(true);
  });

  it('refuses a password within four edits of the identifier, whatever the case', () => {
    expect(isTooSimilar('Alice@Example.org!', 'alice@example.org')).toBe(true);
  });

  it('refuses a password more than half made of a run of the identifier', () => {
    expect(isTooSimilar('alicesmith-7Qz', 'alicesmith@example.org')).toBe(true);
  });

  it('accepts an unrelated passphrase', () => {
    expect(isTooSimilar('correct horse battery staple', 'alice@example.org')).toBe(false);
  });

  it('counts code points, not UTF-16 units', () => {
    expect(isTooSimilar('😀😀😀😀😀😀😀😀😀😀', 'a@b.c')).toBe(false);
  });
});
