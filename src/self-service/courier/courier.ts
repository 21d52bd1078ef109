import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SecretBox } from '../../common/crypto/secret-box.js';
import type { CourierConfig, SecretsConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { CourierMessageStatus } from './courier-message-status.js';
import { CourierMessagesRepository } from './courier-messages.repository.js';
import type { Email } from './email-template.js';
import { EmailTemplates } from './email-templates.js';
import { CourierMessageEntity } from './entities/courier-message.entity.js';

/** SecretBox purpose of the sealed bodies; the row id is the associated data. */
export const COURIER_BODY_PURPOSE = 'courier/message-body';

/**
 * The courier's API for the flows: render an e-mail and put it in the outbox, in the caller's
 * transaction when one is given. Nothing is sent here (no SMTP latency in a request); the
 * dispatcher delivers. Without COURIER_SMTP_URL the message stays queued, and one log line says so,
 * naming the message and template but never the body, which holds the link and its token.
 */
@Injectable()
export class Courier {
  private readonly logger = new Logger('Courier');
  private readonly box: SecretBox;
  private readonly smtpConfigured: boolean;

  constructor(
    @InjectConfig('secrets') secrets: SecretsConfig,
    @InjectConfig('courier') courier: CourierConfig,
    private readonly templates: EmailTemplates,
    private readonly messages: CourierMessagesRepository,
  ) {
    this.box = new SecretBox(secrets.system, COURIER_BODY_PURPOSE);
    this.smtpConfigured = courier.smtp !== undefined;
  }

  /** Returns the message id. */
  async queue(email: Email, manager?: EntityManager): Promise<string> {
    const rendered = this.templates.render(email);
    const now = new Date();
    const id = randomUUID();
    const message = Object.assign(new CourierMessageEntity(), {
      id,
      recipient: email.recipient,
      template: email.template,
      subject: rendered.subject,
      bodyText: this.box.seal(rendered.text, id),
      bodyHtml: this.box.seal(rendered.html, id),
      status: CourierMessageStatus.Queued,
      sendCount: 0,
      nextAttemptAt: now,
      lastError: null,
      createdAt: now,
      updatedAt: now,
    });
    await this.messages.insert(message, manager);
    if (!this.smtpConfigured) {
      this.logger.log({ msg: 'e-mail queued; COURIER_SMTP_URL is not set, so it stays queued', message_id: id, template: email.template });
    }
    return id;
  }

  /** The bodies of a claimed message, for the dispatcher. Throws SecretBoxError when they cannot be opened. */
  openBodies(id: string, sealedText: string, sealedHtml: string): { text: string; html: string } {
    return { text: this.box.open(sealedText, id).toString('utf8'), html: this.box.open(sealedHtml, id).toString('utf8') };
  }
}
