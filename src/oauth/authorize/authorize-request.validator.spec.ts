import { describe, expect, it } from 'vitest';
import type { Client } from '../../clients/index.js';
import { clientFixture } from '../../../test/support/client-fixture.js';
import { AuthorizeError } from './authorize.errors.js';
import { AuthorizeParameters } from './authorize-parameters.js';
import type { ValidAuthorizeRequest } from './authorize-request.js';
import { errorDestination, validateAuthorizeRequest, type AuthorizeValidationSettings } from './authorize-request.validator.js';

const REDIRECT = 'https://client.example/cb';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const BASE = { client_id: 'client-1', response_type: 'code', state: 'state-123456', scope: 'openid' };

function paramsOf(query: Record<string, string | undefined>): AuthorizeParameters {
  const entries = Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return AuthorizeParameters.from({ rawQuery: new URLSearchParams(entries).toString(), form: undefined });
}

function validate(
  query: Record<string, string | undefined>,
  client: Client = clientFixture(),
  settings: AuthorizeValidationSettings = { scopeRules: { scopeStrategy: 'wildcard', privilegedScopes: [] } },
): ValidAuthorizeRequest {
  return validateAuthorizeRequest(paramsOf({ ...BASE, ...query }), client, REDIRECT, settings);
}

function errorOf(query: Record<string, string | undefined>, client?: Client, settings?: AuthorizeValidationSettings): string {
  try {
    validate(query, client, settings);
  } catch (error) {
    expect(error).toBeInstanceOf(AuthorizeError);
    return (error as AuthorizeError).code;
  }
  throw new Error('expected the request to be refused');
}

