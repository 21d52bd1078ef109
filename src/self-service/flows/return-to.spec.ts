import { describe, expect, it } from 'vitest';
import { isAllowedReturnTo } from './return-to.js';

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
      expect(isAllowedReturnTo(url, ALLOWED), url).toBe(true);
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
    ]) {
      expect(isAllowedReturnTo(url, ALLOWED), url).toBe(false);
    }
  });
});
