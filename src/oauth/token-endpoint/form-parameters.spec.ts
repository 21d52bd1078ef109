import { describe, expect, it } from 'vitest';
import { TokenError } from '../tokens/token.errors.js';
import { formParameters, required, spaceList } from './form-parameters.js';

const FORM = 'application/x-www-form-urlencoded';

describe('formParameters', () => {
  it('types a form body, dropping empty parameters', () => {
    expect(formParameters({ grant_type: 'client_credentials', scope: '' }, `${FORM}; charset=utf-8`)).toEqual({
      grant_type: 'client_credentials',
    });
    expect(formParameters(undefined, FORM)).toEqual({});
  });

  it('refuses repeated parameters and other content types with invalid_request', () => {
    expect(() => formParameters({ grant_type: ['a', 'b'] }, FORM)).toThrow(TokenError);
    expect(() => formParameters({ grant_type: 'a' }, 'application/json')).toThrow(TokenError);
    expect(() => formParameters({ grant_type: 'a' }, undefined)).toThrow(TokenError);
  });

  it('required names the missing parameter', () => {
    try {
      required({}, 'code');
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'invalid_request', details: { parameter: 'code' } });
    }
  });

  it('spaceList splits on spaces, without empties or repeats', () => {
    expect(spaceList(' read  write read ')).toEqual(['read', 'write']);
    expect(spaceList('read')).toEqual(['read']);
    expect(spaceList('')).toEqual([]);
    expect(spaceList(undefined)).toEqual([]);
  });
});