describe('validateAuthorizeRequest', () => {
  it('accepts a plain code request and reads everything the later steps need', () => {
    const request = validate({
      scope: 'openid photos.read',
      audience: 'https://api.example/v1/users',
      prompt: 'login consent',
      max_age: '300',
      acr_values: 'urn:mfa urn:pwd',
      ui_locales: 'de en',
      display: 'popup',
      login_hint: 'alice@example.com',
      id_token_hint: 'a.b.c',
      extra: 'foobar',
    });
    expect(request.redirectUri).toBe(REDIRECT);
    expect([...request.responseTypes]).toEqual(['code']);
    expect(request.responseMode).toBe('query');
    expect(request.state).toBe('state-123456');
    expect(request.scope).toEqual(['openid', 'photos.read']);
    expect(request.audience).toEqual(['https://api.example/v1/users']);
    expect([...request.prompt]).toEqual(['login', 'consent']);
    expect(request.maxAgeSeconds).toBe(300);
    expect(request.nonce).toBeUndefined();
    expect(request.codeChallenge).toBeUndefined();
    expect(request.idTokenHint).toBe('a.b.c');
    expect(request.oidcContext).toEqual({
      acr_values: ['urn:mfa', 'urn:pwd'],
      ui_locales: ['de', 'en'],
      display: 'popup',
      login_hint: 'alice@example.com',
    });
  });

  it('leaves empty members out of oidc_context and de-duplicates scopes', () => {
    const request = validate({ scope: 'openid openid' });
    expect(request.oidcContext).toEqual({});
    expect(request.scope).toEqual(['openid']);
  });

  describe('response_type', () => {
    it.each([
      ['code', 'query'],
      ['token', 'fragment'],
      ['id_token', 'fragment'],
      ['id_token token', 'fragment'],
      ['code id_token', 'fragment'],
      ['code token', 'fragment'],
      ['code id_token token', 'fragment'],
      ['token id_token code', 'fragment'],
    ])('accepts %s, defaulting to response_mode %s', (responseType, mode) => {
      const request = validate({ response_type: responseType, nonce: 'nonce-123456', code_challenge: undefined });
      expect([...request.responseTypes].sort()).toEqual(responseType.split(' ').sort());
      expect(request.responseMode).toBe(mode);
    });

    it.each([
      ['missing', undefined],
      ['unknown', 'device_code'],
      ['with an unknown word', 'code foo'],
      ['with a repeated word', 'code code'],
      ['"none"', 'none'],
    ])('refuses one that is %s with unsupported_response_type', (_name, responseType) => {
      expect(errorOf({ response_type: responseType })).toBe('unsupported_response_type');
    });

    it('refuses a response type the client did not register', () => {
      const client = clientFixture({ responseTypes: ['code'] });
      expect(errorOf({ response_type: 'token' }, client)).toBe('unsupported_response_type');
      expect(errorOf({ response_type: 'code id_token', nonce: 'nonce-123456' }, client)).toBe('unsupported_response_type');
    });

    it('matches registered combinations in any order', () => {
      const client = clientFixture({ responseTypes: ['id_token code'] });
      expect(validate({ response_type: 'code id_token', nonce: 'nonce-123456' }, client).responseTypes.size).toBe(2);
    });

    it('needs the openid scope for an ID token', () => {
      expect(errorOf({ response_type: 'id_token', scope: 'profile', nonce: 'nonce-123456' })).toBe('invalid_request');
    });
  });

  describe('response_mode', () => {
    it('takes form_post, fragment and query where allowed', () => {
      expect(validate({ response_mode: 'form_post' }).responseMode).toBe('form_post');
      expect(validate({ response_mode: 'fragment' }).responseMode).toBe('fragment');
      expect(validate({ response_type: 'token', response_mode: 'form_post' }).responseMode).toBe('form_post');
    });

    it('refuses an unknown mode', () => {
      expect(errorOf({ response_mode: 'web_message' })).toBe('invalid_request');
    });

    it.each(['token', 'id_token', 'code id_token', 'code token'])('never puts tokens in the query (%s)', (responseType) => {
      expect(errorOf({ response_type: responseType, response_mode: 'query', nonce: 'nonce-123456' })).toBe('invalid_request');
    });
  });

  it('refuses registration with registration_not_supported', () => {
    expect(errorOf({ registration: '{}' })).toBe('registration_not_supported');
  });

  it('refuses a parameter given twice', () => {
    const params = AuthorizeParameters.from({ rawQuery: new URLSearchParams(BASE).toString() + '&scope=profile', form: undefined });
    expect(() =>
      validateAuthorizeRequest(params, clientFixture(), REDIRECT, { scopeRules: { scopeStrategy: 'wildcard', privilegedScopes: [] } }),
    ).toThrow(AuthorizeError);
  });

  describe('state (S05)', () => {
    it.each([
      ['missing', undefined],
      ['7 characters', '1234567'],
    ])('S05: refuses a state that is %s with invalid_state', (_name, state) => {
      expect(errorOf({ state })).toBe('invalid_state');
    });

    it('accepts 8 characters', () => {
      expect(validate({ state: '12345678' }).state).toBe('12345678');
    });
  });

  describe('scope', () => {
    it('allows wildcard matches under the wildcard strategy', () => {
      expect(validate({ scope: 'photos.read photos.read.all' }).scope).toEqual(['photos.read', 'photos.read.all']);
    });

    it('refuses a scope the client may not request', () => {
      expect(errorOf({ scope: 'openid admin' })).toBe('invalid_scope');
      expect(errorOf({ scope: 'photos' })).toBe('invalid_scope');
    });

    it('takes the wildcard literally under the exact strategy', () => {
      expect(errorOf({ scope: 'photos.read' }, undefined, { scopeRules: { scopeStrategy: 'exact', privilegedScopes: [] } })).toBe(
        'invalid_scope',
      );
      expect(validate({ scope: 'photos.*' }, undefined, { scopeRules: { scopeStrategy: 'exact', privilegedScopes: [] } }).scope).toEqual([
        'photos.*',
      ]);
    });

    it('accepts a request without scope', () => {
      expect(validate({ scope: undefined }).scope).toEqual([]);
    });
  });

  it('refuses an audience the client may not request', () => {
    expect(errorOf({ audience: 'https://evil.example/v1' })).toBe('invalid_request');
    expect(validate({ audience: 'https://api.example/v1 https://api.example/v1/x' }).audience).toHaveLength(2);
  });

  describe('nonce', () => {
    it.each(['id_token', 'id_token token', 'code id_token', 'code token', 'code id_token token'])(
      'S05: is required for %s (implicit and hybrid)',
      (responseType) => {
        expect(errorOf({ response_type: responseType, nonce: undefined })).toBe('invalid_request');
      },
    );

    it('is optional for code, and for token without an ID token', () => {
      expect(validate({ nonce: undefined }).nonce).toBeUndefined();
      expect(validate({ response_type: 'token', nonce: undefined }).nonce).toBeUndefined();
      expect(validate({ response_type: 'code token', scope: 'profile', nonce: undefined }).nonce).toBeUndefined();
    });

    it('must be at least 8 characters when given', () => {
      expect(errorOf({ nonce: '1234567' })).toBe('insufficient_entropy');
      expect(errorOf({ response_type: 'id_token', nonce: '1234567' })).toBe('insufficient_entropy');
      expect(validate({ response_type: 'id_token', nonce: '12345678' }).nonce).toBe('12345678');
    });
  });

  describe('prompt', () => {
    it.each(['none', 'login', 'consent', 'select_account', 'login consent select_account'])('accepts %s', (prompt) => {
      expect(validate({ prompt }).prompt.size).toBe(prompt.split(' ').length);
    });

    it('refuses none with another value, and unknown values', () => {
      expect(errorOf({ prompt: 'none login' })).toBe('invalid_request');
      expect(errorOf({ prompt: 'always' })).toBe('invalid_request');
    });
  });

  it.each(['-1', '1.5', 'ten', '9999999999999999'])('refuses max_age %s', (maxAge) => {
    expect(errorOf({ max_age: maxAge })).toBe('invalid_request');
  });

  it('accepts max_age 0', () => {
    expect(validate({ max_age: '0' }).maxAgeSeconds).toBe(0);
  });

  describe('PKCE', () => {
    it('keeps an S256 challenge', () => {
      expect(validate({ code_challenge: CHALLENGE, code_challenge_method: 'S256' }).codeChallenge).toBe(CHALLENGE);
      expect(validate({ code_challenge: 'a'.repeat(128), code_challenge_method: 'S256' }).codeChallenge).toHaveLength(128);
    });

    it.each([
      ['method plain', { code_challenge: CHALLENGE, code_challenge_method: 'plain' }],
      ['no method (plain by default)', { code_challenge: CHALLENGE }],
      ['an unknown method', { code_challenge: CHALLENGE, code_challenge_method: 'S512' }],
      ['a method without a challenge', { code_challenge_method: 'S256' }],
      ['42 characters', { code_challenge: CHALLENGE.slice(0, 42), code_challenge_method: 'S256' }],
      ['129 characters', { code_challenge: 'a'.repeat(129), code_challenge_method: 'S256' }],
      ['a "+"', { code_challenge: `${CHALLENGE.slice(0, 42)}+`, code_challenge_method: 'S256' }],
      ['a "/"', { code_challenge: `${CHALLENGE.slice(0, 42)}/`, code_challenge_method: 'S256' }],
    ])('S06: refuses %s with invalid_request', (_name, query) => {
      expect(errorOf(query)).toBe('invalid_request');
    });

    it('S07: requires a challenge from a public client asking for a code', () => {
      const publicClient = clientFixture({ tokenEndpointAuthMethod: 'none' });
      expect(errorOf({}, publicClient)).toBe('invalid_request');
      expect(errorOf({ response_type: 'code id_token', nonce: 'nonce-123456' }, publicClient)).toBe('invalid_request');
      expect(validate({ code_challenge: CHALLENGE, code_challenge_method: 'S256' }, publicClient).codeChallenge).toBe(CHALLENGE);
    });

    it('does not apply to a response without a code', () => {
      const publicClient = clientFixture({ tokenEndpointAuthMethod: 'none' });
      expect(validate({ response_type: 'token', code_challenge_method: 'plain' }, publicClient).codeChallenge).toBeUndefined();
    });
  });
});

describe('errorDestination', () => {
  it('uses the requested response mode when it is a known one', () => {
    expect(errorDestination(paramsOf({ response_type: 'code', response_mode: 'form_post', state: 's' }), REDIRECT)).toEqual({
      redirectUri: REDIRECT,
      responseMode: 'form_post',
      state: 's',
    });
  });

  it('falls back to the default of the response type, then to the query', () => {
    expect(errorDestination(paramsOf({ response_type: 'id_token', response_mode: 'bogus' }), REDIRECT).responseMode).toBe('fragment');
    expect(errorDestination(paramsOf({ response_type: 'code' }), REDIRECT).responseMode).toBe('query');
    expect(errorDestination(paramsOf({ response_type: 'bogus' }), REDIRECT).responseMode).toBe('query');
    expect(errorDestination(paramsOf({}), REDIRECT)).toEqual({ redirectUri: REDIRECT, responseMode: 'query', state: undefined });
  });
});
