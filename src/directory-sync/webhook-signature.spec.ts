import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DirectorySyncErrorCode } from './directory-sync.errors.js';
import { deliveryDigest, isFresh, parseServiceSignature, signedByAny } from './webhook-signature.js';

const SECRET = 'connection-secret';
const BODY = Buffer.from(JSON.stringify({ event: 'user.created', data: { id: 'u1' } }));

function sign(t: string, body: Uint8Array = BODY, secret = SECRET): string {
  return createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
}

function codeOf(work: () => unknown): string | undefined {
  try {
    work();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe('parseServiceSignature', () => {
  it('reads t (milliseconds) and s', () => {
    const parsed = parseServiceSignature(`t=1545010989801,s=${sign('1545010989801')}`);
    expect(parsed.timestampMs).toBe(1545010989801);
    expect(parsed.rawTimestamp).toBe('1545010989801');
  });

  it('reads a t that is plainly seconds as seconds', () => {
    expect(parseServiceSignature(`t=1545010989,s=${sign('1545010989')}`).timestampMs).toBe(1545010989000);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['no s', 't=1545010989801'],
    ['no t', `s=${'a'.repeat(64)}`],
    ['extra part', `t=1,s=${'a'.repeat(64)},v1=${'a'.repeat(64)}`],
    ['repeated t', `t=1,t=2`],
    ['upper-case hex', `t=1545010989801,s=${'A'.repeat(64)}`],
    ['short hex', `t=1545010989801,s=${'a'.repeat(63)}`],
    ['long hex', `t=1545010989801,s=${'a'.repeat(66)}`],
    ['not hex', `t=1545010989801,s=${'g'.repeat(64)}`],
    ['negative t', `t=-1,s=${'a'.repeat(64)}`],
    ['spaces', `t=1545010989801, s=${'a'.repeat(64)}`],
    ['no equals', `t,s=${'a'.repeat(64)}`],
  ])('refuses %s with invalid_signature', (_name, header) => {
    expect(codeOf(() => parseServiceSignature(header))).toBe(DirectorySyncErrorCode.InvalidSignature);
  });
});

describe('signedByAny', () => {
  it('accepts the signature of the raw bytes by any of the secrets', () => {
    const parsed = parseServiceSignature(`t=1545010989801,s=${sign('1545010989801')}`);
    expect(signedByAny(parsed, BODY, [SECRET])).toBe(true);
    expect(signedByAny(parsed, BODY, ['new-secret', SECRET])).toBe(true);
  });

  it('refuses another secret, another timestamp and a re-serialized body', () => {
    const parsed = parseServiceSignature(`t=1545010989801,s=${sign('1545010989801')}`);
    expect(signedByAny(parsed, BODY, ['other'])).toBe(false);
    expect(signedByAny(parseServiceSignature(`t=1545010989802,s=${sign('1545010989801')}`), BODY, [SECRET])).toBe(false);
    const reformatted = Buffer.from(JSON.stringify(JSON.parse(BODY.toString()), null, 1));
    expect(signedByAny(parsed, reformatted, [SECRET])).toBe(false);
    expect(signedByAny(parsed, BODY, [])).toBe(false);
  });
});

describe('isFresh and deliveryDigest', () => {
  it('accepts timestamps within the tolerance, past or future, and nothing beyond', () => {
    const at = (t: number) => parseServiceSignature(`t=${t},s=${'a'.repeat(64)}`);
    const now = 1_700_000_000_000;
    expect(isFresh(at(now - 300_000), now, 300_000)).toBe(true);
    expect(isFresh(at(now + 300_000), now, 300_000)).toBe(true);
    expect(isFresh(at(now - 300_001), now, 300_000)).toBe(false);
    expect(isFresh(at(now + 300_001), now, 300_000)).toBe(false);
  });

  it('tells deliveries apart by timestamp and signature', () => {
    const a = parseServiceSignature(`t=1,s=${'a'.repeat(64)}`);
    const b = parseServiceSignature(`t=2,s=${'a'.repeat(64)}`);
    const c = parseServiceSignature(`t=1,s=${'b'.repeat(64)}`);
    expect(new Set([deliveryDigest(a), deliveryDigest(b), deliveryDigest(c), deliveryDigest(a)]).size).toBe(3);
  });
});
