import { describe, expect, it } from 'vitest';
import { AuthorizeParameters } from './authorize-parameters.js';

describe('AuthorizeParameters', () => {
  it('reads the query, treating empty values as absent', () => {
    const params = AuthorizeParameters.from({ rawQuery: 'client_id=a&state=&scope=openid+profile%20email', form: undefined });
    expect(params.get('client_id')).toBe('a');
    expect(params.get('state')).toBeUndefined();
    expect(params.get('missing')).toBeUndefined();
    expect(params.list('scope')).toEqual(['openid', 'profile', 'email']);
  });

  it('splits space-separated lists, dropping empty entries', () => {
    expect(AuthorizeParameters.from({ rawQuery: 'prompt=%20login%20%20consent%20', form: undefined }).list('prompt')).toEqual([
      'login',
      'consent',
    ]);
    expect(AuthorizeParameters.from({ rawQuery: '', form: undefined }).list('prompt')).toEqual([]);
  });

  it('merges a POSTed form with the query', () => {
    const params = AuthorizeParameters.from({ rawQuery: 'client_id=a', form: { state: 'abcdefgh', response_type: 'code' } });
    expect(params.get('state')).toBe('abcdefgh');
    expect(params.get('client_id')).toBe('a');
    expect(params.repeated()).toEqual([]);
  });

  it('finds parameters given more than once, in the query, in the form, or in both', () => {
    expect(AuthorizeParameters.from({ rawQuery: 'a=1&a=2&b=1', form: undefined }).repeated()).toEqual(['a']);
    expect(AuthorizeParameters.from({ rawQuery: '', form: { a: ['1', '2'] } }).repeated()).toEqual(['a']);
    expect(AuthorizeParameters.from({ rawQuery: 'a=1', form: { a: '2' } }).repeated()).toEqual(['a']);
  });

  it('keeps the raw query for the login/consent apps to return to, without the verifiers', () => {
    const params = AuthorizeParameters.from({
      rawQuery: 'client_id=a&redirect_uri=https%3A%2F%2Fc.example%2Fcb&login_verifier=v1&state=s%20s&consent_verifier=v2',
      form: undefined,
    });
    expect(params.requestQuery).toBe('client_id=a&redirect_uri=https%3A%2F%2Fc.example%2Fcb&state=s%20s');
    expect(params.get('login_verifier')).toBe('v1');
    expect(params.get('consent_verifier')).toBe('v2');
  });

  it('drops a verifier whose name is percent-encoded too', () => {
    expect(AuthorizeParameters.from({ rawQuery: 'a=1&login%5Fverifier=v', form: undefined }).requestQuery).toBe('a=1');
  });

  it('folds POSTed parameters into the query the apps return to', () => {
    const params = AuthorizeParameters.from({ rawQuery: 'x=1', form: { client_id: 'a b', scope: 'openid', consent_verifier: 'v' } });
    expect(params.requestQuery).toBe('x=1&client_id=a+b&scope=openid');
    const postedOnly = AuthorizeParameters.from({ rawQuery: '', form: { client_id: 'a' } });
    expect(postedOnly.requestQuery).toBe('client_id=a');
  });
});
