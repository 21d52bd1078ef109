/** What the code cannot say about a route: its summary, success status and response shape. */
export interface OperationDescription {
  readonly summary: string;
  /** The OpenAPI tag: the context that owns the route. */
  readonly tag: string;
  readonly status: number;
  /** A component schema name, or an inline schema; absent when the success answer has no body. */
  readonly response?: string | Record<string, unknown>;
  readonly contentType?: string;
  readonly responseDescription?: string;
  /** The request body when no class-validator DTO describes it (hand-read bodies, forms). */
  readonly body?: Record<string, unknown>;
  /** Query parameters no DTO declares. */
  readonly query?: readonly Record<string, unknown>[];
  /** For routes with no auth marker (plain routes): how the caller authenticates, as OpenAPI security. */
  readonly security?: readonly Record<string, string[]>[];
}

export function operationKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}

const json = (schema: Record<string, unknown>): Record<string, unknown> => ({ 'application/json': { schema } });
const form = (properties: Record<string, unknown>, required: string[]): Record<string, unknown> => ({
  'application/x-www-form-urlencoded': { schema: { type: 'object', required, properties } },
});
const query = (name: string, required = false, description?: string): Record<string, unknown> => ({
  name,
  in: 'query',
  required,
  schema: { type: 'string' },
  ...(description === undefined ? {} : { description }),
});
const str = { type: 'string' };
const clientAuth: Record<string, string[]>[] = [{ clientBasic: [] }, { clientPost: [] }, {}];
const flowQuery = [query('flow', true, 'The flow id')];
const selfServiceBody = {
  'application/json': { schema: { type: 'object', required: ['method'], properties: { method: str } } },
  'application/x-www-form-urlencoded': { schema: { type: 'object', required: ['method'], properties: { method: str, csrf_token: str } } },
};
const tupleBody = json({ $ref: '#/components/schemas/relationTuple' });
const redirect = (summary: string, tag: string, extra: Partial<OperationDescription> = {}): OperationDescription => ({
  summary,
  tag,
  status: 303,
  responseDescription: 'Redirects the browser',
  ...extra,
});
const page = (summary: string, extra: Partial<OperationDescription> = {}): OperationDescription => ({
  summary,
  tag: 'ui',
  status: 200,
  response: { type: 'string' },
  contentType: 'text/html',
  ...extra,
});
const pageForm = (summary: string): OperationDescription =>
  redirect(summary, 'ui', {
    body: {
      'application/x-www-form-urlencoded': { schema: { type: 'object', required: ['csrf_token'], properties: { csrf_token: str } } },
    },
  });
const decision: OperationDescription = {
  summary:
    "Judge the request METHOD scheme://host/<path after /decisions> by the access rules: 200 with the mutators' headers, or the error handlers' answer",
  tag: 'decisions',
  status: 200,
  responseDescription: "Allowed; the mutators' headers are on the answer",
  security: [{ sessionCookie: [] }, { sessionToken: [] }, { bearerToken: [] }, {}],
};
const flowInit = (kind: string, type: 'api' | 'browser'): OperationDescription =>
  type === 'api'
    ? { summary: `Start a ${kind} flow for an API client (native app)`, tag: 'self-service', status: 200, response: 'selfServiceFlow' }
    : redirect(`Start a ${kind} flow in a browser (redirects to the ${kind} UI; JSON when asked for)`, 'self-service', {
        query: [query('return_to')],
      });
const flowFetch = (kind: string): OperationDescription => ({
  summary: `Get a ${kind} flow (its UI container)`,
  tag: 'self-service',
  status: 200,
  response: 'selfServiceFlow',
  query: [query('id', true, 'The flow id')],
});

/**
 * Every route's description, keyed by method and OpenAPI path. A route without an entry stops the
 * document's generation (and the test that walks the router), and an entry without a route fails
 * that test: the two cannot drift apart.
 */
