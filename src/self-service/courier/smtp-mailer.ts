import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import type { CourierConfig } from '../../config/app-config.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';

/** One e-mail as the SMTP server gets it. */
export interface OutgoingEmail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/**
 * The SMTP side of the courier (nodemailer), built from COURIER_SMTP_URL. Short timeouts: an attempt
 * must end well within the dispatcher's lease on the message (see CourierMessagesRepository).
 */
@Injectable()
export class SmtpMailer implements OnApplicationShutdown {
  private readonly transporter: Transporter | undefined;
  private readonly from: { name: string; address: string } | string;

  constructor(@InjectConfig('courier') courier: CourierConfig) {
    this.from = courier.fromName === undefined ? courier.fromAddress : { name: courier.fromName, address: courier.fromAddress };
    const smtp = courier.smtp;
    this.transporter =
      smtp === undefined
        ? undefined
        : createTransport({
            host: smtp.host,
            port: smtp.port,
            secure: smtp.secure,
            ignoreTLS: smtp.disableStartTls,
            auth: smtp.username === undefined ? undefined : { user: smtp.username, pass: smtp.password ?? '' },
            tls: { rejectUnauthorized: !smtp.skipTlsVerify },
            connectionTimeout: 10_000,
            greetingTimeout: 10_000,
            socketTimeout: 30_000,
          });
  }

  /** False when COURIER_SMTP_URL is not set: messages then stay queued. */
  get configured(): boolean {
    return this.transporter !== undefined;
  }

  /** Resolves once the server accepted the message; rejects with nodemailer's error otherwise. */
  async send(email: OutgoingEmail): Promise<void> {
    if (this.transporter === undefined) throw new Error('COURIER_SMTP_URL is not set');
    await this.transporter.sendMail({ from: this.from, to: email.to, subject: email.subject, text: email.text, html: email.html });
  }

  onApplicationShutdown(): void {
    this.transporter?.close();
  }
}
