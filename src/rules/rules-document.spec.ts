import { describe, expect, it } from 'vitest';
import { aRuleDocument } from '../../test/support/rule-builders.js';
import type { AccessRule, RuleProblem } from './access-rule.js';
import { readRule } from './rule-shape.js';
import { validateRulesDocument } from './rules-document.js';

function problemsOf(input: unknown, validators: Array<(rule: AccessRule) => RuleProblem[]> = []): readonly RuleProblem[] {
  const reading = readRule(input, 'regexp', validators);
  return reading.problems ?? [];
}

function paths(input: unknown): string[] {
  return problemsOf(input).map((problem) => problem.path);
}

describe('rule shape', () => {
  it("fills in Oathkeeper's defaults", () => {
    const reading = readRule(aRuleDocument('r1', 'https://app.example/<.*>'), 'regexp', []);
    expect(reading.rule).toEqual({
      id: 'r1',
      description: '',
      match: { methods: ['GET'], url: 'https://app.example/<.*>' },
      authenticators: [{ handler: 'noop' }],
      authorizer: { handler: 'allow' },
      mutators: [{ handler: 'noop' }],
      errors: [],
      upstream: { url: '', preserve_host: false },
    });
  });

  it("accepts Oathkeeper's own output (every member present, null configs, empty strings)", () => {
    const reading = readRule(
      aRuleDocument('r1', 'https://app.example/', {
        version: 'v0.37.0',
        description: 'd',
        authenticators: [{ handler: 'noop', config: null }],
        errors: [{ handler: 'json', config: { verbose: true } }],
        upstream: { preserve_host: true, strip_path: '/api', url: 'http://backend.internal:8080/base' },
      }),
      'regexp',
      [],
    );
    expect(reading.problems).toBeUndefined();
    expect(reading.rule?.upstream).toEqual({ url: 'http://backend.internal:8080/base', strip_path: '/api', preserve_host: true });
    expect(reading.rule?.errors).toEqual([{ handler: 'json', config: { verbose: true } }]);
  });

  it('refuses unknown members at every level but inside handler configs', () => {
    expect(paths({ ...aRuleDocument('r1', 'https://a.example/'), priority: 1 })).toEqual(['priority']);
    expect(
      paths(aRuleDocument('r1', 'https://a.example/', { match: { methods: ['GET'], url: 'https://a.example/', headers: {} } })),
    ).toEqual(['match.headers']);
    expect(paths(aRuleDocument('r1', 'https://a.example/', { authorizer: { handler: 'allow', name: 'x' } }))).toEqual(['authorizer.name']);
    expect(paths(aRuleDocument('r1', 'https://a.example/', { upstream: { url: '', timeout: 1 } }))).toEqual(['upstream.timeout']);
    expect(
      paths(aRuleDocument('r1', 'https://a.example/', { authorizer: { handler: 'allow', config: { anything: { goes: 1 } } } })),
    ).toEqual([]);
  });

  it('requires match, at least one authenticator, an authorizer and at least one mutator', () => {
    const { match: _match, ...withoutMatch } = aRuleDocument('r1', 'https://a.example/');
    expect(paths(withoutMatch)).toEqual(['match']);
    expect(paths(aRuleDocument('r1', 'https://a.example/', { authenticators: [] }))).toEqual(['authenticators']);
    expect(paths(aRuleDocument('r1', 'https://a.example/', { mutators: [] }))).toEqual(['mutators']);
    expect(paths(aRuleDocument('r1', 'https://a.example/', { authorizer: { handler: '' } }))).toEqual(['authorizer.handler']);
  });

  it('ids: 1 to 190 characters, no control or invisible characters', () => {
    expect(paths(aRuleDocument('x'.repeat(190), 'https://a.example/'))).toEqual([]);
    expect(paths(aRuleDocument('x'.repeat(191), 'https://a.example/'))).toEqual(['id']);
    expect(paths(aRuleDocument('', 'https://a.example/'))).toEqual(['id']);
    expect(paths(aRuleDocument('a\u200bb', 'https://a.example/'))).toEqual(['id']);
    expect(paths(aRuleDocument('a\nb', 'https://a.example/'))).toEqual(['id']);
    expect(paths(aRuleDocument(' a', 'https://a.example/'))).toEqual(['id']);
  });

  it('ids: NFC, and no look-alike characters', () => {
    expect(paths(aRuleDocument('zo\u00eb-r\u00e8gle', 'https://a.example/'))).toEqual([]);
    for (const id of ['zoe\u0308', '\u212Aate', '\uff41dmin', '\ufb01les', '\u0130nci', 'rule\u00b2', 'a\u202eb', 'a\u2066b'])
      expect(paths(aRuleDocument(id, 'https://a.example/')), id).toEqual(['id']);
  });

  it('methods: known HTTP methods, any case, each once', () => {
    const withMethods = (methods: unknown): unknown =>
      aRuleDocument('r1', 'https://a.example/', { match: { methods, url: 'https://a.example/' } });
    expect(paths(withMethods(['get', 'CONNECT', 'Trace']))).toEqual([]);
    expect(paths(withMethods(['FETCH']))).toEqual(['match.methods.0']);
    expect(paths(withMethods(['GET', 'get']))).toEqual(['match.methods.1']);
    expect(paths(withMethods([]))).toEqual(['match.methods']);
  });

  it('match.url: compiles, names a scheme and host, carries no query', () => {
    const withUrl = (url: string): unknown => aRuleDocument('r1', url);
    expect(paths(withUrl('<https|http>://<[^/]+>/x'))).toEqual([]);
    expect(paths(withUrl(''))).toEqual(['match.url']);
    expect(paths(withUrl('/just/a/path'))).toEqual(['match.url']);
    expect(paths(withUrl('https://a.example/x?y=1'))).toEqual(['match.url']);
    expect(paths(withUrl('https://a.example/<(?<=a)b>'))).toEqual(['match.url']);
    expect(paths(withUrl('https://a.example/<[>'))).toEqual(['match.url']);
  });

  it('upstream.url: empty (decision API only) or an absolute http(s) URL without credentials or query', () => {
    const withUpstream = (url: string): unknown => aRuleDocument('r1', 'https://a.example/', { upstream: { url } });
    expect(paths(withUpstream(''))).toEqual([]);
    expect(paths(withUpstream('https://backend.internal/base'))).toEqual([]);
    for (const bad of [
      'backend',
      '/relative',
      'ftp://backend/',
      'http://user:pass@backend/',
      'http://backend/?q=1',
      'javascript:alert(1)',
    ]) {
      expect(paths(withUpstream(bad)), bad).toEqual(['upstream.url']);
    }
  });

  it('applies every registered validator to a rule whose shape is valid', () => {
    const unknownHandler = (rule: AccessRule): RuleProblem[] =>
      rule.authorizer.handler === 'allow' ? [] : [{ path: 'authorizer.handler', message: 'unknown authorizer' }];
    expect(problemsOf(aRuleDocument('r1', 'https://a.example/'), [unknownHandler])).toEqual([]);
    expect(problemsOf(aRuleDocument('r1', 'https://a.example/', { authorizer: { handler: 'magic' } }), [unknownHandler])).toEqual([
      { path: 'authorizer.handler', message: 'unknown authorizer' },
    ]);
  });
});

