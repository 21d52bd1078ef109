import { DataSource } from 'typeorm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConsentRequestEntity } from '../consent/entities/consent-request.entity.js';
import { AccessTokenEntity } from '../oauth/tokens/entities/access-token.entity.js';
import { FlowEntity } from '../self-service/flows/entities/flow.entity.js';
import { IdentityVerifiableAddressEntity } from '../identities/entities/identity-verifiable-address.entity.js';
import { entityRows } from './entity-rows.js';
import { ENTITIES } from './schema.js';

/** The metadata TypeORM builds at boot, without a connection. */
async function metadataOnly(): Promise<DataSource> {
  const dataSource = new DataSource({ type: 'postgres', entities: ENTITIES });
  await (dataSource as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
  return dataSource;
}

const issued = new Date('2026-01-02T03:04:05.000Z');
const expires = new Date('2026-01-02T04:04:05.000Z');

/** An access-token row as pg returns it. */
const TOKEN_ROW = {
  signature: 's'.repeat(64),
  request_id: '3b9d2a4e-1c3f-4e5a-9b7c-8d6e5f4a3b2c',
  client_id: 'app',
  consent_id: null,
  subject: 'app',
  scope: 'read write',
  audience: ['api'],
  session: {},
  issued_at: issued,
  expires_at: expires,
};

describe('entityRows', () => {
  let dataSource: DataSource;
  beforeAll(async () => {
    dataSource = await metadataOnly();
  });

  it('maps a flow row as the columns, parameters and entity the statements used before', () => {
    const rows = entityRows(dataSource, FlowEntity);
    expect(rows.columns).toBe(
      '"id", "kind", "type", "state", "active", "forced", "request_url", "return_to", "ui", "csrf_token_hash", "identity_id", "context", "issued_at", "expires_at", "created_at", "updated_at"',
    );
    expect(rows.placeholders()).toBe('$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16');
    const row = {
      id: '0b9d2a4e-1c3f-4e5a-9b7c-8d6e5f4a3b2c',
      kind: 'login',
      type: 'browser',
      state: null,
      active: 'password',
      forced: false,
      request_url: 'http://localhost/self-service/login/browser',
      return_to: null,
      ui: { action: 'http://localhost/x', method: 'POST', nodes: [] },
      csrf_token_hash: 'a'.repeat(64),
      identity_id: null,
      context: { sent: ['x'] },
      issued_at: issued,
      expires_at: expires,
      created_at: issued,
      updated_at: expires,
    };
    const flow = rows.toEntity(row);
    expect(flow).toBeInstanceOf(FlowEntity);
    expect({ ...flow }).toStrictEqual({
      id: row.id,
      kind: 'login',
      type: 'browser',
      state: null,
      active: 'password',
      forced: false,
      requestUrl: row.request_url,
      returnTo: null,
      ui: row.ui,
      csrfTokenHash: row.csrf_token_hash,
      identityId: null,
      context: row.context,
      issuedAt: issued,
      expiresAt: expires,
      createdAt: issued,
      updatedAt: expires,
    });
    expect(rows.values(flow)).toEqual([
      row.id,
      'login',
      'browser',
      null,
      'password',
      false,
      row.request_url,
      null,
      JSON.stringify(row.ui),
      row.csrf_token_hash,
      null,
      JSON.stringify(row.context),
      issued,
      expires,
      issued,
      expires,
    ]);
  });

  it('maps a consent request row with its inherited columns first, jsonb null as SQL NULL, and no relation property', () => {
    const rows = entityRows(dataSource, ConsentRequestEntity);
    expect(rows.columns).toBe(
      '"id", "challenge_hash", "challenge_sealed", "verifier_hash", "csrf_hash", "client_id", "request_url", "requested_scope", ' +
        '"requested_audience", "oidc_context", "skip", "requested_at", "handled_at", "remember", "acr", "amr", "context", ' +
        '"force_subject_identifier", "error", "was_used", "subject", "login_request_id", "login_challenge_sealed", "login_session_id", ' +
        '"authenticated_at", "granted_scope", "granted_audience", "remember_for", "session_access_token", "session_id_token"',
    );
    expect(rows.placeholders(31)).toBe(Array.from({ length: 30 }, (_, index) => `$${index + 31}`).join(', '));
    const row = {
      id: '1b9d2a4e-1c3f-4e5a-9b7c-8d6e5f4a3b2c',
      challenge_hash: 'c'.repeat(64),
      challenge_sealed: 'sealed',
      verifier_hash: null,
      csrf_hash: 'd'.repeat(64),
      client_id: 'app',
      request_url: 'http://localhost/oauth2/auth?client_id=app',
      requested_scope: ['openid'],
      requested_audience: [],
      oidc_context: {},
      skip: false,
      requested_at: issued,
      handled_at: null,
      remember: false,
      acr: '',
      amr: ['pwd'],
      context: {},
      force_subject_identifier: '',
      error: null,
      was_used: false,
      subject: 'alice',
      login_request_id: '2b9d2a4e-1c3f-4e5a-9b7c-8d6e5f4a3b2c',
      login_challenge_sealed: 'login-sealed',
      login_session_id: null,
      authenticated_at: issued,
      granted_scope: [],
      granted_audience: [],
      remember_for: 0,
      session_access_token: {},
      session_id_token: { name: 'Alice' },
    };
    const request = rows.toEntity(row);
    expect(request).toBeInstanceOf(ConsentRequestEntity);
    expect('loginSession' in request).toBe(false);
    expect({ ...request }).toStrictEqual({
      id: row.id,
      challengeHash: row.challenge_hash,
      challengeSealed: 'sealed',
      verifierHash: null,
      csrfHash: row.csrf_hash,
      clientId: 'app',
      requestUrl: row.request_url,
      requestedScope: ['openid'],
      requestedAudience: [],
      oidcContext: {},
      skip: false,
      requestedAt: issued,
      handledAt: null,
      remember: false,
      acr: '',
      amr: ['pwd'],
      context: {},
      forceSubjectIdentifier: '',
      error: null,
      wasUsed: false,
      subject: 'alice',
      loginRequestId: row.login_request_id,
      loginChallengeSealed: 'login-sealed',
      loginSessionId: null,
      authenticatedAt: issued,
      grantedScope: [],
      grantedAudience: [],
      rememberFor: 0,
      sessionAccessToken: {},
      sessionIdToken: { name: 'Alice' },
    });
    const values = rows.values(request);
    expect(values).toHaveLength(30);
    expect(values.slice(7, 10)).toEqual(['["openid"]', '[]', '{}']);
    expect(values[18]).toBeNull();
    expect(values.at(-1)).toBe('{"name":"Alice"}');
  });

  it("applies a column's transformer both ways (the tokens' space-joined scope)", () => {
    const rows = entityRows(dataSource, AccessTokenEntity);
    const row = TOKEN_ROW;
    const token = rows.toEntity(row);
    expect(token.scope).toEqual(['read', 'write']);
    expect(rows.toEntity({ ...row, scope: '' }).scope).toEqual([]);
    expect(rows.values(token)).toEqual([row.signature, row.request_id, 'app', null, 'app', 'read write', '["api"]', '{}', issued, expires]);
  });

  it('writes the SET list and parameters of an UPDATE of some columns', () => {
    const rows = entityRows(dataSource, FlowEntity);
    expect(rows.assignments(['state', 'ui', 'updatedAt'], 2)).toBe('"state" = $2, "ui" = $3, "updated_at" = $4');
    const ui = { action: '/self-service/login?flow=1', method: 'POST' as const, nodes: [] };
    expect(rows.valuesOf({ state: 'choose_method', ui, updatedAt: issued }, ['state', 'ui', 'updatedAt'])).toEqual([
      'choose_method',
      JSON.stringify(ui),
      issued,
    ]);
    expect(() => rows.assignments(['nope' as keyof FlowEntity & string], 1)).toThrow();
  });

  it('reads a batch from one JSON parameter, typed per column, with transformed values and jsonb kept as values', () => {
    const rows = entityRows(dataSource, AccessTokenEntity);
    expect(rows.recordset('$1')).toBe(
      'SELECT "signature", "request_id", "client_id", "consent_id", "subject", "scope", "audience", "session", "issued_at", "expires_at" ' +
        'FROM jsonb_to_recordset($1::jsonb) AS row("signature" character varying, "request_id" uuid, "client_id" character varying, ' +
        '"consent_id" uuid, "subject" text, "scope" text, "audience" jsonb, "session" jsonb, "issued_at" timestamp with time zone, ' +
        '"expires_at" timestamp with time zone)',
    );
    const token = rows.toEntity({ ...TOKEN_ROW, session: { extra: {} } });
    expect(JSON.parse(JSON.stringify(rows.recordsetRows([token])))).toEqual([
      { ...TOKEN_ROW, session: { extra: {} }, issued_at: issued.toISOString(), expires_at: expires.toISOString() },
    ]);
  });

  it('reads a row that travelled as JSON, parsing its timestamps, and writes the SQL that builds it', () => {
    const rows = entityRows(dataSource, IdentityVerifiableAddressEntity);
    expect(rows.qualified('a')).toBe(
      'a."id", a."identity_id", a."via", a."value", a."verified", a."verified_at", a."status", a."created_at", a."updated_at"',
    );
    expect(rows.jsonObject('a')).toBe(
      `json_build_object('id', a."id", 'identity_id', a."identity_id", 'via', a."via", 'value', a."value", 'verified', a."verified", ` +
        `'verified_at', a."verified_at", 'status', a."status", 'created_at', a."created_at", 'updated_at', a."updated_at")`,
    );
    const address = rows.fromJson({
      id: '4b9d2a4e-1c3f-4e5a-9b7c-8d6e5f4a3b2c',
      identity_id: '5b9d2a4e-1c3f-4e5a-9b7c-8d6e5f4a3b2c',
      via: 'email',
      value: 'a@example.com',
      verified: false,
      verified_at: null,
      status: 'pending',
      created_at: '2026-01-02T03:04:05.123456+00:00',
      updated_at: '2026-01-02T04:04:05+00:00',
    });
    expect(address).toBeInstanceOf(IdentityVerifiableAddressEntity);
    expect({ ...address }).toStrictEqual({
      id: '4b9d2a4e-1c3f-4e5a-9b7c-8d6e5f4a3b2c',
      identityId: '5b9d2a4e-1c3f-4e5a-9b7c-8d6e5f4a3b2c',
      via: 'email',
      value: 'a@example.com',
      verified: false,
      verifiedAt: null,
      status: 'pending',
      createdAt: new Date('2026-01-02T03:04:05.123Z'),
      updatedAt: expires,
    });
  });
});
