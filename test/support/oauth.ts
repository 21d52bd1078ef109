import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Client } from '../../src/clients/client.js';
import { ClientsService } from '../../src/clients/clients.service.js';
import type { ConsentGrant } from '../../src/consent/authorization-context.js';
import { AuthorizeResponseIssuer } from '../../src/oauth/tokens/authorize-response.issuer.js';
import type { AuthorizedRequest, ResponseType } from '../../src/oauth/tokens/authorized-request.js';
import type { TestApp } from './app.js';
import { queryDatabase } from './database.js';
import type { HttpResponse } from './http.js';

export interface WireClient {
  client_id: string;
  client_secret?: string;
  [field: string]: unknown;
}

export interface WireTokenResponse {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
  refresh_token?: string;
  id_token?: string;
}

export interface WireOAuthError {
  error: string;
  error_description: string;
  status_code: number;
}

/** `Authorization: Basic` with id and secret form-url-encoded first (RFC 6749 §2.3.1). */
export function basic(id: string, secret: string): Record<string, string> {
  const encode = (value: string): string => encodeURIComponent(value).replace(/%20/g, '+');
  return { authorization: `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}` };
}

export async function createClient(app: TestApp, body: Record<string, unknown>): Promise<WireClient> {
  const response = await app.admin.post<WireClient>('/clients', { json: body });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

export function token(
  app: TestApp,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<HttpResponse<WireTokenResponse>> {
  return app.public.post<WireTokenResponse>('/oauth2/token', { form, headers });
}

export function expectOAuthError(response: HttpResponse, status: number, error: string): void {
  expect(response.status, response.text).toBe(status);
  expect((response.body as WireOAuthError).error).toBe(error);
  expect((response.body as WireOAuthError).status_code).toBe(status);
}

/**
 * A handled consent row for `client` and `subject`, as the consent context stores it once the consent
 * app accepted: tokens reference it (ON DELETE CASCADE). Written with SQL because the consent flow is
 * another context's; only the columns the schema requires are set.
 */
export async function insertConsent(app: TestApp, clientId: string, subject: string): Promise<string> {
  const id = randomUUID();
  const hash = (): string => randomBytes(32).toString('hex');
  await queryDatabase(
    app.databaseUrl,
    `INSERT INTO oauth2_consent_requests (id, challenge_hash, challenge_sealed, csrf_hash, client_id, subject, force_subject_identifier,
       request_url, requested_scope, requested_audience, oidc_context, skip, acr, amr, context, login_request_id, login_challenge_sealed,
       requested_at, authenticated_at, handled_at, granted_scope, granted_audience, remember, remember_for, session_access_token,
       session_id_token, was_used)
     VALUES ($1, $2, 'sealed', $3, $4, $5, '', 'https://issuer/oauth2/auth', '[]', '[]', '{}', false, '', '[]', '{}', $6, 'sealed',
       now(), now(), now(), '[]', '[]', false, 0, '{}', '{}', true)`,
    [id, hash(), hash(), clientId, subject, randomUUID()],
  );
  return id;
}

export interface IssueOptions {
  readonly responseTypes?: readonly ResponseType[];
  readonly scope?: readonly string[];
  readonly audience?: readonly string[];
  readonly subject?: string;
  readonly nonce?: string;
  readonly codeChallenge?: string;
  readonly redirectUri?: string;
  readonly grant?: Partial<ConsentGrant>;
}

/**
 * What the authorize endpoint does once login and consent are done: hands an AuthorizedRequest to
 * token issuing. Returns the authorization response parameters and the grant used.
 */
export async function authorize(
  app: TestApp,
  clientId: string,
  options: IssueOptions = {},
): Promise<{ parameters: Readonly<Record<string, string>>; grant: ConsentGrant; client: Client }> {
  const client = await app.running.app.get(ClientsService).get(clientId);
  const subject = options.subject ?? `user-${randomBytes(4).toString('hex')}`;
  const grant: ConsentGrant = {
    id: await insertConsent(app, clientId, subject),
    subject,
    forcedSubjectIdentifier: '',
    grantedScope: options.scope ?? ['openid', 'offline_access'],
    grantedAudience: options.audience ?? [],
    accessTokenClaims: { tenant: 'acme' },
    idTokenClaims: { email: 'user@example.com', email_verified: true },
    authTime: new Date(Date.now() - 60_000),
    requestedAt: new Date(Date.now() - 30_000),
    acr: 'urn:acr:password',
    amr: ['pwd'],
    loginSessionId: randomUUID(),
    ...options.grant,
  };
  const request: AuthorizedRequest = {
    client,
    redirectUri: options.redirectUri ?? client.redirectUris[0]!,
    responseTypes: new Set(options.responseTypes ?? ['code']),
    state: 'state-1',
    nonce: options.nonce,
    codeChallenge: options.codeChallenge,
    claimsRequest: undefined,
    grant,
  };
  return { parameters: await app.running.app.get(AuthorizeResponseIssuer).issue(request), grant, client };
}