describe('validateRulesDocument', () => {
  it('reads a JSON array and a YAML array to the same rules', () => {
    const json = validateRulesDocument(JSON.stringify([aRuleDocument('r1', 'https://a.example/<.*>')]), 'json');
    const yaml = validateRulesDocument(
      [
        '- id: r1',
        '  match:',
        '    methods: [GET]',
        '    url: https://a.example/<.*>',
        '  authenticators: [{ handler: noop }]',
        '  authorizer: { handler: allow }',
        '  mutators: [{ handler: noop }]',
      ].join('\n'),
      'yaml',
    );
    expect(json.problems).toEqual([]);
    expect(yaml).toEqual(json);
  });

  it('an empty YAML document holds no rules', () => {
    expect(validateRulesDocument('', 'yaml')).toEqual({ rules: [], problems: [], deferred: [] });
  });

  it('loads whole or not at all, with each problem prefixed by the rule index', () => {
    const reading = validateRulesDocument(
      JSON.stringify([aRuleDocument('ok', 'https://a.example/'), aRuleDocument('bad', 'nope')]),
      'json',
    );
    expect(reading.rules).toEqual([]);
    expect(reading.problems.map((problem) => problem.path)).toEqual(['1.match.url']);
  });

  it('refuses the same id twice in one document', () => {
    const reading = validateRulesDocument(
      JSON.stringify([aRuleDocument('r1', 'https://a.example/'), aRuleDocument('r1', 'https://b.example/')]),
      'json',
    );
    expect(reading.problems.map((problem) => problem.path)).toEqual(['1.id']);
  });

  it('refuses what is not an array of rules, and malformed text', () => {
    expect(validateRulesDocument('{"id":"r1"}', 'json').problems.map((problem) => problem.path)).toEqual(['']);
    expect(validateRulesDocument('[{', 'json').problems.map((problem) => problem.path)).toEqual(['']);
    expect(validateRulesDocument('- id: [', 'yaml').problems.map((problem) => problem.path)).toEqual(['']);
    expect(validateRulesDocument('- id: a\n  id: b', 'yaml').problems.map((problem) => problem.path)).toEqual(['']);
  });

  it('refuses a YAML alias bomb instead of expanding it', () => {
    const lines = ['- &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let level = 1; level < 9; level += 1) {
      const previous = String.fromCharCode(96 + level);
      const current = String.fromCharCode(97 + level);
      lines.push(`- &${current} [${Array.from({ length: 10 }, () => `*${previous}`).join(',')}]`);
    }
    const reading = validateRulesDocument(lines.join('\n'), 'yaml');
    expect(reading.rules).toEqual([]);
    expect(reading.problems.map((problem) => problem.path)).toEqual(['']);
  });
});
