import { queryDatabase } from './database.js';

/**
 * Time passing for stored rows: tests that need something expired or old move its moment into the
 * past here, one named function per kind of row, instead of writing SQL of their own. `by` is a
 * PostgreSQL interval ('2 minutes', '31 minutes', '400 days'); the moment becomes now() minus it.
 */

interface Database {
  readonly databaseUrl: string;
}

type Filter = Readonly<Record<string, string | boolean>>;

async function moveIntoPast(db: Database, table: string, column: string, by: string, filter: Filter = {}): Promise<void> {
  const names = Object.keys(filter);
  const where = names.length === 0 ? '' : ` WHERE ${names.map((name, index) => `${name} = $${index + 2}`).join(' AND ')}`;
  await queryDatabase(db.databaseUrl, `UPDATE ${table} SET ${column} = now() - $1::interval${where}`, [by, ...Object.values(filter)]);
}

/** A self-service flow (login, registration, recovery, verification, settings) past its expiry. */
export const expireFlow = (db: Database, flowId: string, by = '2 minutes'): Promise<void> =>
  moveIntoPast(db, 'self_service_flows', 'expires_at', by, { id: flowId });

/** A self-service session past its expiry. */
export const expireSession = (db: Database, sessionId: string, by = '1 second'): Promise<void> =>
  moveIntoPast(db, 'self_service_sessions', 'expires_at', by, { id: sessionId });

/** A self-service session whose sign-in lies `by` in the past (privileged settings need a recent one). */
export const ageSessionSignIn = (db: Database, sessionId: string, by: string): Promise<void> =>
  moveIntoPast(db, 'self_service_sessions', 'authenticated_at', by, { id: sessionId });

/** The recovery link or code of a flow past its expiry. */
export const expireRecoveryTokens = (db: Database, flowId: string, by = '1 minute'): Promise<void> =>
  moveIntoPast(db, 'identity_recovery_tokens', 'expires_at', by, { flow_id: flowId });

/** The verification link of a flow past its expiry. */
export const expireVerificationTokens = (db: Database, flowId: string, by = '1 minute'): Promise<void> =>
  moveIntoPast(db, 'identity_verification_tokens', 'expires_at', by, { flow_id: flowId });

/** An OAuth2 access token (by signature) past its expiry. */
export const expireAccessToken = (db: Database, signature: string, by = '1 second'): Promise<void> =>
  moveIntoPast(db, 'oauth2_access_tokens', 'expires_at', by, { signature });

/** An OAuth2 refresh token (by signature) past its expiry. */
export const expireRefreshToken = (db: Database, signature: string, by = '1 second'): Promise<void> =>
  moveIntoPast(db, 'oauth2_refresh_tokens', 'expires_at', by, { signature });

/** An authorization code (by signature) past its expiry. */
export const expireAuthorizationCode = (db: Database, signature: string, by = '1 second'): Promise<void> =>
  moveIntoPast(db, 'oauth2_authorization_codes', 'expires_at', by, { signature });

/** Login requests (all, or one client's) made `by` ago. */
export const ageLoginRequests = (db: Database, by: string, filter: { client_id?: string } = {}): Promise<void> =>
  moveIntoPast(db, 'oauth2_login_requests', 'requested_at', by, filter as Filter);

/** Consent requests (all, one subject's, or the unused ones) made `by` ago. */
export const ageConsentRequests = (db: Database, by: string, filter: { subject?: string; was_used?: boolean } = {}): Promise<void> =>
  moveIntoPast(db, 'oauth2_consent_requests', 'requested_at', by, filter as Filter);

/** Logout requests made `by` ago. */
export const ageLogoutRequests = (db: Database, by: string): Promise<void> =>
  moveIntoPast(db, 'oauth2_logout_requests', 'requested_at', by);

/** Remembered OAuth2 authentications (all, or one subject's) that happened `by` ago. */
export const ageAuthentications = (db: Database, by: string, filter: { subject?: string } = {}): Promise<void> =>
  moveIntoPast(db, 'oauth2_authentication_sessions', 'authenticated_at', by, filter as Filter);

/** Remembered OAuth2 authentications past their expiry. */
export const expireAuthentications = (db: Database, by = '1 second'): Promise<void> =>
  moveIntoPast(db, 'oauth2_authentication_sessions', 'expires_at', by);

/** A directory-sync connection's previous webhook secret past its grace period. */
export const endSecretGrace = (db: Database, connectionId: string, by = '1 second'): Promise<void> =>
  moveIntoPast(db, 'directory_sync_connections', 'previous_secret_expires_at', by, { id: connectionId });
