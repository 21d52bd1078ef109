import { describe, expect, it } from 'vitest';
import { SecretBoxError } from '../../common/crypto/secret-box.error.js';
import type { CourierConfig } from '../../config/app-config.js';
import type { Courier } from './courier.js';
import { CourierDispatcher } from './courier-dispatcher.js';
import type { ClaimedMessage, CourierMessagesRepository } from './courier-messages.repository.js';
import type { OutgoingEmail, SmtpMailer } from './smtp-mailer.js';

interface Outcome {
  readonly sent: string[];
  readonly failed: { id: string; error: string; delayMs: number }[];
  readonly abandoned: { id: string; error: string }[];
  readonly delivered: OutgoingEmail[];
}

function message(id: string, sendCount: number): ClaimedMessage {
  return {
    id,
    recipient: `${id}@example.com`,
    template: 'recovery_valid',
    subject: 'S',
    bodyText: 'sealed-t',
    bodyHtml: 'sealed-h',
    sendCount,
  };
}

function dispatcher(
  batches: ClaimedMessage[][],
  send: (email: OutgoingEmail) => Promise<void>,
  open: (id: string) => { text: string; html: string } = () => ({ text: 'T', html: 'H' }),
): { dispatcher: CourierDispatcher; outcome: Outcome } {
  const outcome: Outcome = { sent: [], failed: [], abandoned: [], delivered: [] };
  const repository = {
    claimDue: async () => batches.shift() ?? [],
    markSent: async (id: string) => void outcome.sent.push(id),
    markFailed: async (id: string, error: string, next: Date) =>
      void outcome.failed.push({ id, error, delayMs: next.getTime() - Date.now() }),
    markAbandoned: async (id: string, error: string) => void outcome.abandoned.push({ id, error }),
  } as unknown as CourierMessagesRepository;
  const courier = { openBodies: (id: string) => open(id) } as unknown as Courier;
  const mailer = {
    configured: true,
    send: async (email: OutgoingEmail) => {
      await send(email);
      outcome.delivered.push(email);
    },
  } as unknown as SmtpMailer;
  const config = { dispatchIntervalMs: 1000, maxAttempts: 3, retryBaseDelayMs: 1000 } as CourierConfig;
  return { dispatcher: new CourierDispatcher(config, repository, courier, mailer), outcome };
}

describe('CourierDispatcher', () => {
  it('hands the opened bodies to the SMTP server and marks the message sent', async () => {
    const { dispatcher: subject, outcome } = dispatcher([[message('a', 1)]], async () => {});
    await subject.dispatch();
    expect(outcome.sent).toEqual(['a']);
    expect(outcome.delivered).toEqual([{ to: 'a@example.com', subject: 'S', text: 'T', html: 'H' }]);
  });

  it('puts a failed message back with exponential backoff while attempts remain', async () => {
    const refuse = async (): Promise<void> => {
      throw new Error('451 try again later');
    };
    const { dispatcher: subject, outcome } = dispatcher([[message('a', 1), message('b', 2)]], refuse);
    await subject.dispatch();
    expect(outcome.failed.map(({ id, error }) => ({ id, error }))).toEqual([
      { id: 'a', error: '451 try again later' },
      { id: 'b', error: '451 try again later' },
    ]);
    expect(outcome.failed[0]!.delayMs).toBeGreaterThan(900);
    expect(outcome.failed[0]!.delayMs).toBeLessThanOrEqual(1000);
    expect(outcome.failed[1]!.delayMs).toBeGreaterThan(1900);
    expect(outcome.sent).toEqual([]);
  });

  it('abandons a message whose last allowed attempt failed', async () => {
    const { dispatcher: subject, outcome } = dispatcher([[message('a', 3)]], async () => {
      throw new Error('550 no such user');
    });
    await subject.dispatch();
    expect(outcome.abandoned).toEqual([{ id: 'a', error: '550 no such user' }]);
    expect(outcome.failed).toEqual([]);
  });

  it('abandons, without trying to send, a message whose bodies can no longer be opened', async () => {
    const { dispatcher: subject, outcome } = dispatcher(
      [[message('a', 1)]],
      async () => {},
      () => {
        throw new SecretBoxError('unknown_secret', 'sealed under a secret that is not configured');
      },
    );
    await subject.dispatch();
    expect(outcome.abandoned.map(({ id }) => id)).toEqual(['a']);
    expect(outcome.delivered).toEqual([]);
  });
});
