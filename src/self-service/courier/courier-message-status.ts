/** Where a queued e-mail is in its life. */
export enum CourierMessageStatus {
  /** Waiting for its next attempt (`next_attempt_at`), or for an SMTP server to be configured. */
  Queued = 'queued',
  /** Accepted by the SMTP server. */
  Sent = 'sent',
  /** Given up after COURIER_MAX_ATTEMPTS failed attempts (or when it can no longer be decrypted). */
  Abandoned = 'abandoned',
}
