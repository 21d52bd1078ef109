import { describe, expect, it } from 'vitest';
import { clientFixture } from '../../../test/support/client-fixture.js';
import { AuthorizeError } from './authorize.errors.js';
import { resolveRedirectUri } from './redirect-uri.js';

function refused(run: () => unknown): AuthorizeError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AuthorizeError);
    return error as AuthorizeError;
  }
  throw new Error('expected an AuthorizeError');
}

describe('resolveRedirectUri', () => {
  const client = clientFixture({
    redirectUris: [
      'https://good.example/cb',
      'https://good.example/cb?x=1',
      'http://127.0.0.1/cb',
      'http://[::1]:8080/cb',
      'com.example.app:/oauth',
    ],
  });

  it('accepts a registered URI character for character, including its query and a custom scheme', () => {
    expect(resolveRedirectUri(client, 'https://good.example/cb')).toBe('https://good.example/cb');
    expect(resolveRedirectUri(client, 'https://good.example/cb?x=1')).toBe('https://good.example/cb?x=1');
    expect(resolveRedirectUri(client, 'com.example.app:/oauth')).toBe('com.example.app:/oauth');
  });

  it.each([
    ['a trailing slash', 'https://good.example/cb/'],
    ['an extra query', 'https://good.example/cb?x'],
    ['a changed query', 'https://good.example/cb?x=2'],
    ['a changed path case', 'https://good.example/CB'],
    ['a changed host case', 'https://GOOD.example/cb'],
    ['another port on a non-loopback host', 'https://good.example:8443/cb'],
    ['credentials before the real host', 'https://good.example@evil.example/cb'],
    ['the host as a subdomain of another', 'https://good.example.evil.example/cb'],
    ['http instead of https', 'http://good.example/cb'],
    ['a path traversal', 'https://good.example/cb/../cb'],
    ['an unregistered URI', 'https://evil.example/cb'],
  ])('S01: refuses %s', (_name, requested) => {
    expect(refused(() => resolveRedirectUri(client, requested)).code).toBe('invalid_request');
  });

  it('S02: lets a loopback http URI use any port, keeping host and path', () => {
    expect(resolveRedirectUri(client, 'http://127.0.0.1:53123/cb')).toBe('http://127.0.0.1:53123/cb');
    expect(resolveRedirectUri(client, 'http://[::1]/cb')).toBe('http://[::1]/cb');
    expect(resolveRedirectUri(client, 'http://[::1]:1/cb')).toBe('http://[::1]:1/cb');
  });

  it.each([
    ['another loopback host', 'http://localhost:53123/cb'],
    ['another path', 'http://127.0.0.1:53123/cb2'],
    ['a query the registration lacks', 'http://127.0.0.1:53123/cb?a=b'],
    ['https instead of http', 'https://127.0.0.1:53123/cb'],
    ['a port out of range', 'http://127.0.0.1:65536/cb'],
    ['an empty port', 'http://127.0.0.1:/cb'],
    ['credentials hiding another host', 'http://127.0.0.1:80@evil.example/cb'],
  ])('S02: refuses a loopback URI with %s', (_name, requested) => {
    expect(refused(() => resolveRedirectUri(client, requested)).code).toBe('invalid_request');
  });

  it('refuses a fragment even when the rest matches', () => {
    expect(refused(() => resolveRedirectUri(client, 'https://good.example/cb#x')).code).toBe('invalid_request');
  });

  it('uses the only registered URI when none is requested', () => {
    expect(resolveRedirectUri(clientFixture({ redirectUris: ['https://one.example/cb'] }), undefined)).toBe('https://one.example/cb');
  });

  it('requires a redirect_uri when the client registered several, or has none', () => {
    expect(refused(() => resolveRedirectUri(client, undefined)).code).toBe('invalid_request');
    expect(refused(() => resolveRedirectUri(clientFixture({ redirectUris: [] }), 'https://good.example/cb')).code).toBe('invalid_request');
    expect(refused(() => resolveRedirectUri(clientFixture({ redirectUris: [] }), undefined)).code).toBe('invalid_request');
  });
});
