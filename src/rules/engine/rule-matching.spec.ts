import { describe, expect, it } from 'vitest';
import { aRule } from '../../../test/support/rule-builders.js';
import type { AccessRule, MatchingStrategy, RuleMatch } from '../access-rule.js';
import { RulesError, RulesErrorCode } from '../rules.errors.js';
import { RuleIndex } from './rule-index.js';
import { compileUrlPattern, UrlPatternError } from './url-pattern.js';

function indexOf(strategy: MatchingStrategy, ...rules: AccessRule[]): RuleIndex {
  const index = new RuleIndex(strategy);
  for (const rule of rules) index.put(rule);
  return index;
}

function matched(index: RuleIndex, method: string, url: string): RuleMatch {
  return index.match(method, new URL(url));
}

function failure(index: RuleIndex, method: string, url: string): RulesError {
  try {
    index.match(method, new URL(url));
  } catch (error) {
    if (error instanceof RulesError) return error;
    throw error;
  }
  throw new Error(`${method} ${url} matched a rule`);
}

describe('rule matching: regexp strategy (the default)', () => {
  it('a literal URL matches itself only, whatever the query or fragment', () => {
    const index = indexOf('regexp', aRule('r1', 'https://app.example/api/users'));
    expect(matched(index, 'GET', 'https://app.example/api/users').rule.id).toBe('r1');
    expect(matched(index, 'GET', 'https://app.example/api/users?admin=1#x').rule.id).toBe('r1');
    expect(failure(index, 'GET', 'https://app.example/api/users/1').reason).toBe(RulesErrorCode.NoMatch);
    expect(failure(index, 'GET', 'http://app.example/api/users').reason).toBe(RulesErrorCode.NoMatch);
    expect(failure(index, 'GET', 'https://app.example/api').reason).toBe(RulesErrorCode.NoMatch);
  });

  it('no match is a 404 in the access family; several matches are a 500 naming every matching rule', () => {
    const index = indexOf('regexp', aRule('b', 'https://app.example/<.*>'), aRule('a', 'https://app.example/api/<.*>'));
    const none = failure(index, 'GET', 'https://other.example/');
    expect([none.code, none.kind]).toEqual(['no_match', 'not_found']);
    const both = failure(index, 'GET', 'https://app.example/api/x');
    expect([both.code, both.kind]).toEqual(['ambiguous', 'internal']);
    expect(both.details).toEqual({ rules: ['a', 'b'] });
  });

  it('the method is compared case-insensitively and must be listed', () => {
    const index = indexOf(
      'regexp',
      aRule('r1', 'https://app.example/x', { match: { methods: ['get', 'Post'], url: 'https://app.example/x' } }),
    );
    expect(matched(index, 'GET', 'https://app.example/x').rule.id).toBe('r1');
    expect(matched(index, 'post', 'https://app.example/x').rule.id).toBe('r1');
    expect(failure(index, 'DELETE', 'https://app.example/x').reason).toBe(RulesErrorCode.NoMatch);
  });

  it('the same URL under different methods belongs to different rules', () => {
    const index = indexOf(
      'regexp',
      aRule('read', 'https://app.example/doc'),
      aRule('write', 'https://app.example/doc', { match: { methods: ['PUT'], url: 'https://app.example/doc' } }),
    );
    expect(matched(index, 'GET', 'https://app.example/doc').rule.id).toBe('read');
    expect(matched(index, 'PUT', 'https://app.example/doc').rule.id).toBe('write');
  });

  it('exposes every group, in order, as capture groups (the documented example)', () => {
    const index = indexOf('regexp', aRule('r1', '<https|http>://mydomain.com/<.*>'));
    expect(matched(index, 'GET', 'http://mydomain.com/foo').captures).toEqual(['http', 'foo']);
    const nested = indexOf('regexp', aRule('r2', 'https://app.example/users/<([0-9]+)(?:/(edit))?>'));
    expect(matched(nested, 'GET', 'https://app.example/users/42').captures).toEqual(['42', '42', '']);
    expect(matched(nested, 'GET', 'https://app.example/users/42/edit').captures).toEqual(['42/edit', '42', 'edit']);
  });

  it('accepts RE2 named groups (?P<name>...)', () => {
    const index = indexOf('regexp', aRule('r1', 'https://app.example/users/<(?P<id>[0-9]+)>'));
    expect(matched(index, 'GET', 'https://app.example/users/7').captures).toEqual(['7', '7']);
  });

  it('is anchored at both ends: no prefix, suffix or embedded match', () => {
    const index = indexOf('regexp', aRule('r1', 'https://app.example/items/<[0-9]+>'));
    expect(failure(index, 'GET', 'https://app.example/items/12x').reason).toBe(RulesErrorCode.NoMatch);
    expect(failure(index, 'GET', 'https://app.example/items/12/delete').reason).toBe(RulesErrorCode.NoMatch);
    expect(failure(index, 'GET', 'https://evil.example/https://app.example/items/12').reason).toBe(RulesErrorCode.NoMatch);
  });

  it('keeps an alternation inside its delimiters', () => {
    const index = indexOf('regexp', aRule('r1', 'https://app.example/<a|b>/end'));
    expect(matched(index, 'GET', 'https://app.example/b/end').rule.id).toBe('r1');
    expect(failure(index, 'GET', 'https://app.example/b').reason).toBe(RulesErrorCode.NoMatch);
    expect(failure(index, 'GET', 'https://app.example/a').reason).toBe(RulesErrorCode.NoMatch);
  });

  it('takes text outside the delimiters literally (dots, question marks, brackets)', () => {
    const index = indexOf('regexp', aRule('r1', 'https://app.example/v1.0/<.*>'));
    expect(matched(index, 'GET', 'https://app.example/v1.0/x').rule.id).toBe('r1');
    expect(failure(index, 'GET', 'https://app.example/v1x0/x').reason).toBe(RulesErrorCode.NoMatch);
    expect(failure(index, 'GET', 'https://appxexample/v1.0/x').reason).toBe(RulesErrorCode.NoMatch);
  });

  it('includes the port in the host, and a look-alike host (punycode) is another host', () => {
    const index = indexOf('regexp', aRule('r1', 'http://apple.example:8080/<.*>'));
    expect(matched(index, 'GET', 'http://apple.example:8080/a').rule.id).toBe('r1');
    expect(failure(index, 'GET', 'http://apple.example/a').reason).toBe(RulesErrorCode.NoMatch);
    expect(failure(index, 'GET', 'http://\u0430pple.example:8080/a').reason).toBe(RulesErrorCode.NoMatch);
  });

  it('refuses patterns that could escape the anchoring or have no linear-time form', () => {
    for (const bad of [
      'https://a.example/<a)|(b>',
      'https://a.example/<(?!admin).*>',
      'https://a.example/<(a)\\1>',
      'https://a.example/<x',
      'https://a.example/x>',
    ]) {
      expect(() => compileUrlPattern(bad, 'regexp'), bad).toThrow(UrlPatternError);
    }
  });

  it('a nested-quantifier pattern against a long hostile URL still answers (no backtracking blow-up)', () => {
    const index = indexOf('regexp', aRule('r1', 'https://app.example/<(a+)+b>'));
    expect(failure(index, 'GET', `https://app.example/${'a'.repeat(50_000)}c`).reason).toBe(RulesErrorCode.NoMatch);
    const overlapping = indexOf('regexp', aRule('r2', 'https://app.example/<.*a.*a.*a.*b>'));
    expect(failure(overlapping, 'GET', `https://app.example/${'a'.repeat(20_000)}`).reason).toBe(RulesErrorCode.NoMatch);
  });
});

