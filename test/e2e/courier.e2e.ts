import { describe, expect, it } from 'vitest';
import { freePort } from '../../src/common/net/free-port.js';
import { bootApp, TEST_SYSTEM_SECRET, type TestApp } from '../support/app.js';
import { freshDatabase, queryDatabase } from '../support/database.js';
import { createPasswordIdentity, type FlowShape } from '../support/self-service.js';
import { linkIn, SmtpSink } from '../support/smtp-sink.js';

interface MessageRow {
  recipient: string;
  template: string;
  status: string;
  send_count: number;
  last_error: string | null;
}

/** Queues a recovery e-mail through the public API (an unknown address gets the "invalid" one). */
async function queueRecoveryEmail(app: TestApp, email: string): Promise<void> {
  const init = await app.public.get<FlowShape>('/self-service/recovery/api');
  const submit = await app.public.post(`/self-service/recovery?flow=${init.body.id}`, { json: { email } });
  expect(submit.status).toBe(200);
}

async function messageTo(app: { databaseUrl: string }, recipient: string): Promise<MessageRow | undefined> {
  const rows = await queryDatabase<MessageRow>(
    app.databaseUrl,
    'SELECT recipient, template, status, send_count, last_error FROM courier_messages WHERE recipient = $1',
    [recipient],
  );
  return rows[0];
}

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const FAST = { COURIER_DISPATCH_INTERVAL_MS: '50', COURIER_RETRY_BASE_DELAY_MS: '50' };

