import { Injectable } from '@nestjs/common';
import { importJWK, type JWK } from 'jose';
import { OutboundHttp } from '../common/http/outbound-http.js';
import type { OAuth2Config } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { OutboundError, OutboundFailure } from '../common/http/outbound-http.error.js';
import type { ClientDraft, JsonWebKeySet, SubjectType, TokenEndpointAuthMethod } from './client.js';
import {
  DEFAULT_GRANT_TYPES,
  DEFAULT_SCOPE,
  DEFAULT_SUBJECT_TYPE,
  DEFAULT_TOKEN_ENDPOINT_AUTH_METHOD,
  DEFAULT_USERINFO_SIGNING_ALG,
  FORBIDDEN_REDIRECT_SCHEMES,
  GRANT_TYPES,
  LOOPBACK_HOSTS,
  REQUEST_OBJECT_SIGNING_ALGS,
  RESPONSE_TYPE_PARTS,
  SUBJECT_TYPES,
  TOKEN_ENDPOINT_AUTH_METHODS,
  TOKEN_ENDPOINT_AUTH_SIGNING_ALGS,
  USERINFO_SIGNING_ALGS,
} from './client-metadata.js';
import { ClientsError } from './clients.errors.js';
import { PRIVATE_JWK_MEMBERS } from '../keys/index.js';
import type { CreateClientDto } from './dto/create-client.dto.js';

const MIN_SECRET_LENGTH = 6;
const MIN_RSA_BITS = 2048;
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * The registration rules for POST and PUT /clients. `validate` normalises the body into a ClientDraft
 * (defaults applied) or throws ClientsError naming the first field at fault: first every rule that
 * needs nothing but the body, then the key set, and last the rules that touch the network (address
 * checks of jwks_uri, backchannel_logout_uri and request_uris; the sector_identifier_uri fetch).
 */
@Injectable()
export class ClientValidator {
  /** OIDC_SUBJECT_TYPES: what discovery advertises is what may be registered (Hydra's validator). */
  private readonly subjectTypes: readonly SubjectType[];

  constructor(
    private readonly outbound: OutboundHttp,
    @InjectConfig('oauth2') oauth2: OAuth2Config,
  ) {
    this.subjectTypes = oauth2.subjectTypes;
  }

  async validate(input: CreateClientDto): Promise<ClientDraft> {
    const draft = checkMetadata(input, this.subjectTypes);
    if (draft.jwks !== undefined) await checkKeySet(draft.jwks, draft.tokenEndpointAuthMethod);
    await this.checkDestination('jwks_uri', draft.jwksUri);
    await this.checkDestination('backchannel_logout_uri', draft.backchannelLogoutUri);
    for (const uri of draft.requestUris) await this.checkDestination('request_uris', uri);
    if (draft.sectorIdentifierUri !== '') await this.checkSectorIdentifier(draft.sectorIdentifierUri, draft.redirectUris);
    return draft;
  }

  private async checkDestination(field: string, uri: string): Promise<void> {
    if (uri === '') return;
    await this.outbound.assertPublicDestination(uri).catch((error: unknown) => {
      throw ClientsError.metadata(field, `${quote(uri)} ${outboundProblem(error)}`);
    });
  }

  /** OpenID Connect Core §8.1: the document is a JSON array that lists every registered redirect URI. */
  private async checkSectorIdentifier(uri: string, redirectUris: readonly string[]): Promise<void> {
    const field = 'sector_identifier_uri';
    const response = await this.outbound.get(uri).catch((error: unknown) => {
      throw ClientsError.metadata(field, `${quote(uri)} ${outboundProblem(error)}`);
    });
    if (response.status !== 200) throw ClientsError.metadata(field, `${quote(uri)} answered with status ${response.status}, not 200`);
    let listed: unknown;
    try {
      listed = JSON.parse(response.body.toString('utf8'));
    } catch {
      throw ClientsError.metadata(field, `${quote(uri)} does not hold JSON`);
    }
    if (!Array.isArray(listed) || listed.length === 0 || !listed.every((item) => typeof item === 'string')) {
      throw ClientsError.metadata(field, `${quote(uri)} must hold a non-empty JSON array of redirect URIs`);
    }
    const missing = redirectUris.find((redirect) => !listed.includes(redirect));
    if (missing !== undefined) throw ClientsError.metadata(field, `${quote(uri)} does not list the redirect URI ${quote(missing)}`);
  }
}

/**
 * Every rule that needs only the body (exported for unit tests). `subjectTypes` are those the server
 * supports (OIDC_SUBJECT_TYPES): the default is `public` when supported, else the first (Hydra).
 */
