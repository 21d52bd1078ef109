import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, queryDatabase } from '../../support/database.js';
import { HttpClient } from '../../support/http.js';
import { ensureBuilt, freePort, runService, serviceEnv, tempDataDir, type ServiceProcess } from '../../support/process.js';
import { GOOD_PASSWORD } from '../../support/self-service.js';
import { SmtpSink } from '../../support/smtp-sink.js';

const ADMIN_TOKEN = 'lk_admin_smtp_down_test_0123456789ab';

interface MessageRow {
  status: string;
  send_count: number;
  last_error: string | null;
  /** Claimed by a dispatcher for an attempt: its next attempt was pushed past the attempt's lease. */
  leased: boolean;
}

/**
 * The SMTP server down while recovery e-mails are requested: the request still succeeds, the e-mail
 * waits in the database with its failed attempt recorded, and it goes out once the server is back,
 * whether the same process is still running or it was SIGKILLed and started again meanwhile.
 */
describe('SMTP down, then back', () => {
  let dataDir: string;
  let databaseUrl: string;
  let env: Record<string, string>;
  let smtpPort: number;
  let publicApi: HttpClient;
  let admin: HttpClient;

  beforeAll(async () => {
    ensureBuilt();
    dataDir = await tempDataDir();
    databaseUrl = await freshDatabase();
    smtpPort = await freePort();
    env = await serviceEnv(
      { dataDir, databaseUrl, adminToken: ADMIN_TOKEN },
      {
        LOG_LEVEL: 'silent',
        COURIER_SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        COURIER_DISPATCH_INTERVAL_MS: '50',
        // A second between the first attempts: the kill below lands between two attempts, not during
        // one (a process killed mid-attempt leaves the message leased for two minutes, by design).
        COURIER_RETRY_BASE_DELAY_MS: '1000',
        // Enough attempts that the message is still queued when the server comes back.
        COURIER_MAX_ATTEMPTS: '10',
      },
    );
    publicApi = new HttpClient(`http://127.0.0.1:${env['PUBLIC_PORT']}`);
    admin = new HttpClient(`http://127.0.0.1:${env['ADMIN_PORT']}`, ADMIN_TOKEN);
  }, 180_000);

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  async function start(): Promise<ServiceProcess> {
    const service = runService(env);
    await service.waitForOutput(/is ready/, 60_000);
    return service;
  }

  async function requestRecovery(email: string): Promise<void> {
    const created = await admin.post('/identities', {
      json: { traits: { email }, credentials: { password: { config: { password: GOOD_PASSWORD } } } },
    });
    expect(created.status, created.text).toBe(201);
    const init = await publicApi.get<{ id: string }>('/self-service/recovery/api');
    expect(init.status, init.text).toBe(200);
    const submit = await publicApi.post(`/self-service/recovery?flow=${init.body.id}`, { json: { email } });
    expect(submit.status, submit.text).toBe(200);
  }

  async function messageTo(recipient: string): Promise<MessageRow | undefined> {
    const rows = await queryDatabase<MessageRow>(
      databaseUrl,
      `SELECT status, send_count, last_error, next_attempt_at > now() + interval '60 seconds' AS leased
       FROM courier_messages WHERE recipient = $1`,
      [recipient],
    );
    return rows[0];
  }

  /** Polls until the message to `recipient` satisfies `done` (the test timeout bounds the wait). */
  async function until(recipient: string, done: (row: MessageRow) => boolean): Promise<MessageRow> {
    for (;;) {
      const row = await messageTo(recipient);
      if (row !== undefined && done(row)) return row;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const failedOnce = (row: MessageRow): boolean => row.send_count >= 1 && row.last_error !== null;
  const betweenAttempts = (row: MessageRow): boolean => failedOnce(row) && !row.leased;

  it('sends the queued e-mail once the server is up, from the same process', async () => {
    const service = await start();
    try {
      await requestRecovery('same-process@example.com');
      expect((await until('same-process@example.com', failedOnce)).status).toBe('queued');
      const sink = await SmtpSink.start(smtpPort);
      try {
        const mail = await sink.waitFor('same-process@example.com');
        expect(mail.subject).toBe('Recover access to your account');
        const row = await until('same-process@example.com', (current) => current.status === 'sent');
        expect(row.last_error).toBeNull();
        expect(sink.to('same-process@example.com')).toHaveLength(1);
      } finally {
        await sink.close();
      }
    } finally {
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
    }
  }, 60_000);

  it('sends the queued e-mail after the process was killed and started again', async () => {
    const first = await start();
    try {
      await requestRecovery('after-kill@example.com');
      expect((await until('after-kill@example.com', betweenAttempts)).status).toBe('queued');
    } finally {
      first.child.kill('SIGKILL');
      await first.exited;
    }
    const sink = await SmtpSink.start(smtpPort);
    const second = await start();
    try {
      const mail = await sink.waitFor('after-kill@example.com');
      expect(mail.subject).toBe('Recover access to your account');
      const row = await until('after-kill@example.com', (current) => current.status === 'sent');
      expect(row.last_error).toBeNull();
      expect(sink.to('after-kill@example.com')).toHaveLength(1);
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
      await sink.close();
    }
  }, 60_000);
});
