import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../support/app.js';
import { queryDatabase } from '../support/database.js';
import { apiLogin, createPasswordIdentity, GOOD_PASSWORD, messageIds, type FlowShape } from '../support/self-service.js';
import { linkIn, SmtpSink, type ReceivedEmail } from '../support/smtp-sink.js';

/**
 * Look-alike addresses. A recovery or verification link goes only to the address stored for the
 * identity that matched, never to the text typed; and identifier normalisation never turns another
 * character into ASCII: U+212A KELVIN SIGN, full-width letters and other compatibility characters are
 * refused wherever an identifier or address is written or looked up, canonically equivalent text
 * (combining marks) is the same address, and `ß` stays `ß`. A label that mixes Latin with a script read
 * as Latin (Cyrillic `а`, Greek `ο`) is refused the same way; one such script alone is a real address.
 */
let app: TestApp;
let smtp: SmtpSink;

const KELVIN = '\u212A';

beforeAll(async () => {
  smtp = await SmtpSink.start();
  app = await bootApp({ COURIER_SMTP_URL: smtp.url, COURIER_DISPATCH_INTERVAL_MS: '50' });
});

afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

async function submitLink(kind: 'recovery' | 'verification', email: string): Promise<{ status: number; flow: FlowShape }> {
  const init = await app.public.get<FlowShape>(`/self-service/${kind}/api`);
  expect(init.status).toBe(200);
  const submit = await app.public.post<FlowShape>(`/self-service/${kind}?flow=${init.body.id}`, { json: { method: 'link', email } });
  return { status: submit.status, flow: submit.body };
}

/** The e-mails queued so far whose recipient is exactly `address` (the courier table: every queued message). */
async function queuedTo(address: string): Promise<number> {
  const rows = await queryDatabase<{ count: string }>(app.databaseUrl, `SELECT count(*) FROM courier_messages WHERE recipient = $1`, [
    address,
  ]);
  return Number(rows[0]!.count);
}

async function tokensOf(identityId: string, table: 'identity_recovery_tokens' | 'identity_verification_tokens'): Promise<number> {
  const rows = await queryDatabase<{ count: string }>(app.databaseUrl, `SELECT count(*) FROM ${table} WHERE identity_id = $1`, [
    identityId,
  ]);
  return Number(rows[0]!.count);
}

async function identityCount(): Promise<number> {
  return Number((await queryDatabase<{ count: string }>(app.databaseUrl, 'SELECT count(*) FROM identities'))[0]!.count);
}

