import { describe, expect, it } from 'vitest';
import { ErrorFamily } from '../common/errors/error-family.js';
import { renderError } from '../common/errors/error-renderer.js';
import { toProblem } from '../common/errors/problem.js';
import { RulesError } from './rules.errors.js';

describe('rules errors in the access family', () => {
  it('no match: 404 no_match', () => {
    expect(renderError(ErrorFamily.Access, toProblem(RulesError.noMatch()), 'req-1', false)).toMatchObject({
      id: 'no_match',
      code: 404,
      request: 'req-1',
      details: [],
    });
  });

  it('several matches: 500 ambiguous, naming the rules but nothing internal', () => {
    const body = renderError(ErrorFamily.Access, toProblem(RulesError.ambiguous(['a', 'b'])), 'req-2', false);
    expect(body).toMatchObject({ id: 'ambiguous', code: 500, details: [{ rules: ['a', 'b'] }] });
    expect(body).not.toHaveProperty('debug');
  });

  it('an invalid rule: 400 invalid_rule listing every problem by path', () => {
    const error = RulesError.invalidRule([
      { path: 'match.url', message: 'x' },
      { path: 'id', message: 'y' },
    ]);
    expect(renderError(ErrorFamily.Access, toProblem(error), 'req-3', false)).toMatchObject({
      id: 'invalid_rule',
      code: 400,
      details: [{ problems: [{ path: 'match.url' }, { path: 'id' }] }],
    });
  });
});
