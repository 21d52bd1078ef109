import { Column, ForeignKey, PrimaryColumn, type ValueTransformer } from 'typeorm';
import type { TokenSession } from '../token-session.js';

/** Scopes as the space-separated list the column holds ('' for none). */
const SCOPE: ValueTransformer = {
  to: (scope: readonly string[] | undefined) => scope?.join(' '),
  from: (stored: string | null) => (stored === null || stored === '' ? [] : stored.split(' ')),
};

/**
 * The columns every token table shares (codes, access and refresh tokens): the HMAC part of the token,
 * its grant family, client, consent, subject and grant. A function of the table, because the key and
 * constraint names carry it. Client and consent are other contexts' rows: plain id columns whose foreign
 * keys name their tables, so that this context imports no other context's entities; the row goes with
 * either (ON DELETE CASCADE).
 */
export function tokenRowColumns(table: string) {
  abstract class TokenRowColumns {
    /** The HMAC part of an opaque token (or the SHA-256 of a JWT access token's signature). */
    @PrimaryColumn({ name: 'signature', type: 'varchar', length: 64, primaryKeyConstraintName: `PK_${table}` })
    signature!: string;

    /** The grant family: every code, access and refresh token that came from one authorization. */
    @Column({ name: 'request_id', type: 'uuid' })
    requestId!: string;

    @Column({ name: 'client_id', type: 'varchar', length: 255 })
    @ForeignKey('clients', { name: `FK_${table}_client`, onDelete: 'CASCADE' })
    clientId!: string;

    /** The consent the tokens were granted by; null for client_credentials. */
    @Column({ name: 'consent_id', type: 'uuid', nullable: true })
    @ForeignKey('oauth2_consent_requests', { name: `FK_${table}_consent`, onDelete: 'CASCADE' })
    consentId!: string | null;

    /** The local subject (the client_id for client_credentials). */
    @Column({ name: 'subject', type: 'text' })
    subject!: string;

    /** Granted scopes, stored joined by single spaces. */
    @Column({ name: 'scope', type: 'text', transformer: SCOPE })
    scope!: readonly string[];

    @Column({ name: 'audience', type: 'jsonb' })
    audience!: readonly string[];

    @Column({ name: 'session', type: 'jsonb' })
    session!: TokenSession;

    @Column({ name: 'issued_at', type: 'timestamptz' })
    issuedAt!: Date;

    @Column({ name: 'expires_at', type: 'timestamptz' })
    expiresAt!: Date;
  }
  return TokenRowColumns;
}
