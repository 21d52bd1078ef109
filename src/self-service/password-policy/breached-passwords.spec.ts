import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../common/errors/app-error.js';
import type { OutboundHttp, OutboundResponse } from '../../common/http/outbound-http.js';
import { OutboundError, OutboundFailure } from '../../common/http/outbound-http.error.js';
import type { PasswordPolicyConfig } from '../../config/app-config.js';
import { BreachedPasswords } from './breached-passwords.js';

const PASSWORD = 'unusual-Passphrase-42';
const DIGEST = createHash('sha1').update(PASSWORD).digest('hex').toUpperCase();

function checker(answer: () => Promise<OutboundResponse>, ignoreNetworkErrors = true): { checker: BreachedPasswords; urls: string[] } {
  const urls: string[] = [];
  const outbound = {
    get: async (url: string) => {
      urls.push(url);
      return answer();
    },
  } as unknown as OutboundHttp;
  const config = {
    haveIBeenPwned: { enabled: true, url: 'https://hibp.test', maxBreaches: 0, ignoreNetworkErrors },
  } as PasswordPolicyConfig;
  return { checker: new BreachedPasswords(outbound, config), urls };
}

const ok = (text: string) => async (): Promise<OutboundResponse> => ({ status: 200, headers: {}, body: Buffer.from(text) });

describe('BreachedPasswords', () => {
  it('sends only the first five hex digits of the SHA-1 and finds the suffix in the answer', async () => {
    const { checker: subject, urls } = checker(ok(`0018A45C4D1DEF81644B54AB7F969B88D65:1\r\n${DIGEST.slice(5)}:42\r\n`));
    expect(await subject.breachCount(PASSWORD)).toBe(42);
    expect(urls).toEqual([`https://hibp.test/range/${DIGEST.slice(0, 5)}`]);
    expect(urls[0]).not.toContain(DIGEST.slice(5));
  });

  it('answers 0 when the suffix is not listed', async () => {
    expect(await checker(ok('0018A45C4D1DEF81644B54AB7F969B88D65:1\n')).checker.breachCount(PASSWORD)).toBe(0);
  });

  it('ignores network errors and bad statuses by default', async () => {
    const down = checker(async () => {
      throw new OutboundError(OutboundFailure.Timeout, 'timed out');
    });
    expect(await down.checker.breachCount(PASSWORD)).toBeUndefined();
    const failing = checker(async () => ({ status: 500, headers: {}, body: Buffer.from('') }));
    expect(await failing.checker.breachCount(PASSWORD)).toBeUndefined();
  });

  it('refuses with a 503 when network errors are not ignored', async () => {
    const { checker: subject } = checker(async () => {
      throw new OutboundError(OutboundFailure.Network, 'refused');
    }, false);
    const error = await subject.breachCount(PASSWORD).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('service_unavailable');
  });
});
