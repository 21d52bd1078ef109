import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.loader.js';
import { keyOfError } from '../../test/support/config.js';

describe('loadConfig: courier', () => {
  it('defaults: no SMTP (messages stay queued), a sender on the issuer host, 1 s interval, 5 attempts', () => {
    expect(loadConfig({ ISSUER_URL: 'https://id.example.com' }, '1').courier).toEqual({
      smtp: undefined,
      fromAddress: 'no-reply@id.example.com',
      fromName: undefined,
      templateOverridePath: undefined,
      dispatchIntervalMs: 1000,
      maxAttempts: 5,
      retryBaseDelayMs: 5000,
    });
  });

  it('reads smtp:// and smtps:// URLs with credentials, default ports and the Kratos query flags', () => {
    expect(loadConfig({ COURIER_SMTP_URL: 'smtps://mailer:p%40ss@mail.example.com/?skip_ssl_verify=true' }, '1').courier.smtp).toEqual({
      secure: true,
      host: 'mail.example.com',
      port: 465,
      username: 'mailer',
      password: 'p@ss',
      skipTlsVerify: true,
      disableStartTls: false,
    });
    expect(loadConfig({ COURIER_SMTP_URL: 'smtp://127.0.0.1:2525?disable_starttls=true' }, '1').courier.smtp).toMatchObject({
      secure: false,
      host: '127.0.0.1',
      port: 2525,
      username: undefined,
      disableStartTls: true,
    });
    expect(loadConfig({ COURIER_SMTP_URL: 'smtp://mail.example.com' }, '1').courier.smtp?.port).toBe(587);
  });

  it.each([
    [{ COURIER_SMTP_URL: 'http://mail.example.com' }, 'COURIER_SMTP_URL'],
    [{ COURIER_SMTP_URL: 'smtp://mail.example.com/?verify=no' }, 'COURIER_SMTP_URL'],
    [{ COURIER_SMTP_URL: 'smtp://mail.example.com/?skip_ssl_verify=maybe' }, 'COURIER_SMTP_URL'],
    [{ COURIER_FROM_ADDRESS: 'Accounts <a@example.com>' }, 'COURIER_FROM_ADDRESS'],
    [{ COURIER_MAX_ATTEMPTS: '0' }, 'COURIER_MAX_ATTEMPTS'],
    [{ COURIER_DISPATCH_INTERVAL_MS: '5' }, 'COURIER_DISPATCH_INTERVAL_MS'],
  ])('refuses %j', (env, key) => {
    expect(keyOfError(env)).toBe(key);
  });
});

describe('loadConfig: password policy', () => {
  it('defaults: 8 to 1024 characters, similarity check on, breach API off', () => {
    expect(loadConfig({}, '1').passwordPolicy).toEqual({
      minLength: 8,
      maxLength: 1024,
      identifierSimilarityCheck: true,
      haveIBeenPwned: { enabled: false, url: 'https://api.pwnedpasswords.com', maxBreaches: 0, ignoreNetworkErrors: true },
    });
  });

  it.each([
    [{ PASSWORD_MIN_LENGTH: '5' }, 'PASSWORD_MIN_LENGTH'],
    [{ PASSWORD_MAX_LENGTH: '63' }, 'PASSWORD_MAX_LENGTH'],
    [{ PASSWORD_MIN_LENGTH: '100', PASSWORD_MAX_LENGTH: '64' }, 'PASSWORD_MAX_LENGTH'],
    [{ PASSWORD_HIBP_URL: 'ftp://hibp.example.com' }, 'PASSWORD_HIBP_URL'],
  ])('refuses %j', (env, key) => {
    expect(keyOfError(env)).toBe(key);
  });
});