describe('rule matching: glob strategy', () => {
  it('"*" inside the delimiters crosses "/" (no separators)', () => {
    const index = indexOf('glob', aRule('r1', 'https://app.example/<*>'));
    const result = matched(index, 'GET', 'https://app.example/a/b/c');
    expect(result.rule.id).toBe('r1');
    expect(result.captures).toEqual([]);
  });

  it('supports ?, character classes, negated classes and alternatives, anchored', () => {
    const index = indexOf(
      'glob',
      aRule('alt', 'https://app.example/<{users,groups}>/<[0-9]>'),
      aRule('neg', 'https://app.example/files/<[!.]*>'),
      aRule('one', 'https://app.example/v<?>'),
    );
    expect(matched(index, 'GET', 'https://app.example/groups/7').rule.id).toBe('alt');
    expect(failure(index, 'GET', 'https://app.example/groups/77').reason).toBe(RulesErrorCode.NoMatch);
    expect(matched(index, 'GET', 'https://app.example/files/readme').rule.id).toBe('neg');
    expect(failure(index, 'GET', 'https://app.example/files/.env').reason).toBe(RulesErrorCode.NoMatch);
    expect(matched(index, 'GET', 'https://app.example/v2').rule.id).toBe('one');
    expect(failure(index, 'GET', 'https://app.example/v22').reason).toBe(RulesErrorCode.NoMatch);
  });

  it('takes glob metacharacters outside the delimiters literally', () => {
    const index = indexOf('glob', aRule('r1', 'https://app.example/*/<*>'));
    expect(matched(index, 'GET', 'https://app.example/*/x').rule.id).toBe('r1');
    expect(failure(index, 'GET', 'https://app.example/a/x').reason).toBe(RulesErrorCode.NoMatch);
  });

  it('refuses malformed globs', () => {
    for (const bad of ['https://a.example/<[abc>', 'https://a.example/<{a,b>', 'https://a.example/<[]>']) {
      expect(() => compileUrlPattern(bad, 'glob'), bad).toThrow(UrlPatternError);
    }
  });
});

