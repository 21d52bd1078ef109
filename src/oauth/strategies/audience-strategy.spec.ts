import { describe, expect, it } from 'vitest';
import { audienceAllowed, audiencesNotAllowed } from './audience-strategy.js';

describe('audienceAllowed (fosite DefaultAudienceMatchingStrategy)', () => {
  const allowed = ['https://api.example/v1', 'https://other.example/', 'urn:service:billing'];

  it.each([
    ['the same URL', 'https://api.example/v1', true],
    ['the same URL with a trailing slash', 'https://api.example/v1/', true],
    ['a sub-path', 'https://api.example/v1/users', true],
    ['a sibling whose name starts the same', 'https://api.example/v10', false],
    ['the parent', 'https://api.example/', false],
    ['another scheme', 'http://api.example/v1', false],
    ['another host', 'https://evil.example/v1', false],
    ['another port', 'https://api.example:8443/v1', false],
    ['anything under a root entry', 'https://other.example/x/y', true],
    ['a non-URL entry, equal', 'urn:service:billing', true],
    ['a non-URL entry, different', 'urn:service:billing2', false],
    ['not a URL at all', 'api', false],
  ])('%s', (_name, requested, expected) => {
    expect(audienceAllowed(allowed, requested)).toBe(expected);
  });

  it('lists the audiences that are not allowed', () => {
    expect(audiencesNotAllowed(allowed, ['https://api.example/v1/x', 'https://evil.example'])).toEqual(['https://evil.example']);
  });

  it('allows nothing to a client without audiences', () => {
    expect(audienceAllowed([], 'https://api.example/v1')).toBe(false);
  });
});