describe('courier', () => {
  it('retries a refused delivery with backoff and sends it once the SMTP server accepts', async () => {
    const smtp = await SmtpSink.start();
    smtp.refuseNext(2);
    const app = await bootApp({ ...FAST, COURIER_SMTP_URL: smtp.url, COURIER_MAX_ATTEMPTS: '5' });
    try {
      await createPasswordIdentity(app, 'retry@example.com');
      await queueRecoveryEmail(app, 'retry@example.com');
      const mail = await smtp.waitFor('retry@example.com');
      expect(mail.subject).toBe('Recover access to your account');
      expect(linkIn(mail, '/self-service/recovery')).toContain('token=');
      expect(smtp.refusedCount).toBe(2);
      const row = await until(async () => {
        const current = await messageTo(app, 'retry@example.com');
        return current?.status === 'sent' ? current : undefined;
      });
      expect(row).toMatchObject({ template: 'recovery_valid', send_count: 3, last_error: null });
      expect(smtp.to('retry@example.com')).toHaveLength(1);
    } finally {
      await app.close();
      await smtp.close();
    }
  });

  it('abandons a message after COURIER_MAX_ATTEMPTS refused attempts, keeping the last error', async () => {
    const smtp = await SmtpSink.start();
    smtp.refuseNext(100);
    const app = await bootApp({ ...FAST, COURIER_SMTP_URL: smtp.url, COURIER_MAX_ATTEMPTS: '3' });
    try {
      await queueRecoveryEmail(app, 'hopeless@example.com');
      const row = await until(async () => {
        const current = await messageTo(app, 'hopeless@example.com');
        return current?.status === 'abandoned' ? current : undefined;
      });
      expect(row.send_count).toBe(3);
      expect(row.last_error).toContain('451');
      expect(smtp.refusedCount).toBe(3);
      expect(smtp.to('hopeless@example.com')).toHaveLength(0);
    } finally {
      await app.close();
      await smtp.close();
    }
  });

  it('keeps a message queued while the SMTP server is down and sends it from a new instance on the same database', async () => {
    const databaseUrl = await freshDatabase();
    const port = await freePort();
    const smtpUrl = `smtp://127.0.0.1:${port}`;
    const first = await bootApp({ ...FAST, COURIER_SMTP_URL: smtpUrl }, { databaseUrl });
    try {
      await createPasswordIdentity(first, 'survivor@example.com');
      await queueRecoveryEmail(first, 'survivor@example.com');
      const failed = await until(async () => {
        const current = await messageTo(first, 'survivor@example.com');
        return current !== undefined && current.send_count >= 1 && current.last_error !== null ? current : undefined;
      });
      expect(failed.status).toBe('queued');
    } finally {
      await first.close();
    }

    const smtp = await SmtpSink.start(port);
    const second = await bootApp({ ...FAST, COURIER_SMTP_URL: smtpUrl }, { databaseUrl });
    try {
      const mail = await smtp.waitFor('survivor@example.com');
      expect(mail.subject).toBe('Recover access to your account');
      const row = await until(async () => {
        const current = await messageTo(second, 'survivor@example.com');
        return current?.status === 'sent' ? current : undefined;
      });
      expect(row.last_error).toBeNull();
    } finally {
      await second.close();
      await smtp.close();
    }
  });

  it('without COURIER_SMTP_URL keeps messages queued, untried, until an instance with SMTP starts', async () => {
    const databaseUrl = await freshDatabase();
    const first = await bootApp({ ...FAST }, { databaseUrl });
    try {
      await queueRecoveryEmail(first, 'patient@example.com');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await messageTo(first, 'patient@example.com')).toMatchObject({
        status: 'queued',
        send_count: 0,
        template: 'recovery_invalid',
      });
    } finally {
      await first.close();
    }
    const smtp = await SmtpSink.start();
    const second = await bootApp({ ...FAST, COURIER_SMTP_URL: smtp.url }, { databaseUrl });
    try {
      const mail = await smtp.waitFor('patient@example.com');
      expect(mail.subject).toBe('Account access attempted');
    } finally {
      await second.close();
      await smtp.close();
    }
  });

  it('two instances sharing the database send each message exactly once', async () => {
    const databaseUrl = await freshDatabase();
    const smtp = await SmtpSink.start();
    const env = { ...FAST, COURIER_DISPATCH_INTERVAL_MS: '20', COURIER_SMTP_URL: smtp.url };
    const first = await bootApp(env, { databaseUrl });
    const second = await bootApp(env, { databaseUrl });
    try {
      const recipients = Array.from({ length: 30 }, (_, index) => `crowd-${index}@example.com`);
      await Promise.all(recipients.map((recipient, index) => queueRecoveryEmail(index % 2 === 0 ? first : second, recipient)));
      for (const recipient of recipients) await smtp.waitFor(recipient);
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const recipient of recipients) expect(smtp.to(recipient)).toHaveLength(1);
      const rows = await queryDatabase<{ status: string; send_count: number }>(
        databaseUrl,
        'SELECT status, send_count FROM courier_messages',
      );
      expect(rows).toHaveLength(30);
      expect(rows.every((row) => row.status === 'sent' && row.send_count === 1)).toBe(true);
    } finally {
      await first.close();
      await second.close();
      await smtp.close();
    }
  });

  it('after SECRETS_SYSTEM rotates, a message queued before is still sent and its recovery link still works', async () => {
    const databaseUrl = await freshDatabase();
    const first = await bootApp({ ...FAST }, { databaseUrl });
    try {
      await createPasswordIdentity(first, 'rotated@example.com');
      await queueRecoveryEmail(first, 'rotated@example.com');
    } finally {
      await first.close();
    }
    const smtp = await SmtpSink.start();
    const rotated = `${'n'.repeat(40)},${TEST_SYSTEM_SECRET}`;
    const second = await bootApp({ ...FAST, COURIER_SMTP_URL: smtp.url, SECRETS_SYSTEM: rotated }, { databaseUrl });
    try {
      const link = new URL(linkIn(await smtp.waitFor('rotated@example.com'), '/self-service/recovery'));
      const follow = await second.public.get(`${link.pathname}${link.search}`);
      expect(follow.status).toBe(302);
      expect(new URL(follow.headers.get('location')!).pathname).toBe(new URL(second.running.config.selfService.urls.settings).pathname);
    } finally {
      await second.close();
      await smtp.close();
    }
  });

  it('puts the configured sender on every e-mail', async () => {
    const smtp = await SmtpSink.start();
    const app = await bootApp({
      ...FAST,
      COURIER_SMTP_URL: smtp.url,
      COURIER_FROM_ADDRESS: 'accounts@id.example.com',
      COURIER_FROM_NAME: 'Example Accounts',
    });
    try {
      await queueRecoveryEmail(app, 'sender@example.com');
      const mail = await smtp.waitFor('sender@example.com');
      expect(mail.from).toEqual({ name: 'Example Accounts', address: 'accounts@id.example.com' });
    } finally {
      await app.close();
      await smtp.close();
    }
  });
});
