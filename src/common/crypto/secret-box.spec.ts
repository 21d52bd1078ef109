import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.js';
import { SecretBoxError, type SecretBoxFailure } from './secret-box.error.js';

const A = 'first-system-secret-aaaaaaaa';
const B = 'second-system-secret-bbbbbbb';

function failureOf(run: () => unknown): SecretBoxFailure | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof SecretBoxError) return error.failure;
    throw error;
  }
  return undefined;
}

function tamper(sealed: string, index: number): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[index]!, 'base64url');
  bytes[0] = bytes[0]! ^ 0x01;
  parts[index] = bytes.toString('base64url');
  return parts.join('.');
}

describe('SecretBox', () => {
  it('opens what it sealed, for text and bytes, empty included', () => {
    const box = new SecretBox([A], 'test');
    expect(box.openString(box.seal('{"d":"private"}', 'set/kid'), 'set/kid')).toBe('{"d":"private"}');
    const bytes = Uint8Array.from([0, 1, 2, 255]);
    expect([...box.open(box.seal(bytes, 'x'), 'x')]).toEqual([...bytes]);
    expect(box.openString(box.seal('', 'x'), 'x')).toBe('');
  });

  it('writes a versioned, self-describing value that does not contain the plaintext', () => {
    const box = new SecretBox([A], 'test');
    const sealed = box.seal('plaintext-marker', 'aad');
    const parts = sealed.split('.');
    expect(parts).toHaveLength(5);
    expect(parts[0]).toBe('v1');
    expect(Buffer.from(parts[2]!, 'base64url')).toHaveLength(12);
    expect(Buffer.from(parts[4]!, 'base64url')).toHaveLength(16);
    expect(sealed).not.toContain('plaintext-marker');
    expect(sealed).not.toContain(Buffer.from('plaintext-marker').toString('base64url'));
  });

  it('uses a fresh IV for every value', () => {
    const box = new SecretBox([A], 'test');
    const values = new Set(Array.from({ length: 50 }, () => box.seal('same', 'same')));
    expect(values.size).toBe(50);
    expect(new Set([...values].map((value) => value.split('.')[2])).size).toBe(50);
  });

  it('refuses to open under other associated data (a value moved to another row)', () => {
    const box = new SecretBox([A], 'test');
    const sealed = box.seal('secret', JSON.stringify(['set-a', 'kid-1']));
    expect(failureOf(() => box.open(sealed, JSON.stringify(['set-a', 'kid-2'])))).toBe('authentication_failed');
    expect(failureOf(() => box.open(sealed, JSON.stringify(['set-b', 'kid-1'])))).toBe('authentication_failed');
    expect(failureOf(() => box.open(sealed, ''))).toBe('authentication_failed');
  });

  it('detects tampering with the ciphertext, the IV or the tag', () => {
    const box = new SecretBox([A], 'test');
    const sealed = box.seal('some secret value', 'aad');
    for (const index of [2, 3, 4]) {
      expect(
        failureOf(() => box.open(tamper(sealed, index), 'aad')),
        `part ${index}`,
      ).toBe('authentication_failed');
    }
  });

  it('detects a header pointing at another configured secret', () => {
    const box = new SecretBox([B, A], 'test');
    const sealed = new SecretBox([A], 'test').seal('value', 'aad');
    const otherId = new SecretBox([B], 'test').seal('x', 'aad').split('.')[1]!;
    const parts = sealed.split('.');
    parts[1] = otherId;
    expect(failureOf(() => box.open(parts.join('.'), 'aad'))).toBe('authentication_failed');
  });

  it('rejects malformed values', () => {
    const box = new SecretBox([A], 'test');
    const sealed = box.seal('value', 'aad');
    for (const bad of [
      '',
      'nonsense',
      sealed.replace(/^v1/, 'v2'),
      `${sealed}.extra`,
      sealed.replace(/\.[^.]+$/, '.AAAA'),
      'v1.a.b!.c.d',
    ]) {
      expect(
        failureOf(() => box.open(bad, 'aad')),
        bad,
      ).toBe('malformed');
    }
  });

  describe('rotation', () => {
    it('seals with the first secret and opens with any of them', () => {
      const old = new SecretBox([A], 'test');
      const rotated = new SecretBox([B, A], 'test');
      const sealedOld = old.seal('old value', 'aad');
      expect(rotated.openString(sealedOld, 'aad')).toBe('old value');
      const sealedNew = rotated.seal('new value', 'aad');
      expect(new SecretBox([B], 'test').openString(sealedNew, 'aad')).toBe('new value');
      expect(failureOf(() => old.open(sealedNew, 'aad'))).toBe('unknown_secret');
    });

    it('reports a value sealed under a dropped secret as unknown, not as tampered', () => {
      const sealed = new SecretBox([A], 'test').seal('value', 'aad');
      expect(failureOf(() => new SecretBox([B], 'test').open(sealed, 'aad'))).toBe('unknown_secret');
    });

    it('tells whether a value is sealed under the current secret', () => {
      const sealed = new SecretBox([A], 'test').seal('value', 'aad');
      expect(new SecretBox([A, B], 'test').isSealedWithCurrentSecret(sealed)).toBe(true);
      expect(new SecretBox([B, A], 'test').isSealedWithCurrentSecret(sealed)).toBe(false);
    });
  });

  it('separates purposes: the same secret under another purpose does not open the value', () => {
    const sealed = new SecretBox([A], 'jwk-private').seal('value', 'aad');
    expect(failureOf(() => new SecretBox([A], 'sessions').open(sealed, 'aad'))).toBe('unknown_secret');
  });

  it('never puts the secret or the plaintext in error messages', () => {
    const box = new SecretBox([A], 'test');
    const sealed = box.seal('plaintext-marker', 'aad');
    for (const run of [() => box.open(sealed, 'other'), () => new SecretBox([B], 'test').open(sealed, 'aad')]) {
      try {
        run();
        expect.unreachable();
      } catch (error) {
        expect(String((error as Error).message)).not.toContain(A);
        expect(String((error as Error).message)).not.toContain('plaintext-marker');
      }
    }
  });

  it('needs at least one secret and a purpose', () => {
    expect(() => new SecretBox([], 'test')).toThrow();
    expect(() => new SecretBox([A], '')).toThrow();
  });
});
