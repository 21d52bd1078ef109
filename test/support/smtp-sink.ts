import { simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';
import { freePort } from '../../src/common/net/free-port.js';

/** One e-mail the sink accepted, parsed. */
export interface ReceivedEmail {
  readonly to: string;
  readonly from: { readonly name: string; readonly address: string };
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/**
 * A real SMTP server for tests (`smtp-server`, messages parsed with `mailparser`) on 127.0.0.1. It can
 * refuse the next N deliveries with a temporary error (451), as a struggling mail server would.
 * `url` is what COURIER_SMTP_URL should be set to.
 */
export class SmtpSink {
  readonly received: ReceivedEmail[] = [];
  /** Deliveries refused so far. */
  refusedCount = 0;
  private refusing = 0;
  private waiters: Array<() => void> = [];

  private readonly server: SMTPServer;

  private constructor(readonly port: number) {
    this.server = new SMTPServer({
      disabledCommands: ['AUTH', 'STARTTLS'],
      authOptional: true,
      logger: false,
      onRcptTo: (_address: SMTPServerAddress, _session: SMTPServerSession, callback: (error?: Error | null) => void) => {
        if (this.refusing > 0) {
          this.refusing -= 1;
          this.refusedCount += 1;
          callback(Object.assign(new Error('Mailbox temporarily unavailable, try again later'), { responseCode: 451 }));
          return;
        }
        callback();
      },
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then((parsed) => {
            const to = Array.isArray(parsed.to) ? parsed.to.map((entry) => entry.text).join(', ') : (parsed.to?.text ?? '');
            this.accept({
              to,
              from: { name: parsed.from?.value[0]?.name ?? '', address: parsed.from?.value[0]?.address ?? '' },
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
            });
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
  }

  /** Listens on 127.0.0.1, on `port` or a free one. */
  static async start(port?: number): Promise<SmtpSink> {
    const sink = new SmtpSink(port ?? (await freePort()));
    await new Promise<void>((resolve, reject) => {
      sink.server.once('error', reject);
      sink.server.listen(sink.port, '127.0.0.1', () => resolve());
    });
    return sink;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Refuse the next `count` deliveries with 451. */
  refuseNext(count: number): void {
    this.refusing = count;
  }

  /** The first e-mail to `recipient` (any case: mail libraries lower-case domains) received already or within `timeoutMs`, satisfying `match`. */
  async waitFor(recipient: string, match: (email: ReceivedEmail) => boolean = () => true, timeoutMs = 15_000): Promise<ReceivedEmail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.to(recipient).find(match);
      if (found !== undefined) return found;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`no e-mail to ${recipient} within ${timeoutMs} ms (received: ${this.received.map((e) => e.to).join('; ')})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 250));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Every e-mail received so far for `recipient`. */
  to(recipient: string): ReceivedEmail[] {
    return this.received.filter((email) => email.to.toLowerCase().includes(recipient.toLowerCase()));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private accept(email: ReceivedEmail): void {
    this.received.push(email);
    for (const wake of this.waiters.splice(0)) wake();
  }
}

/** The first link to `path` in an e-mail's text body. */
export function linkIn(email: ReceivedEmail, path: string): string {
  const match = new RegExp(`https?://[^\\s"<>]*${path.replace(/[/?]/g, '\\$&')}\\?[^\\s"<>]+`).exec(email.text);
  if (match === null) throw new Error(`no link to ${path} in: ${email.text}`);
  return match[0];
}