export const OPERATIONS: Readonly<Record<string, OperationDescription>> = {
  // Plumbing
  'GET /openapi.json': { summary: 'This document', tag: 'meta', status: 200, response: { type: 'object' } },
  'GET /health/alive': {
    summary: 'Liveness: the process answers (touches nothing outside it)',
    tag: 'health',
    status: 200,
    response: 'healthStatus',
  },
  'GET /health/ready': {
    summary: 'Readiness: the database answers and no migration is pending (503 otherwise)',
    tag: 'health',
    status: 200,
    response: 'healthStatus',
  },
  'GET /version': { summary: 'The running version', tag: 'meta', status: 200, response: 'version' },
  'GET /metrics/prometheus': {
    summary: 'Prometheus metrics',
    tag: 'meta',
    status: 200,
    response: { type: 'string' },
    contentType: 'text/plain',
  },

  // Relation tuples
  'GET /relation-tuples': {
    summary: 'Query relation tuples (namespace required; paginated by page_token)',
    tag: 'relation-tuples',
    status: 200,
    response: 'relationTuplesPage',
  },
  'PUT /relation-tuples': { summary: 'Create a relation tuple', tag: 'relation-tuples', status: 201, response: 'relationTuple' },
  'DELETE /relation-tuples': { summary: 'Delete the relation tuples matching the query', tag: 'relation-tuples', status: 204 },
  'PATCH /relation-tuples': { summary: 'Insert and delete relation tuples in one transaction', tag: 'relation-tuples', status: 204 },
  'GET /check': {
    summary: 'Check a relation tuple (403 with allowed:false when denied)',
    tag: 'relation-tuples',
    status: 200,
    response: 'checkResult',
    query: ['namespace', 'object', 'relation', 'subject'].map((name) => query(name, true)).concat([query('max-depth')]),
  },
  'POST /check': {
    summary: 'Check a relation tuple given as a body',
    tag: 'relation-tuples',
    status: 200,
    response: 'checkResult',
    body: tupleBody,
  },
  'GET /relation-tuples/check': {
    summary: 'Check a relation tuple (alias of GET /check)',
    tag: 'relation-tuples',
    status: 200,
    response: 'checkResult',
    query: ['namespace', 'object', 'relation', 'subject'].map((name) => query(name, true)).concat([query('max-depth')]),
  },
  'POST /relation-tuples/check': {
    summary: 'Check a relation tuple given as a body (alias of POST /check)',
    tag: 'relation-tuples',
    status: 200,
    response: 'checkResult',
    body: tupleBody,
  },
  'GET /expand': { summary: 'Expand a subject set into a tree', tag: 'relation-tuples', status: 200, response: 'expandTree' },

  // Clients
  'POST /clients': {
    summary: 'Register an OAuth2 client (its secret is in this answer only)',
    tag: 'clients',
    status: 201,
    response: 'oAuth2Client',
  },
  'GET /clients': {
    summary: 'List OAuth2 clients (limit/offset, Link and X-Total-Count)',
    tag: 'clients',
    status: 200,
    response: 'oAuth2ClientList',
  },
  'GET /clients/{id}': { summary: 'Get an OAuth2 client', tag: 'clients', status: 200, response: 'oAuth2Client' },
  'PUT /clients/{id}': {
    summary: 'Replace an OAuth2 client (a client_secret given rotates it)',
    tag: 'clients',
    status: 200,
    response: 'oAuth2Client',
  },
  'DELETE /clients/{id}': { summary: 'Delete an OAuth2 client', tag: 'clients', status: 204 },

  // Keys
  'GET /keys/{set}': { summary: 'Get a JSON Web Key set, newest first', tag: 'keys', status: 200, response: 'JSONWebKeySet' },
  'GET /keys/{set}/{kid}': { summary: 'Get one key of a set', tag: 'keys', status: 200, response: 'JSONWebKeySet' },
  'POST /keys/{set}': { summary: 'Generate a key into a set (created if absent)', tag: 'keys', status: 201, response: 'JSONWebKeySet' },
  'PUT /keys/{set}': { summary: 'Replace a whole key set', tag: 'keys', status: 200, response: 'JSONWebKeySet' },
  'PUT /keys/{set}/{kid}': { summary: 'Add or replace one key of a set', tag: 'keys', status: 200, response: 'JSONWebKey' },
  'DELETE /keys/{set}': { summary: 'Delete a key set', tag: 'keys', status: 204 },
  'DELETE /keys/{set}/{kid}': { summary: 'Delete one key of a set', tag: 'keys', status: 204 },
  'GET /.well-known/jwks.json': {
    summary: 'The public keys that verify ID tokens and JWT access tokens',
    tag: 'oauth2',
    status: 200,
    response: 'JSONWebKeySet',
  },

  // ACP policies
  'POST /engines/acp/service/{flavor}/allowed': {
    summary: 'Is a request allowed by the policies of a flavor?',
    tag: 'policies',
    status: 200,
    response: 'acpAllowed',
  },
  'PUT /engines/acp/service/{flavor}/policies': {
    summary: 'Create or replace a policy',
    tag: 'policies',
    status: 200,
    response: 'acpPolicy',
  },
  'GET /engines/acp/service/{flavor}/policies': {
    summary: 'List policies (limit/offset)',
    tag: 'policies',
    status: 200,
    response: 'acpPolicyList',
  },
  'GET /engines/acp/service/{flavor}/policies/{id}': { summary: 'Get a policy', tag: 'policies', status: 200, response: 'acpPolicy' },
  'DELETE /engines/acp/service/{flavor}/policies/{id}': { summary: 'Delete a policy', tag: 'policies', status: 204 },
  'PUT /engines/acp/service/{flavor}/roles': { summary: 'Create or replace a role', tag: 'policies', status: 200, response: 'acpRole' },
  'GET /engines/acp/service/{flavor}/roles': {
    summary: 'List roles (limit/offset, member filter)',
    tag: 'policies',
    status: 200,
    response: 'acpRoleList',
  },
  'GET /engines/acp/service/{flavor}/roles/{id}': { summary: 'Get a role', tag: 'policies', status: 200, response: 'acpRole' },
  'DELETE /engines/acp/service/{flavor}/roles/{id}': { summary: 'Delete a role', tag: 'policies', status: 204 },
  'PUT /engines/acp/service/{flavor}/roles/{id}/members': {
    summary: 'Add members to a role',
    tag: 'policies',
    status: 200,
    response: 'acpRole',
  },
  'DELETE /engines/acp/service/{flavor}/roles/{id}/members/{member}': {
    summary: 'Remove a member from a role',
    tag: 'policies',
    status: 204,
  },

  // Identities
  'POST /identities': {
    summary: 'Create an identity (optionally with a password or an imported hash)',
    tag: 'identities',
    status: 201,
    response: 'identity',
  },
  'GET /identities': {
    summary: 'List identities (page from 0, per_page; credentials_identifier and traits.<path> filters)',
    tag: 'identities',
    status: 200,
    response: 'identityList',
    query: [
      query('page'),
      query('per_page'),
      query('credentials_identifier'),
      query('include_credential', false, 'password: include password hashes'),
    ],
  },
  'GET /identities/{id}': {
    summary: 'Get an identity',
    tag: 'identities',
    status: 200,
    response: 'identity',
    query: [query('include_credential', false, 'password: include the password hash')],
  },
  'PUT /identities/{id}': {
    summary: 'Replace the traits (and schema) of an identity',
    tag: 'identities',
    status: 200,
    response: 'identity',
  },
  'DELETE /identities/{id}': { summary: 'Delete an identity and everything it owns', tag: 'identities', status: 204 },
  'POST /recovery/link': { summary: 'Create a recovery link for an identity', tag: 'identities', status: 200, response: 'recoveryLink' },
  'GET /schemas/{id}': { summary: 'Get an identity schema', tag: 'identities', status: 200, response: 'identitySchema' },

  // Login / consent / logout hand-off
  'GET /oauth2/auth/requests/login': {
    summary: 'Get a login request',
    tag: 'consent',
    status: 200,
    response: 'loginRequest',
    query: [query('login_challenge', true)],
  },
  'PUT /oauth2/auth/requests/login/accept': {
    summary: 'Accept a login request',
    tag: 'consent',
    status: 200,
    response: 'completedRequest',
    query: [query('login_challenge', true)],
  },
  'PUT /oauth2/auth/requests/login/reject': {
    summary: 'Reject a login request',
    tag: 'consent',
    status: 200,
    response: 'completedRequest',
    query: [query('login_challenge', true)],
  },
  'GET /oauth2/auth/requests/consent': {
    summary: 'Get a consent request',
    tag: 'consent',
    status: 200,
    response: 'consentRequest',
    query: [query('consent_challenge', true)],
  },
  'PUT /oauth2/auth/requests/consent/accept': {
    summary: 'Accept a consent request',
    tag: 'consent',
    status: 200,
    response: 'completedRequest',
    query: [query('consent_challenge', true)],
  },
  'PUT /oauth2/auth/requests/consent/reject': {
    summary: 'Reject a consent request',
    tag: 'consent',
    status: 200,
    response: 'completedRequest',
    query: [query('consent_challenge', true)],
  },
  'GET /oauth2/auth/requests/logout': {
    summary: 'Get a logout request',
    tag: 'consent',
    status: 200,
    response: 'logoutRequest',
    query: [query('logout_challenge', true)],
  },
  'PUT /oauth2/auth/requests/logout/accept': {
    summary: 'Accept a logout request',
    tag: 'consent',
    status: 200,
    response: 'completedRequest',
    query: [query('logout_challenge', true)],
  },
  'PUT /oauth2/auth/requests/logout/reject': {
    summary: 'Reject a logout request',
    tag: 'consent',
    status: 204,
    query: [query('logout_challenge', true)],
  },
  'DELETE /oauth2/auth/sessions/login': {
    summary: "Revoke a subject's login sessions",
    tag: 'consent',
    status: 204,
    query: [query('subject', true)],
  },
  'GET /oauth2/auth/sessions/consent': {
    summary: "List a subject's remembered consent sessions",
    tag: 'consent',
    status: 200,
    response: 'previousConsentSessionList',
    query: [query('subject', true)],
  },
  'DELETE /oauth2/auth/sessions/consent': {
    summary: "Revoke a subject's consent sessions (one client's, or all)",
    tag: 'consent',
    status: 204,
    query: [query('subject', true), query('client'), query('all')],
  },

  // OAuth 2.0 / OpenID Connect
  'GET /.well-known/openid-configuration': { summary: 'OpenID Connect discovery', tag: 'oauth2', status: 200, response: 'wellKnown' },
  'GET /oauth2/auth': redirect('Authorization endpoint (redirects to the login app, then back to the client)', 'oauth2', { status: 302 }),
  'POST /oauth2/auth': redirect('Authorization endpoint, parameters as a form', 'oauth2', { status: 302 }),
  'POST /oauth2/token': {
    summary: 'Token endpoint: authorization_code, refresh_token, client_credentials',
    tag: 'oauth2',
    status: 200,
    response: 'oauth2TokenResponse',
    body: form({ grant_type: str, code: str, redirect_uri: str, refresh_token: str, scope: str, client_id: str, code_verifier: str }, [
      'grant_type',
    ]),
    security: clientAuth,
  },
  'POST /oauth2/revoke': {
    summary: 'Revoke an access or refresh token (RFC 7009)',
    tag: 'oauth2',
    status: 200,
    body: form({ token: str, token_type_hint: str }, ['token']),
    security: clientAuth,
  },
  'POST /oauth2/introspect': {
    summary: 'Introspect a token (RFC 7662)',
    tag: 'oauth2',
    status: 200,
    response: 'oAuth2TokenIntrospection',
    body: form({ token: str, scope: str }, ['token']),
  },
  'POST /oauth2/flush': { summary: 'Delete expired tokens and requests now', tag: 'oauth2', status: 204 },
  'GET /userinfo': { summary: 'OpenID Connect userinfo', tag: 'oauth2', status: 200, response: 'userinfoResponse' },
  'POST /userinfo': { summary: 'OpenID Connect userinfo (POST)', tag: 'oauth2', status: 200, response: 'userinfoResponse' },
  'GET /oauth2/sessions/logout': redirect('RP-initiated logout (redirects to the logout app)', 'oauth2', { status: 302 }),
  'POST /oauth2/sessions/logout': redirect('RP-initiated logout, parameters as a form', 'oauth2', { status: 302 }),
  'GET /oauth2/fallbacks/error': {
    summary: 'Default error page',
    tag: 'oauth2',
    status: 200,
    response: { type: 'string' },
    contentType: 'text/html',
  },
  'GET /oauth2/fallbacks/login': {
    summary: 'Default login page when none is configured',
    tag: 'oauth2',
    status: 200,
    response: { type: 'string' },
    contentType: 'text/html',
  },
  'GET /oauth2/fallbacks/consent': {
    summary: 'Default consent page when none is configured',
    tag: 'oauth2',
    status: 200,
    response: { type: 'string' },
    contentType: 'text/html',
  },
  'GET /oauth2/fallbacks/logout': {
    summary: 'Default logout page when none is configured',
    tag: 'oauth2',
    status: 200,
    response: { type: 'string' },
    contentType: 'text/html',
  },
  'GET /oauth2/fallbacks/logout/callback': {
    summary: 'Where a logout ends when no post-logout redirect is given',
    tag: 'oauth2',
    status: 200,
    response: { type: 'string' },
    contentType: 'text/html',
  },

  // Self-service
  'GET /self-service/errors': {
    summary: 'Get a self-service error container',
    tag: 'self-service',
    status: 200,
    response: 'selfServiceErrorContainer',
    query: [query('error', true)],
  },
  'GET /self-service/login/api': flowInit('login', 'api'),
  'GET /self-service/login/browser': flowInit('login', 'browser'),
  'GET /self-service/login/flows': flowFetch('login'),
  'POST /self-service/login': {
    summary: 'Submit a login flow',
    tag: 'self-service',
    status: 200,
    response: 'loginResult',
    body: selfServiceBody,
    query: flowQuery,
  },
  'GET /self-service/registration/api': flowInit('registration', 'api'),
  'GET /self-service/registration/browser': flowInit('registration', 'browser'),
  'GET /self-service/registration/flows': flowFetch('registration'),
  'POST /self-service/registration': {
    summary: 'Submit a registration flow',
    tag: 'self-service',
    status: 200,
    response: 'registrationResult',
    body: selfServiceBody,
    query: flowQuery,
  },
  'GET /self-service/settings/api': flowInit('settings', 'api'),
  'GET /self-service/settings/browser': flowInit('settings', 'browser'),
  'GET /self-service/settings/flows': flowFetch('settings'),
  'POST /self-service/settings': {
    summary: 'Submit a settings flow (profile or password)',
    tag: 'self-service',
    status: 200,
    response: 'selfServiceFlow',
    body: selfServiceBody,
    query: flowQuery,
  },
  'GET /self-service/recovery/api': flowInit('recovery', 'api'),
  'GET /self-service/recovery/browser': flowInit('recovery', 'browser'),
  'GET /self-service/recovery/flows': flowFetch('recovery'),
  'POST /self-service/recovery': {
    summary: 'Submit a recovery flow (sends a link to the address)',
    tag: 'self-service',
    status: 200,
    response: 'selfServiceFlow',
    body: selfServiceBody,
    query: flowQuery,
  },
  'GET /self-service/recovery': redirect('Follow a recovery link', 'self-service', { query: [query('flow', true), query('token', true)] }),
  'GET /self-service/verification/api': flowInit('verification', 'api'),
  'GET /self-service/verification/browser': flowInit('verification', 'browser'),
  'GET /self-service/verification/flows': flowFetch('verification'),
  'POST /self-service/verification': {
    summary: 'Submit a verification flow (sends a link to the address)',
    tag: 'self-service',
    status: 200,
    response: 'selfServiceFlow',
    body: selfServiceBody,
    query: flowQuery,
  },
  'GET /self-service/verification': redirect('Follow a verification link', 'self-service', {
    query: [query('flow', true), query('token', true)],
  }),
  'GET /sessions/whoami': {
    summary: 'The session of a session cookie or token',
    tag: 'self-service',
    status: 200,
    response: 'session',
    security: [{ sessionToken: [] }, { sessionCookie: [] }],
  },
  'DELETE /self-service/logout/api': {
    summary: 'End the session of a session token (API clients)',
    tag: 'self-service',
    status: 204,
    body: json({ type: 'object', required: ['session_token'], properties: { session_token: str } }),
  },
  'DELETE /sessions': { summary: 'End the session of a session token', tag: 'self-service', status: 204 },
  'GET /self-service/browser/flows/logout': redirect('End the browser session and redirect', 'self-service', {
    query: [query('return_to')],
  }),
  'GET /self-service/logout/browser': {
    summary: "A logout URL and token for the browser's session (401 without one)",
    tag: 'self-service',
    status: 200,
    response: { type: 'object', required: ['logout_url', 'logout_token'], properties: { logout_url: str, logout_token: str } },
    security: [{ sessionCookie: [] }],
  },
  'GET /self-service/logout': redirect('End the session a logout token names, and redirect', 'self-service', {
    query: [query('token', true), query('return_to')],
  }),

  // Built-in sign-in pages (server-rendered HTML; forms carry a CSRF token)
  'GET /ui/login': page('Sign-in page: renders a login flow (starts one when none is given)', { query: [query('flow')] }),
  'GET /ui/registration': page('Sign-up page: renders a registration flow', { query: [query('flow')] }),
  'GET /ui/recovery': page('Account recovery page: renders a recovery flow', { query: [query('flow')] }),
  'GET /ui/verification': page('Address verification page: renders a verification flow', { query: [query('flow')] }),
  'GET /ui/settings': page('Account settings page: profile, password and sessions', { query: [query('flow')] }),
  'POST /ui/settings/sessions': pageForm('Sign out every other session of the signed-in identity'),
  'GET /ui/error': page('Error page: renders a self-service error container', { query: [query('error')] }),
  'GET /ui/static/style.css': page("The pages' stylesheet", { contentType: 'text/css' }),
  'GET /ui/oauth2/login': page('OAuth2 login hand-off page (the default of URLS_LOGIN)', { query: [query('login_challenge', true)] }),
  'POST /ui/oauth2/login': pageForm('Accept or cancel an OAuth2 login request'),
  'GET /ui/oauth2/consent': page('OAuth2 consent page (the default of URLS_CONSENT)', { query: [query('consent_challenge', true)] }),
  'POST /ui/oauth2/consent': pageForm('Grant or deny an OAuth2 consent request'),
  'GET /ui/oauth2/logout': page('OAuth2 logout confirmation page (the default of URLS_LOGOUT)', {
    query: [query('logout_challenge', true)],
  }),
  'POST /ui/oauth2/logout': pageForm('Confirm or cancel an OAuth2 logout request'),

  // Directory sync
  'POST /directory-sync/connections': {
    summary: 'Create a directory-sync connection (its webhook secret is in this answer only)',
    tag: 'directory-sync',
    status: 201,
    response: 'directorySyncConnection',
  },
  'GET /directory-sync/connections': {
    summary: 'List directory-sync connections (limit/offset, Link)',
    tag: 'directory-sync',
    status: 200,
    response: { type: 'array', items: { $ref: '#/components/schemas/directorySyncConnection' } },
  },
  'GET /directory-sync/connections/{id}': {
    summary: 'Get a directory-sync connection (never its secret)',
    tag: 'directory-sync',
    status: 200,
    response: 'directorySyncConnection',
  },
  'DELETE /directory-sync/connections/{id}': { summary: 'Delete a directory-sync connection', tag: 'directory-sync', status: 204 },
  'POST /directory-sync/connections/{id}/secret': {
    summary: 'Rotate the webhook secret (the previous one verifies for WEBHOOKS_SECRET_GRACE)',
    tag: 'directory-sync',
    status: 200,
    response: 'directorySyncConnection',
  },
  'GET /directory-sync/connections/{id}/events': {
    summary: "A connection's event log (limit/offset, outcome filter)",
    tag: 'directory-sync',
    status: 200,
    response: { type: 'array', items: { type: 'object', required: ['outcome'], properties: { outcome: str } } },
    query: [query('limit'), query('offset'), query('outcome')],
  },
  'POST /webhooks/directory-sync/{connectionId}': {
    summary: 'Receive signed directory-sync events (one or a batch), applied before the answer',
    tag: 'directory-sync',
    status: 200,
    response: {
      type: 'object',
      properties: {
        applied: { type: 'integer' },
        duplicate: { type: 'integer' },
        rejected: { type: 'integer' },
        failed: { type: 'integer' },
      },
    },
    body: json({ oneOf: [{ type: 'object' }, { type: 'array', items: { type: 'object' } }] }),
    security: [{ serviceSignature: [] }],
  },

  // Access rules
  'GET /rules': {
    summary: 'List access rules, stored and from files (limit 50 by default, 500 at most; offset)',
    tag: 'rules',
    status: 200,
    response: { type: 'array', items: { $ref: '#/components/schemas/accessRule' } },
    query: [query('limit'), query('offset')],
  },
  'GET /rules/{id}': { summary: 'Get an access rule', tag: 'rules', status: 200, response: 'accessRule' },
  'PUT /rules/{id}': {
    summary: 'Create (201) or replace (200) a stored access rule',
    tag: 'rules',
    status: 200,
    response: 'accessRule',
    body: json({ $ref: '#/components/schemas/accessRule' }),
  },
  'DELETE /rules/{id}': { summary: 'Delete a stored access rule', tag: 'rules', status: 204 },

  // The decision API: every method, judged by the access rules (no admin token; allowed peers only)
  'GET /decisions': decision,
  'POST /decisions': decision,
  'PUT /decisions': decision,
  'DELETE /decisions': decision,
  'PATCH /decisions': decision,
  'OPTIONS /decisions': decision,
  'TRACE /decisions': decision,
  'GET /decisions/{path}': decision,
  'POST /decisions/{path}': decision,
  'PUT /decisions/{path}': decision,
  'DELETE /decisions/{path}': decision,
  'PATCH /decisions/{path}': decision,
  'OPTIONS /decisions/{path}': decision,
  'TRACE /decisions/{path}': decision,
};
