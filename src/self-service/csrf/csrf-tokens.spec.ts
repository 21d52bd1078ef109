import { describe, expect, it } from 'vitest';
import { formTokenFor, formTokenMatches, isCookieToken, newCookieToken } from './csrf-tokens.js';

const SECRET = 'first-secret-0123456789';
const OLD = 'older-secret-0123456789';

describe('double-submit CSRF tokens', () => {
  it('cookie tokens are 256 random bits, base64url, never repeated', () => {
    const a = newCookieToken();
    expect(isCookieToken(a)).toBe(true);
    expect(a).not.toBe(newCookieToken());
    for (const bad of [undefined, '', 'short', `${a}x`, `${a.slice(0, 42)}=`]) expect(isCookieToken(bad)).toBe(false);
  });

  it('the form token matches only its own cookie token, under any configured secret (rotation)', () => {
    const cookie = newCookieToken();
    const form = formTokenFor(cookie, SECRET);
    expect(form).not.toContain(cookie);
    expect(formTokenMatches(form, cookie, [SECRET])).toBe(true);
    expect(formTokenMatches(formTokenFor(cookie, OLD), cookie, [SECRET, OLD])).toBe(true);
    expect(formTokenMatches(formTokenFor(cookie, OLD), cookie, [SECRET])).toBe(false);
    expect(formTokenMatches(form, newCookieToken(), [SECRET])).toBe(false);
    expect(formTokenMatches(cookie, cookie, [SECRET])).toBe(false);
    expect(formTokenMatches(`${form}x`, cookie, [SECRET])).toBe(false);
    expect(formTokenMatches('', cookie, [SECRET])).toBe(false);
  });
});
