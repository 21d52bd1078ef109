import { Module } from '@nestjs/common';
import { Courier } from './courier.js';
import { CourierDispatcher } from './courier-dispatcher.js';
import { CourierMessagesRepository } from './courier-messages.repository.js';
import { EmailTemplates } from './email-templates.js';
import { SmtpMailer } from './smtp-mailer.js';

/** The e-mail outbox and its dispatcher; flows queue through `Courier`. */
@Module({
  providers: [Courier, CourierDispatcher, CourierMessagesRepository, EmailTemplates, SmtpMailer],
  exports: [Courier],
})
export class CourierModule {}