export function checkMetadata(input: CreateClientDto, subjectTypes: readonly SubjectType[] = SUBJECT_TYPES): ClientDraft {
  const requestedId = text(input.client_id);
  if (hasControlCharacter(requestedId)) throw ClientsError.metadata('client_id', 'must not contain control characters');

  const tokenEndpointAuthMethod = oneOf(
    'token_endpoint_auth_method',
    text(input.token_endpoint_auth_method) || DEFAULT_TOKEN_ENDPOINT_AUTH_METHOD,
    TOKEN_ENDPOINT_AUTH_METHODS,
  );
  const suppliedSecret = text(input.client_secret);
  if (suppliedSecret !== '' && tokenEndpointAuthMethod === 'none') {
    throw ClientsError.metadata('client_secret', 'must not be set when token_endpoint_auth_method is none (a public client has no secret)');
  }
  if (suppliedSecret !== '' && suppliedSecret.length < MIN_SECRET_LENGTH) {
    throw ClientsError.metadata('client_secret', `must be at least ${MIN_SECRET_LENGTH} characters long`);
  }

  const jwks = input.jwks ?? undefined;
  const jwksUri = text(input.jwks_uri);
  if (jwks !== undefined && jwksUri !== '') throw ClientsError.metadata('jwks', 'jwks and jwks_uri cannot both be set; choose one');
  if (tokenEndpointAuthMethod === 'private_key_jwt' && jwks === undefined && jwksUri === '') {
    throw ClientsError.metadata('token_endpoint_auth_method', 'private_key_jwt needs jwks or jwks_uri');
  }
  const tokenEndpointAuthSigningAlg = optionalOneOf(
    'token_endpoint_auth_signing_alg',
    text(input.token_endpoint_auth_signing_alg),
    TOKEN_ENDPOINT_AUTH_SIGNING_ALGS,
  );

  const redirectUris = list(input.redirect_uris);
  for (const uri of redirectUris) checkRedirectUri(uri);
  const postLogoutRedirectUris = list(input.post_logout_redirect_uris);
  for (const uri of postLogoutRedirectUris) checkPostLogoutRedirectUri(uri, redirectUris);

  const grantTypes = list(input.grant_types).length === 0 ? [...DEFAULT_GRANT_TYPES] : list(input.grant_types);
  for (const grant of grantTypes) oneOf('grant_types', grant, GRANT_TYPES);
  const responseTypes =
    input.response_types === undefined || input.response_types === null
      ? grantTypes.includes('authorization_code')
        ? ['code']
        : []
      : input.response_types;
  for (const responseType of responseTypes) checkResponseType(responseType, grantTypes);

  const sectorIdentifierUri = text(input.sector_identifier_uri);
  if (sectorIdentifierUri !== '' && parseUrl(sectorIdentifierUri)?.protocol !== 'https:') {
    throw ClientsError.metadata('sector_identifier_uri', 'must be an absolute https URL');
  }
  const defaultSubjectType = subjectTypes.includes(DEFAULT_SUBJECT_TYPE) ? DEFAULT_SUBJECT_TYPE : (subjectTypes[0] ?? DEFAULT_SUBJECT_TYPE);
  const subjectType = oneOf('subject_type', text(input.subject_type) || defaultSubjectType, subjectTypes);
  if (subjectType === 'pairwise' && sectorIdentifierUri === '' && new Set(redirectUris.map(hostOf)).size !== 1) {
    throw ClientsError.metadata('subject_type', 'pairwise needs a sector_identifier_uri, or redirect_uris that all share one host');
  }

  const requestUris = list(input.request_uris);
  for (const uri of requestUris) checkWebUrl('request_uris', uri, { fragment: true });
  const backchannelLogoutUri = text(input.backchannel_logout_uri);
  const frontchannelLogoutUri = text(input.frontchannel_logout_uri);
  const clientUri = text(input.client_uri);
  const logoUri = text(input.logo_uri);
  const policyUri = text(input.policy_uri);
  const tosUri = text(input.tos_uri);
  for (const [field, value] of [
    ['jwks_uri', jwksUri],
    ['backchannel_logout_uri', backchannelLogoutUri],
    ['frontchannel_logout_uri', frontchannelLogoutUri],
  ] as const) {
    if (value !== '') checkWebUrl(field, value, { fragment: false });
  }
  for (const [field, value] of [
    ['client_uri', clientUri],
    ['logo_uri', logoUri],
    ['policy_uri', policyUri],
    ['tos_uri', tosUri],
  ] as const) {
    if (value !== '') checkWebUrl(field, value, { fragment: true });
  }

  return {
    requestedId: requestedId === '' ? undefined : requestedId,
    suppliedSecret: suppliedSecret === '' ? undefined : suppliedSecret,
    name: text(input.client_name),
    redirectUris,
    grantTypes,
    responseTypes,
    scope: checkScope(text(input.scope) || DEFAULT_SCOPE),
    audience: list(input.audience),
    owner: text(input.owner),
    policyUri,
    tosUri,
    clientUri,
    logoUri,
    contacts: list(input.contacts),
    allowedCorsOrigins: list(input.allowed_cors_origins).map(checkCorsOrigin),
    subjectType,
    sectorIdentifierUri,
    jwks: jwks === undefined ? undefined : checkKeySetShape(jwks),
    jwksUri,
    requestUris,
    tokenEndpointAuthMethod,
    tokenEndpointAuthSigningAlg,
    requestObjectSigningAlg: optionalOneOf(
      'request_object_signing_alg',
      text(input.request_object_signing_alg),
      // `none` is a deliberate registration: that client's request objects are accepted unsigned.
      ['none', ...REQUEST_OBJECT_SIGNING_ALGS],
    ),
    userinfoSignedResponseAlg: oneOf(
      'userinfo_signed_response_alg',
      text(input.userinfo_signed_response_alg) || DEFAULT_USERINFO_SIGNING_ALG,
      USERINFO_SIGNING_ALGS,
    ),
    postLogoutRedirectUris,
    frontchannelLogoutUri,
    frontchannelLogoutSessionRequired: input.frontchannel_logout_session_required ?? false,
    backchannelLogoutUri,
    backchannelLogoutSessionRequired: input.backchannel_logout_session_required ?? false,
    metadata: input.metadata ?? {},
  };
}

