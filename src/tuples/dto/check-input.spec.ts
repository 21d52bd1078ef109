import { describe, expect, it } from 'vitest';
import { AppError } from '../../common/errors/app-error.js';
import { readCheckBody, readCheckQuery, readMaxDepthQuery } from './check-input.js';

const tuple = { namespace: 'files', object: 'doc', relation: 'viewer', subject: 'alice' };

function fieldOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('invalid_request');
    return Object.keys(((error as AppError).details as { fields?: object } | undefined)?.fields ?? {})[0] ?? '(none)';
  }
}

describe('check input', () => {
  it('reads the tuple and max-depth from a query string', () => {
    expect(readCheckQuery({ ...tuple })).toEqual({ tuple, maxDepth: undefined });
    expect(readCheckQuery({ ...tuple, 'max-depth': '3' })).toEqual({ tuple, maxDepth: 3 });
    expect(readCheckQuery({ ...tuple, 'max-depth': '-1' }).maxDepth).toBe(-1);
    expect(readCheckQuery({ ...tuple, 'max-depth': '' }).maxDepth).toBeUndefined();
  });

  it('names the field that is missing, repeated, not a string or unknown', () => {
    expect(fieldOf(() => readCheckQuery({ namespace: 'files', object: 'doc', relation: 'viewer' }))).toBe('subject');
    expect(fieldOf(() => readCheckQuery({ ...tuple, object: ['a', 'b'] }))).toBe('object');
    expect(fieldOf(() => readCheckQuery({ ...tuple, page_size: '1' }))).toBe('page_size');
    expect(fieldOf(() => readCheckBody({ ...tuple, relation: 7 }))).toBe('relation');
    expect(fieldOf(() => readCheckBody({ ...tuple, extra: true }))).toBe('extra');
  });

  it('refuses a max-depth that is not a whole number', () => {
    for (const raw of ['deep', '1.5', '1e3', ' 2', ['1', '2']]) {
      expect(fieldOf(() => readCheckQuery({ ...tuple, 'max-depth': raw }))).toBe('max-depth');
    }
    expect(fieldOf(() => readMaxDepthQuery({ 'max-depth': 'x' }))).toBe('max-depth');
    expect(readMaxDepthQuery({ 'max-depth': '2' })).toBe(2);
    expect(fieldOf(() => readMaxDepthQuery({ subject: 'alice' }))).toBe('subject');
  });

  it('refuses a body that is not an object', () => {
    for (const body of [undefined, null, 'files:doc#viewer@alice', [tuple]]) expect(fieldOf(() => readCheckBody(body))).toBe('(none)');
  });
});
