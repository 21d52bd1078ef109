import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { newSessionToken, sessionTokenOf, tokenHash } from './session-token.js';

function request(headers: Record<string, string>, cookies: Record<string, string> = {}): FastifyRequest {
  return { headers, cookies } as unknown as FastifyRequest;
}

describe('session tokens', () => {
  it('are 256 random bits in base64url, stored as their SHA-256', () => {
    const token = newSessionToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newSessionToken()).not.toBe(token);
    expect(tokenHash(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenHash(token)).not.toContain(token);
  });

  it('are read from X-Session-Token, then the service_session cookie, then Authorization: Bearer', () => {
    const all = request({ 'x-session-token': 'header', authorization: 'Bearer bearer' }, { service_session: 'cookie' });
    expect(sessionTokenOf(all)).toBe('header');
    expect(sessionTokenOf(request({ authorization: 'Bearer bearer' }, { service_session: 'cookie' }))).toBe('cookie');
    expect(sessionTokenOf(request({ authorization: 'bEaReR  bearer ' }))).toBe('bearer');
  });

  it('ignores other schemes, empty values and over-long values', () => {
    const cases: Record<string, string>[] = [
      { authorization: 'Basic abc' },
      { authorization: 'Bearer ' },
      { 'x-session-token': '' },
      { 'x-session-token': 'x'.repeat(257) },
    ];
    for (const headers of cases) {
      expect(sessionTokenOf(request(headers))).toBeUndefined();
    }
    expect(sessionTokenOf(request({}, { service_session: '' }))).toBeUndefined();
  });
});