/** The one e-mail received after `before` e-mails, whatever its recipient. */
async function nextEmail(before: number): Promise<ReceivedEmail> {
  const deadline = Date.now() + 15_000;
  while (smtp.received.length <= before) {
    if (Date.now() > deadline) throw new Error('no e-mail arrived');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return smtp.received[before]!;
}

describe('recovery to a look-alike address', () => {
  it(`a recovery for ${KELVIN}ate@example.com (U+212A) is refused: no token, no e-mail, to anyone`, async () => {
    const kate = await createPasswordIdentity(app, 'kate@example.com');
    const received = smtp.received.length;
    const submit = await submitLink('recovery', `${KELVIN}ate@example.com`);
    expect(submit.status).toBe(400);
    expect(messageIds(submit.flow)).toContain(4000004);
    expect(await tokensOf(kate, 'identity_recovery_tokens')).toBe(0);
    expect(await queuedTo(`${KELVIN}ate@example.com`)).toBe(0);
    expect(await queuedTo('kate@example.com')).toBe(0);
    expect(smtp.received.length).toBe(received);
  });

  it('full-width letters are refused the same way', async () => {
    const received = smtp.received.length;
    for (const email of ['\uff4bate@example.com', 'kate@\uff45xample.com', '\uff2bATE@EXAMPLE.COM']) {
      const submit = await submitLink('recovery', email);
      expect(submit.status, email).toBe(400);
    }
    expect(smtp.received.length).toBe(received);
  });

  it('a recovery typed in another case gets the link at the stored address, not at the text typed', async () => {
    const ken = await createPasswordIdentity(app, 'ken@example.com');
    const before = smtp.received.length;
    expect((await submitLink('recovery', 'KEN@Example.COM')).status).toBe(200);
    const mail = await nextEmail(before);
    expect(mail.to).toBe('ken@example.com');
    expect(linkIn(mail, '/self-service/recovery')).toContain('token=');
    expect(await queuedTo('KEN@Example.COM')).toBe(0);
    expect(await tokensOf(ken, 'identity_recovery_tokens')).toBe(1);
  });

  it('combining marks: zoe + U+0308 finds zoë and the link goes to the stored, composed address', async () => {
    await createPasswordIdentity(app, 'zo\u00eb@example.com');
    const before = smtp.received.length;
    expect((await submitLink('recovery', 'zoe\u0308@example.com')).status).toBe(200);
    const mail = await nextEmail(before);
    expect(mail.to).toBe('zo\u00eb@example.com');
    expect(linkIn(mail, '/self-service/recovery')).toContain('token=');
  });

  it('ß is not ss: a recovery for straße@ gives strasse@ nothing, and straße@ is an identity of its own', async () => {
    const strasse = await createPasswordIdentity(app, 'strasse@example.de');
    const before = smtp.received.length;
    expect((await submitLink('recovery', 'stra\u00dfe@example.de')).status).toBe(200);
    const mail = await nextEmail(before);
    expect(mail.to).toBe('stra\u00dfe@example.de');
    expect(() => linkIn(mail, '/self-service/recovery')).toThrow();
    expect(await tokensOf(strasse, 'identity_recovery_tokens')).toBe(0);
    expect(await queuedTo('strasse@example.de')).toBe(0);
    await createPasswordIdentity(app, 'stra\u00dfe@example.de');
  });
});

describe('verification and registration with a look-alike address', () => {
  it(`registration with ${KELVIN}ing@example.com is a 400 and writes nothing; king@ is never marked verified`, async () => {
    const king = await createPasswordIdentity(app, 'king@example.com');
    const identities = await identityCount();
    const init = await app.public.get<FlowShape>('/self-service/registration/api');
    const submit = await app.public.post<FlowShape>(`/self-service/registration?flow=${init.body.id}`, {
      json: { method: 'password', password: GOOD_PASSWORD, traits: { email: `${KELVIN}ing@example.com` } },
    });
    expect(submit.status).toBe(400);
    expect(await identityCount()).toBe(identities);

    const verification = await submitLink('verification', `${KELVIN}ing@example.com`);
    expect(verification.status).toBe(400);
    expect(await tokensOf(king, 'identity_verification_tokens')).toBe(0);
    const addresses = await queryDatabase<{ verified: boolean }>(
      app.databaseUrl,
      'SELECT verified FROM identity_verifiable_addresses WHERE identity_id = $1',
      [king],
    );
    expect(addresses).toEqual([{ verified: false }]);
  });

  it('the admin API refuses look-alike identifiers in traits with 400 invalid_traits, and writes nothing', async () => {
    const identities = await identityCount();
    for (const email of [`${KELVIN}ate2@example.com`, '\uff4bate2@example.com', '\u0130nci@example.com']) {
      const created = await app.admin.post<{ error: { code: string; status: string } }>('/identities', { json: { traits: { email } } });
      expect(created.status, email).toBe(400);
      expect(created.body.error.status).toBe('Bad Request');
    }
    expect(await identityCount()).toBe(identities);
  });

  it('a verification typed in another case sends the link to the stored address', async () => {
    await createPasswordIdentity(app, 'vera@example.com');
    const before = smtp.received.length;
    expect((await submitLink('verification', 'VERA@example.com')).status).toBe(200);
    const mail = await nextEmail(before);
    expect(mail.to).toBe('vera@example.com');
    expect(linkIn(mail, '/self-service/verification')).toContain('token=');
  });
});

describe('addresses that mix Latin with Cyrillic or Greek', () => {
  async function register(email: string): Promise<{ status: number; flow: FlowShape }> {
    const init = await app.public.get<FlowShape>('/self-service/registration/api');
    const submit = await app.public.post<FlowShape>(`/self-service/registration?flow=${init.body.id}`, {
      json: { method: 'password', password: GOOD_PASSWORD, traits: { email } },
    });
    return { status: submit.status, flow: submit.body };
  }

  it('registration with p\u0430ypal@ (Cyrillic а) or b\u03bfb@ (Greek ο) is refused as U+212A is, and writes nothing', async () => {
    const kelvin = await register(`${KELVIN}ey.script@example.com`);
    expect(kelvin.status).toBe(400);
    const identities = await identityCount();
    for (const email of ['p\u0430ypal.script@example.com', 'b\u03bfb.script@example.com', 'kate@ex\u0430mple.com']) {
      const submit = await register(email);
      expect(submit.status, email).toBe(400);
      expect(messageIds(submit.flow), email).toEqual(messageIds(kelvin.flow));
    }
    expect(await identityCount()).toBe(identities);
  });

  it('recovery and verification for a Cyrillic look-alike of an address are refused: no token, no e-mail', async () => {
    const paypal = await createPasswordIdentity(app, 'paypal.script@example.com');
    const received = smtp.received.length;
    for (const email of ['p\u0430ypal.script@example.com', 'paypal.s\u0441ript@example.com', 'paypal.script@\u0435xample.com']) {
      const recovery = await submitLink('recovery', email);
      expect(recovery.status, email).toBe(400);
      expect(messageIds(recovery.flow), email).toContain(4000004);
      const verification = await submitLink('verification', email);
      expect(verification.status, email).toBe(400);
    }
    expect(await tokensOf(paypal, 'identity_recovery_tokens')).toBe(0);
    expect(await tokensOf(paypal, 'identity_verification_tokens')).toBe(0);
    expect(smtp.received.length).toBe(received);
  });

  it('an all-Cyrillic address and a Latin and Japanese one register, and a recovery for them is accepted', async () => {
    for (const email of ['\u0438\u0432\u0430\u043d@\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444', 'taro.\u592a\u90ce-2@example.jp']) {
      const identities = await identityCount();
      expect((await register(email)).status, email).toBe(200);
      expect(await identityCount()).toBe(identities + 1);
      expect((await submitLink('recovery', email)).status, email).toBe(200);
    }
  });
});

describe('login with a look-alike identifier', () => {
  it(`${KELVIN}ate@example.com with kate's password is refused; kate@example.com logs in`, async () => {
    await createPasswordIdentity(app, 'kate.login@example.com');
    const lookalike = await apiLogin(app, `${KELVIN}ate.login@example.com`, GOOD_PASSWORD);
    expect(lookalike.status).toBe(400);
    const fullWidth = await apiLogin(app, '\uff4bate.login@example.com', GOOD_PASSWORD);
    expect(fullWidth.status).toBe(400);
    const real = await apiLogin(app, 'Kate.Login@example.com', GOOD_PASSWORD);
    expect(real.status, real.text).toBe(200);
  });
});
