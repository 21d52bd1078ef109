import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { CourierConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { Courier } from './courier.js';
import { CourierMessagesRepository, type ClaimedMessage } from './courier-messages.repository.js';
import { retryDelayMs } from './retry-delay.js';
import { SmtpMailer } from './smtp-mailer.js';

/** Messages claimed per round; a round repeats at once while it finds a full batch. */
const BATCH_SIZE = 20;
/**
 * How long a claimed message is reserved for the instance that claimed it: longer than one attempt can
 * take (SMTP timeouts 10 s + 10 s + 30 s), so no other instance retries a message still being sent.
 */
export const CLAIM_LEASE_MS = 120_000;

/**
 * Delivers the outbox: every COURIER_DISPATCH_INTERVAL_MS it claims due messages and hands them to the
 * SMTP server one by one. A failed attempt is retried with exponential backoff
 * (COURIER_RETRY_BASE_DELAY_MS, doubling) until COURIER_MAX_ATTEMPTS, then the message is abandoned.
 * The queue lives in the database, so a restart loses nothing, and rows are claimed with SKIP LOCKED,
 * so several instances share the work without sending a message twice. Idle without COURIER_SMTP_URL.
 * Stops before the database pool closes; an attempt in progress is allowed to finish.
 */
@Injectable()
export class CourierDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Courier');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    @InjectConfig('courier') private readonly config: CourierConfig,
    private readonly messages: CourierMessagesRepository,
    private readonly courier: Courier,
    private readonly mailer: SmtpMailer,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.mailer.configured) {
      this.logger.warn('COURIER_SMTP_URL is not set: e-mails are queued but not sent');
      return;
    }
    this.timer = setInterval(() => void this.tick(), this.config.dispatchIntervalMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One dispatch run (also what each tick does); resolves when every claimed message was attempted. */
  async dispatch(): Promise<void> {
    for (;;) {
      const claimed = await this.messages.claimDue(BATCH_SIZE, CLAIM_LEASE_MS);
      for (const message of claimed) await this.attempt(message);
      if (claimed.length < BATCH_SIZE || this.timer === undefined) return;
    }
  }

  private async tick(): Promise<void> {
    // One run at a time: a slow SMTP server does not get a second run stacked on it.
    if (this.running !== undefined) return;
    this.running = this.dispatch()
      .catch((error: unknown) => {
        this.logger.warn({ msg: 'courier run failed', error: error instanceof Error ? error.message : String(error) });
      })
      .finally(() => {
        this.running = undefined;
      });
    await this.running;
  }

  private async attempt(message: ClaimedMessage): Promise<void> {
    let bodies: { text: string; html: string };
    try {
      bodies = this.courier.openBodies(message.id, message.bodyText, message.bodyHtml);
    } catch (error) {
      // Sealed under a secret no longer configured: it can never be sent.
      await this.messages.markAbandoned(message.id, `the body cannot be opened: ${(error as Error).message}`);
      this.logger.error({ msg: 'e-mail abandoned', message_id: message.id, template: message.template, reason: 'body cannot be opened' });
      return;
    }
    try {
      await this.mailer.send({ to: message.recipient, subject: message.subject, ...bodies });
    } catch (error) {
      await this.failed(message, error instanceof Error ? error.message : String(error));
      return;
    }
    await this.messages.markSent(message.id);
    this.logger.log({ msg: 'e-mail sent', message_id: message.id, template: message.template, attempt: message.sendCount });
  }

  private async failed(message: ClaimedMessage, reason: string): Promise<void> {
    if (message.sendCount >= this.config.maxAttempts) {
      await this.messages.markAbandoned(message.id, reason);
      this.logger.error({
        msg: 'e-mail abandoned',
        message_id: message.id,
        template: message.template,
        attempts: message.sendCount,
        reason,
      });
      return;
    }
    const next = new Date(Date.now() + retryDelayMs(message.sendCount, this.config.retryBaseDelayMs));
    await this.messages.markFailed(message.id, reason, next);
    this.logger.warn({ msg: 'e-mail attempt failed', message_id: message.id, attempt: message.sendCount, next_attempt_at: next, reason });
  }
}
