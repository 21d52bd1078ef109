import { describe, expect, it } from 'vitest';
import { hmacSha256, hmacSha256Hex, sha256Base64, sha256Base64url, sha256Hex, sha2Digest } from './digest.js';

// Stored hashes depend on these exact encodings: published test vectors pin them.
describe('digest', () => {
  it('SHA-256 of the UTF-8 bytes, in hex, base64url and base64 (FIPS 180-2 "abc")', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Base64url('abc')).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
    expect(sha256Base64('abc')).toBe('ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=');
    expect(sha256Hex('é')).toBe('4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c');
  });

  it('hashes several parts as if joined, strings and bytes alike (one part takes another path)', () => {
    const abc = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
    expect(sha256Hex('a', 'bc')).toBe(abc);
    expect(sha256Hex(Buffer.from('ab'), 'c')).toBe(abc);
    expect(sha256Hex(Buffer.from('abc'))).toBe(abc);
  });

  it('gives the PKCE S256 challenge of RFC 7636 appendix B', () => {
    expect(sha256Base64url('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('SHA-384 and SHA-512 raw digests (FIPS 180-2 "abc")', () => {
    expect(sha2Digest('sha384', 'abc').toString('hex')).toBe(
      'cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7',
    );
    expect(sha2Digest('sha512', 'abc').subarray(0, 8).toString('hex')).toBe('ddaf35a193617aba');
  });

  it('HMAC-SHA256, raw and hex (RFC 4231 test case 2)', () => {
    const expected = '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843';
    expect(hmacSha256Hex('Jefe', 'what do ya want for nothing?')).toBe(expected);
    expect(hmacSha256('Jefe', 'what do ya want for nothing?').toString('hex')).toBe(expected);
  });
});