describe('rule index', () => {
  it('finds the one rule among thousands, wherever its pattern starts', () => {
    const rules: AccessRule[] = [];
    for (let i = 0; i < 5000; i += 1) rules.push(aRule(`tenant-${i}`, `https://t${i}.example/api/<[a-z]+>/<[0-9]+>`));
    rules.push(aRule('any-host-health', '<https?>://<[^/]+>/healthz'));
    const index = indexOf('regexp', ...rules);
    expect(matched(index, 'GET', 'https://t4321.example/api/orders/9')).toEqual({ rule: rules[4321], captures: ['orders', '9'] });
    expect(matched(index, 'GET', 'https://t17.example/healthz').rule.id).toBe('any-host-health');
    expect(failure(index, 'GET', 'https://t4321.example/api/orders/x').reason).toBe(RulesErrorCode.NoMatch);
  });

  it('files a rule starting with a choice of schemes under each scheme, and offers it once', () => {
    const rules: AccessRule[] = [];
    for (let i = 0; i < 2000; i += 1) rules.push(aRule(`choice-${i}`, `<https|http>://c${i}.example/<.*>`));
    const index = indexOf('regexp', ...rules, aRule('overlapping', '<http|https><://o\\.example/.*>'));
    expect(matched(index, 'GET', 'http://c1999.example/x')).toEqual({ rule: rules[1999], captures: ['http', 'x'] });
    expect(matched(index, 'GET', 'https://c7.example/')).toEqual({ rule: rules[7], captures: ['https', ''] });
    expect(matched(index, 'GET', 'https://o.example/a').rule.id).toBe('overlapping');
    expect(failure(index, 'GET', 'ftp://c7.example/').reason).toBe(RulesErrorCode.NoMatch);
    index.remove('choice-7');
    expect(failure(index, 'GET', 'https://c7.example/').reason).toBe(RulesErrorCode.NoMatch);
    const glob = indexOf('glob', aRule('g', '<{https,http}>://g.example/<*>'), aRule('pipe', '<https|http>://p.example/'));
    expect(matched(glob, 'GET', 'http://g.example/a/b').rule.id).toBe('g');
    expect(failure(glob, 'GET', 'http://p.example/').reason).toBe(RulesErrorCode.NoMatch);
  });

  it('replacing a rule refiles it under its new pattern; removing it takes it out', () => {
    const index = indexOf('regexp', aRule('r1', 'https://old.example/<.*>'));
    index.put(aRule('r1', 'https://new.example/<.*>'));
    expect(failure(index, 'GET', 'https://old.example/x').reason).toBe(RulesErrorCode.NoMatch);
    expect(matched(index, 'GET', 'https://new.example/x').rule.id).toBe('r1');
    index.remove('r1');
    expect(failure(index, 'GET', 'https://new.example/x').reason).toBe(RulesErrorCode.NoMatch);
    expect(index.size).toBe(0);
  });

  it('a rule whose pattern does not compile leaves the index as it was', () => {
    const index = indexOf('regexp', aRule('r1', 'https://app.example/<.*>'));
    expect(() => index.put(aRule('r1', 'https://app.example/<(>'))).toThrow(UrlPatternError);
    expect(matched(index, 'GET', 'https://app.example/x').rule.match.url).toBe('https://app.example/<.*>');
  });

  it('lists rules by id', () => {
    const index = indexOf('regexp', aRule('b', 'https://b.example/'), aRule('a', 'https://a.example/'), aRule('c', 'https://c.example/'));
    expect(index.all().map((rule) => rule.id)).toEqual(['a', 'b', 'c']);
  });
});
