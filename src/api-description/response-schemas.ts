type Schema = Record<string, unknown>;

const string: Schema = { type: 'string' };
const strings: Schema = { type: 'array', items: string };
const dateTime: Schema = { type: 'string', format: 'date-time' };
const anyObject: Schema = { type: 'object' };
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const arrayOf = (name: string): Schema => ({ type: 'array', items: ref(name) });

/** An object whose listed members are all present (more may be). */
function object(properties: Record<string, Schema>, required: readonly string[] = Object.keys(properties)): Schema {
  return { type: 'object', required: [...required], properties };
}

const oidcContext = object(
  { acr_values: strings, display: string, id_token_hint_claims: anyObject, login_hint: string, ui_locales: strings },
  [],
);

/** A node's `messages` is null when it has none (Kratos v0.6's wire form); the container omits an empty list. */
const uiNode = object({ type: string, group: string, attributes: anyObject, messages: { type: ['array', 'null'] }, meta: anyObject }, [
  'type',
  'group',
  'attributes',
  'meta',
]);

/** Response shapes the code holds only as TypeScript types, written out as JSON Schema. */
export const RESPONSE_SCHEMAS: Record<string, Schema> = {
  oAuth2Client: object(
    {
      client_id: string,
      client_name: string,
      client_secret: { type: 'string', description: 'Only in the answer that set it.' },
      client_secret_expires_at: { type: 'integer' },
      client_uri: string,
      logo_uri: string,
      policy_uri: string,
      tos_uri: string,
      owner: string,
      contacts: strings,
      allowed_cors_origins: strings,
      audience: strings,
      grant_types: strings,
      response_types: strings,
      redirect_uris: strings,
      post_logout_redirect_uris: strings,
      request_uris: strings,
      scope: string,
      subject_type: string,
      sector_identifier_uri: string,
      token_endpoint_auth_method: string,
      token_endpoint_auth_signing_alg: string,
      request_object_signing_alg: string,
      userinfo_signed_response_alg: string,
      jwks: { type: 'object', properties: { keys: { type: 'array', items: anyObject } } },
      jwks_uri: string,
      metadata: anyObject,
      backchannel_logout_uri: string,
      backchannel_logout_session_required: { type: 'boolean' },
      frontchannel_logout_uri: string,
      frontchannel_logout_session_required: { type: 'boolean' },
      created_at: dateTime,
      updated_at: dateTime,
    },
    [
      'client_id',
      'client_name',
      'grant_types',
      'response_types',
      'redirect_uris',
      'scope',
      'token_endpoint_auth_method',
      'metadata',
      'created_at',
    ],
  ),
  oAuth2ClientList: arrayOf('oAuth2Client'),
  JSONWebKey: object({ kid: string, kty: string, alg: string, use: string }, ['kid', 'kty']),
  JSONWebKeySet: object({ keys: arrayOf('JSONWebKey') }),
  identity: object(
    {
      id: { type: 'string', format: 'uuid' },
      schema_id: string,
      schema_url: string,
      traits: anyObject,
      verifiable_addresses: {
        type: 'array',
        items: object({ id: string, value: string, verified: { type: 'boolean' }, via: string, status: string }),
      },
      recovery_addresses: { type: 'array', items: object({ id: string, value: string, via: string }) },
      credentials: { type: 'object', description: 'Only with include_credential=password.' },
      created_at: dateTime,
      updated_at: dateTime,
    },
    ['id', 'schema_id', 'schema_url', 'traits'],
  ),
  identityList: arrayOf('identity'),
  recoveryLink: object({ recovery_link: string, expires_at: dateTime }),
  identitySchema: { type: 'object', description: 'A JSON Schema document.' },
  session: object(
    {
      id: string,
      active: { type: 'boolean' },
      expires_at: dateTime,
      authenticated_at: dateTime,
      issued_at: dateTime,
      identity: ref('identity'),
    },
    ['id', 'active', 'identity'],
  ),
  loginResult: object({ session: ref('session'), session_token: string }, ['session']),
  registrationResult: object({ identity: ref('identity'), session: ref('session'), session_token: string }, ['identity']),
  selfServiceFlow: object(
    {
      id: { type: 'string', format: 'uuid' },
      type: { enum: ['api', 'browser'] },
      expires_at: dateTime,
      issued_at: dateTime,
      request_url: string,
      ui: object({ action: string, method: string, nodes: { type: 'array', items: uiNode }, messages: { type: 'array' } }, [
        'action',
        'method',
        'nodes',
      ]),
    },
    ['id', 'type', 'expires_at', 'issued_at', 'ui'],
  ),
  selfServiceErrorContainer: object({ id: string, error: anyObject, created_at: dateTime, updated_at: dateTime }, ['id', 'error']),
  relationTuple: object({ namespace: string, object: string, relation: string, subject: string }),
  relationTuplesPage: object({ relation_tuples: arrayOf('relationTuple'), next_page_token: string }),
  checkResult: object({ allowed: { type: 'boolean' } }),
  expandTree: object({ type: { enum: ['union', 'exclusion', 'intersection', 'leaf'] }, subject: string, children: arrayOf('expandTree') }, [
    'type',
    'subject',
  ]),
  acpPolicy: object(
    {
      id: string,
      description: string,
      subjects: strings,
      resources: strings,
      actions: strings,
      effect: { enum: ['allow', 'deny'] },
      conditions: anyObject,
    },
    ['id', 'subjects', 'resources', 'actions', 'effect'],
  ),
  acpPolicyList: arrayOf('acpPolicy'),
  acpRole: object({ id: string, description: string, members: strings }, ['id', 'members']),
  acpRoleList: arrayOf('acpRole'),
  acpAllowed: object({ allowed: { type: 'boolean' } }),
  loginRequest: object({
    challenge: string,
    requested_scope: strings,
    requested_access_token_audience: strings,
    skip: { type: 'boolean' },
    subject: string,
    oidc_context: oidcContext,
    client: ref('oAuth2Client'),
    request_url: string,
    session_id: string,
  }),
  consentRequest: object(
    {
      challenge: string,
      requested_scope: strings,
      requested_access_token_audience: strings,
      skip: { type: 'boolean' },
      subject: string,
      oidc_context: oidcContext,
      client: ref('oAuth2Client'),
      request_url: string,
      login_challenge: string,
      login_session_id: string,
      acr: string,
      amr: strings,
      context: anyObject,
    },
    ['challenge', 'requested_scope', 'skip', 'subject', 'client', 'request_url'],
  ),
  logoutRequest: object({ subject: string, sid: string, request_url: string, rp_initiated: { type: 'boolean' } }),
  completedRequest: object({ redirect_to: string }),
  previousConsentSession: object(
    {
      consent_request: ref('consentRequest'),
      grant_scope: strings,
      grant_access_token_audience: strings,
      session: object({ access_token: anyObject, id_token: anyObject }),
      remember: { type: 'boolean' },
      remember_for: { type: 'integer' },
      handled_at: dateTime,
    },
    ['consent_request', 'grant_scope', 'remember'],
  ),
  previousConsentSessionList: arrayOf('previousConsentSession'),
  oauth2TokenResponse: object(
    { access_token: string, token_type: string, expires_in: { type: 'integer' }, scope: string, refresh_token: string, id_token: string },
    ['access_token', 'token_type', 'expires_in'],
  ),
  oAuth2TokenIntrospection: object(
    {
      active: { type: 'boolean' },
      scope: string,
      client_id: string,
      sub: string,
      exp: { type: 'integer' },
      iat: { type: 'integer' },
      nbf: { type: 'integer' },
      aud: strings,
      iss: string,
      token_type: string,
      token_use: string,
      ext: anyObject,
      obfuscated_subject: string,
      username: string,
    },
    ['active'],
  ),
  userinfoResponse: object({ sub: string }),
  wellKnown: object({
    issuer: string,
    authorization_endpoint: string,
    token_endpoint: string,
    jwks_uri: string,
    response_types_supported: strings,
    subject_types_supported: strings,
    id_token_signing_alg_values_supported: strings,
  }),
  version: object({ version: string }),
  healthStatus: object({ status: string }),
  flushResult: anyObject,
  directorySyncConnection: object(
    {
      id: string,
      name: string,
      schema_id: string,
      groups_namespace: string,
      on_deactivate: { enum: ['deactivate', 'delete'] },
      webhook_url: string,
      secret: { type: 'string', description: 'Only in the create and rotate answers.' },
      created_at: dateTime,
    },
    ['id', 'name', 'on_deactivate', 'webhook_url', 'created_at'],
  ),
};
