import { Column, ForeignKey, PrimaryColumn } from 'typeorm';
import type { StoredOidcContext } from './stored-oidc-context.js';
import type { StoredRejection } from './stored-rejection.js';

/**
 * The columns login and consent requests share: the hashed challenge, verifier and CSRF value, the
 * client (ON DELETE CASCADE), what the authorization request asked for, and the app's answer. A
 * function of the table, because the key and constraint names carry it.
 */
export function challengeRequestColumns(table: string) {
  abstract class ChallengeRequestColumns {
    @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: `PK_${table}` })
    id!: string;

    @Column({ name: 'challenge_hash', type: 'char', length: 64 })
    challengeHash!: string;

    /** Sealed (AES-GCM under SECRETS_SYSTEM): the admin API shows the challenge again. */
    @Column({ name: 'challenge_sealed', type: 'text' })
    challengeSealed!: string;

    /** Set when the app accepts or rejects: the verifier exists only from then on. */
    @Column({ name: 'verifier_hash', type: 'char', length: 64, nullable: true })
    verifierHash!: string | null;

    @Column({ name: 'csrf_hash', type: 'char', length: 64 })
    csrfHash!: string;

    @Column({ name: 'client_id', type: 'varchar', length: 255 })
    @ForeignKey('clients', { name: `FK_${table}_client`, onDelete: 'CASCADE' })
    clientId!: string;

    @Column({ name: 'request_url', type: 'text' })
    requestUrl!: string;

    @Column({ name: 'requested_scope', type: 'jsonb' })
    requestedScope!: string[];

    @Column({ name: 'requested_audience', type: 'jsonb' })
    requestedAudience!: string[];

    @Column({ name: 'oidc_context', type: 'jsonb' })
    oidcContext!: StoredOidcContext;

    /** True when something remembered answers the request (the app may accept at once). */
    @Column({ type: 'boolean' })
    skip!: boolean;

    @Column({ name: 'requested_at', type: 'timestamptz' })
    requestedAt!: Date;

    @Column({ name: 'handled_at', type: 'timestamptz', nullable: true })
    handledAt!: Date | null;

    @Column({ type: 'boolean' })
    remember!: boolean;

    @Column({ type: 'text' })
    acr!: string;

    @Column({ type: 'jsonb' })
    amr!: string[];

    /** Free JSON from the login app, handed on to the consent app. */
    @Column({ type: 'jsonb' })
    context!: object;

    @Column({ name: 'force_subject_identifier', type: 'varchar', length: 255 })
    forceSubjectIdentifier!: string;

    /** The app's rejection; null when accepted or not handled yet. */
    @Column({ type: 'jsonb', nullable: true })
    error!: StoredRejection | null;

    /** True once the browser redeemed the verifier. */
    @Column({ name: 'was_used', type: 'boolean' })
    wasUsed!: boolean;
  }
  return ChallengeRequestColumns;
}
