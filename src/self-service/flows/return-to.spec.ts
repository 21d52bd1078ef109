import { describe, expect, it } from 'vitest';
import { allowedReturnTo } from './return-to.js';

const ALLOWED = ['https://app.example.com/account', 'https://www.example.com/', 'http://localhost:3000/'];

describe('return_to allow-list', () => {
  it('allows the same scheme, host and port with the path at or below an allowed path', () => {
    for (const url of [
      'https://app.example.com/account',
      'https://app.example.com/account/',
      'https://app.example.com/account/profile?tab=1#x',
      'https://www.example.com/anything',
      'http://localhost:3000/cb',
    ]) {
      expect(allowedReturnTo(url, ALLOWED), url).toBe(new URL(url).href);
    }
  });

  it('refuses other hosts, schemes, ports, path prefixes that are not whole segments, credentials and non-URLs', () => {
    for (const url of [
      'https://evil.example.com/account',
      'http://app.example.com/account',
      'https://app.example.com:8443/account',
      'https://app.example.com/accountevil',
      'https://app.example.com/other',
      'https://app.example.com.evil.example/account',
      'https://app.example.com@evil.example/account',
      'https://user:pass@app.example.com/account',
      'http://localhost:3001/cb',
      '//app.example.com/account',
      '/account',
      'javascript:alert(1)',
      'not a url',
      'https://app.example.com/account\r\nSet-Cookie: x=1',
      'https://app.example.com/acc\nount/x',
      'https://app.example.com/account\u0000',
      'https://app.example.com/account\t',
    ]) {
      expect(allowedReturnTo(url, ALLOWED), JSON.stringify(url)).toBeUndefined();
    }
  });

  it('answers the serialised URL: non-Latin-1 characters percent-encoded, fit for a Location header', () => {
    expect(allowedReturnTo('https://app.example.com/account/\u00fc\u2603?q=\u{1F600}', ALLOWED)).toBe(
      'https://app.example.com/account/%C3%BC%E2%98%83?q=%F0%9F%98%80',
    );
  });
});