/** Each key must import with jose and carry no private or symmetric material. */
export async function checkKeySet(jwks: JsonWebKeySet, method: TokenEndpointAuthMethod): Promise<void> {
  if (method === 'private_key_jwt' && jwks.keys.length === 0) {
    throw ClientsError.metadata('jwks', 'must hold at least one key when token_endpoint_auth_method is private_key_jwt');
  }
  for (const [index, key] of jwks.keys.entries()) {
    const secretMember = PRIVATE_JWK_MEMBERS.find((member) => member in key);
    if (secretMember !== undefined) {
      throw ClientsError.metadata('jwks', `keys[${index}] holds private key material ("${secretMember}"); register public keys only`);
    }
    const jwk = key as JWK;
    try {
      await importJWK(jwk, typeof jwk.alg === 'string' ? jwk.alg : defaultAlgorithm(jwk));
    } catch {
      throw ClientsError.metadata('jwks', `keys[${index}] is not a usable public JSON Web Key`);
    }
    if (jwk.kty === 'RSA' && modulusBits(jwk.n) < MIN_RSA_BITS) {
      throw ClientsError.metadata('jwks', `keys[${index}] is an RSA key shorter than ${MIN_RSA_BITS} bits`);
    }
  }
}

function checkKeySetShape(jwks: Record<string, unknown>): JsonWebKeySet {
  const keys = jwks['keys'];
  if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'object' && key !== null && !Array.isArray(key))) {
    throw ClientsError.metadata('jwks', 'must be a JSON Web Key Set: an object whose "keys" is an array of keys');
  }
  return jwks as unknown as JsonWebKeySet;
}

/** Bits of an RSA modulus given as base64url; jose refuses to verify with fewer than 2048. */
function modulusBits(n: string | undefined): number {
  const bytes = Buffer.from(n ?? '', 'base64url');
  const significant = bytes.findIndex((byte) => byte !== 0);
  return significant === -1 ? 0 : (bytes.length - significant - 1) * 8 + Math.floor(Math.log2(bytes[significant]!)) + 1;
}

/** An algorithm to import a JWK that names none, chosen from its key type and curve. */
function defaultAlgorithm(jwk: JWK): string | undefined {
  switch (jwk.kty) {
    case 'RSA':
      return jwk.use === 'enc' ? 'RSA-OAEP' : 'RS256';
    case 'EC':
      return { 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' }[jwk.crv ?? ''];
    case 'OKP':
      return jwk.crv === 'Ed25519' || jwk.crv === 'Ed448' ? 'EdDSA' : 'ECDH-ES';
    default:
      return undefined;
  }
}

/** OAuth 2.0 redirection endpoints: absolute, no fragment (RFC 6749 §3.1.2), https unless loopback. */
function checkRedirectUri(uri: string): void {
  const field = 'redirect_uris';
  if (uri.includes('#')) throw ClientsError.redirectUri(field, `${quote(uri)} must not contain a fragment`);
  // The URL parser drops CR, LF and tab silently: a URI holding them would be matched as typed but
  // mean another one (and could never go into a Location header as it is).
  if (hasControlCharacter(uri)) throw ClientsError.redirectUri(field, `${quote(uri)} must not contain control characters`);
  const url = parseUrl(uri);
  if (url === undefined) throw ClientsError.redirectUri(field, `${quote(uri)} must be an absolute URI`);
  if (FORBIDDEN_REDIRECT_SCHEMES.includes(url.protocol)) throw ClientsError.redirectUri(field, `${quote(uri)} uses a forbidden scheme`);
  if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname === '') {
    throw ClientsError.redirectUri(field, `${quote(uri)} must name a host`);
  }
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.includes(url.hostname)) {
    throw ClientsError.redirectUri(field, `${quote(uri)} may use http only on a loopback host; use https`);
  }
}

