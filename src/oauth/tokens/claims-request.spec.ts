import { describe, expect, it } from 'vitest';
import { claimsByDestination, parseClaimsRequest } from './claims-request.js';

describe('parseClaimsRequest', () => {
  it('is undefined without the parameter, and keeps null and object entries of id_token and userinfo', () => {
    expect(parseClaimsRequest(undefined)).toBeUndefined();
    expect(
      parseClaimsRequest('{"id_token":{"email":{"essential":true},"acr":{"values":["a","b"]}},"userinfo":{"name":null},"other":{"x":1}}'),
    ).toEqual({ id_token: { email: { essential: true }, acr: { values: ['a', 'b'] } }, userinfo: { name: null } });
  });

  it.each([
    ['not JSON', '{'],
    ['an array', '[]'],
    ['a string member', '{"userinfo":"email"}'],
    ['an array member', '{"id_token":["email"]}'],
    ['a boolean entry', '{"userinfo":{"email":true}}'],
    ['a string essential', '{"userinfo":{"email":{"essential":"true"}}}'],
    ['values that are not an array', '{"id_token":{"acr":{"values":"a"}}}'],
  ])('names the problem for %s', (_name, raw) => {
    expect(typeof parseClaimsRequest(raw)).toBe('string');
  });
});

describe('claimsByDestination', () => {
  const granted = { email: 'a@example.com', name: 'A', nickname: 'a', picture: 'p' };

  it('sends every granted claim to both without a claims request', () => {
    expect(claimsByDestination(granted, undefined)).toEqual({ idToken: granted, userinfo: granted });
  });

  it('keeps a claim asked for only under one member out of the other; the rest go to both', () => {
    const split = claimsByDestination(granted, { id_token: { email: null, picture: null }, userinfo: { name: null, picture: null } });
    expect(split.idToken).toEqual({ email: 'a@example.com', nickname: 'a', picture: 'p' });
    expect(split.userinfo).toEqual({ name: 'A', nickname: 'a', picture: 'p' });
  });
});