/** Hydra's rule: same scheme, host and port as one of the redirect URIs. */
function checkPostLogoutRedirectUri(uri: string, redirectUris: readonly string[]): void {
  const field = 'post_logout_redirect_uris';
  const url = parseUrl(uri);
  if (url === undefined || uri.includes('#') || hasControlCharacter(uri))
    throw ClientsError.metadata(field, `${quote(uri)} must be an absolute URI without a fragment or control characters`);
  const matches = redirectUris.some((redirect) => {
    const other = parseUrl(redirect);
    return other !== undefined && other.protocol === url.protocol && other.hostname === url.hostname && other.port === url.port;
  });
  if (!matches) throw ClientsError.metadata(field, `${quote(uri)} must share scheme, host and port with one of the redirect_uris`);
}

/** RFC 7591 §2.1: `code` needs the authorization_code grant; `token` and `id_token` need implicit. */
function checkResponseType(responseType: string, grantTypes: readonly string[]): void {
  const field = 'response_types';
  const parts = responseType.split(' ');
  if (parts.some((part) => !RESPONSE_TYPE_PARTS.includes(part)) || new Set(parts).size !== parts.length) {
    throw ClientsError.metadata(
      field,
      `${quote(responseType)} is not a supported response type (made of ${RESPONSE_TYPE_PARTS.join(', ')})`,
    );
  }
  if (parts.includes('code') && !grantTypes.includes('authorization_code')) {
    throw ClientsError.metadata(field, `${quote(responseType)} needs the authorization_code grant in grant_types`);
  }
  if ((parts.includes('token') || parts.includes('id_token')) && !grantTypes.includes('implicit')) {
    throw ClientsError.metadata(field, `${quote(responseType)} needs the implicit grant in grant_types`);
  }
}

/** Origins only (Hydra): http(s), no credentials, no path, query or fragment. Stored as the origin. */
function checkCorsOrigin(origin: string): string {
  const field = 'allowed_cors_origins';
  const url = parseUrl(origin);
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw ClientsError.metadata(field, `${quote(origin)} must be an http or https origin`);
  }
  if (url.username !== '' || url.password !== '') throw ClientsError.metadata(field, `${quote(origin)} must not carry credentials`);
  if (url.pathname !== '/' || origin.includes('?') || origin.includes('#')) {
    throw ClientsError.metadata(field, `${quote(origin)} must have no path, query or fragment`);
  }
  return url.origin;
}

function checkWebUrl(field: string, uri: string, allow: { fragment: boolean }): void {
  const url = parseUrl(uri);
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw ClientsError.metadata(field, `${quote(uri)} must be an absolute http or https URL`);
  }
  if (!allow.fragment && uri.includes('#')) throw ClientsError.metadata(field, `${quote(uri)} must not contain a fragment`);
}

/** RFC 6749 §3.3 scope tokens, stored joined by single spaces. */
function checkScope(scope: string): string {
  const tokens = scope.split(' ').filter((token) => token !== '');
  const bad = tokens.find((token) => !SCOPE_TOKEN.test(token));
  if (bad !== undefined || tokens.length === 0)
    throw ClientsError.metadata('scope', 'must be space-separated scope tokens of printable ASCII');
  return tokens.join(' ');
}

function oneOf<T extends string>(field: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw ClientsError.metadata(field, `must be one of ${allowed.join(', ')}`);
  return value as T;
}

function optionalOneOf(field: string, value: string, allowed: readonly string[]): string {
  return value === '' ? '' : oneOf(field, value, allowed);
}

function outboundProblem(error: unknown): string {
  if (!(error instanceof OutboundError)) throw error;
  switch (error.failure) {
    case OutboundFailure.InvalidUrl:
      return 'is not an absolute http or https URL';
    case OutboundFailure.ForbiddenAddress:
      return 'points to a private, loopback or reserved address';
    case OutboundFailure.Unresolvable:
      return 'names a host that does not resolve';
    case OutboundFailure.Timeout:
      return 'did not answer in time';
    case OutboundFailure.TooLarge:
      return 'answered with a document over the size limit';
    case OutboundFailure.Network:
      return 'could not be fetched';
  }
}

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

function hostOf(uri: string): string {
  return parseUrl(uri)?.hostname ?? uri;
}

function hasControlCharacter(value: string): boolean {
  return [...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);
}

function text(value: string | null | undefined): string {
  return value ?? '';
}

function list(value: string[] | null | undefined): string[] {
  return value ?? [];
}

function quote(value: string): string {
  return JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value);
}
