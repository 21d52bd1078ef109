import type { Client } from '../../clients/index.js';
import { scopeAllowed, type OidcContext, type Prompt, type ScopeRules } from '../../consent/index.js';
import { audiencesNotAllowed } from '../strategies/audience-strategy.js';
import type { ResponseType } from '../tokens/authorized-request.js';
import { parseClaimsRequest, type ClaimsRequest } from '../tokens/claims-request.js';
import { AuthorizeError, AuthorizeErrorCode } from './authorize.errors.js';
import type { AuthorizeParameters } from './authorize-parameters.js';
import type { ErrorDestination, ValidAuthorizeRequest } from './authorize-request.js';
import { defaultResponseMode, isResponseMode, type ResponseMode } from './response-mode.js';

export interface AuthorizeValidationSettings {
  readonly scopeRules: ScopeRules;
}

/** fosite's MinParameterEntropy: the shortest `state` and `nonce` accepted. */
export const MIN_PARAMETER_LENGTH = 8;
const RESPONSE_TYPE_WORDS: ReadonlySet<string> = new Set<ResponseType>(['code', 'token', 'id_token']);
const PROMPTS: ReadonlySet<string> = new Set<Prompt>(['none', 'login', 'consent', 'select_account']);
/** RFC 7636 §4.2: an S256 challenge is 43 characters; the unreserved alphabet and 128 are the general bounds. */
const CODE_CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/;
const NON_NEGATIVE_INTEGER = /^\d{1,15}$/;

/**
 * The checks of an authorization request once its client and redirect URI are known, in order; the
 * first that fails throws an AuthorizeError, which is then sent to the redirect URI (see
 * `errorDestination`). Pure: the id_token_hint signature and the login/consent state come later.
 */
export function validateAuthorizeRequest(
  params: AuthorizeParameters,
  client: Client,
  redirectUri: string,
  settings: AuthorizeValidationSettings,
): ValidAuthorizeRequest {
  refuseRepeatedParameters(params);
  const responseTypes = responseTypesOf(params, client);
  const responseMode = responseModeOf(params, responseTypes);
  refuseRegistration(params);
  const state = stateOf(params);
  const scope = scopeOf(params, client, settings.scopeRules);
  const audience = audienceOf(params, client);
  requireOpenIdForIdToken(responseTypes, scope);
  const claims = claimsOf(params, scope);
  return {
    client,
    redirectUri,
    responseTypes,
    responseMode,
    state,
    scope,
    audience,
    nonce: nonceOf(params, responseTypes, scope),
    prompt: promptOf(params),
    maxAgeSeconds: maxAgeOf(params),
    codeChallenge: codeChallengeOf(params, client, responseTypes),
    idTokenHint: params.get('id_token_hint'),
    claims,
    oidcContext: { ...oidcContextOf(params), ...(claims === undefined ? {} : { claims: { ...claims } }) },
  };
}

/**
 * Where errors found after the redirect URI go: the requested response mode when it is a known one,
 * else the default for the requested response type (query when even that cannot be read).
 */
export function errorDestination(params: AuthorizeParameters, redirectUri: string): ErrorDestination {
  const requestedMode = params.get('response_mode');
  const words = params.list('response_type');
  const types = new Set(words.filter((word): word is ResponseType => RESPONSE_TYPE_WORDS.has(word)));
  const responseMode: ResponseMode =
    requestedMode !== undefined && isResponseMode(requestedMode) ? requestedMode : types.size === 0 ? 'query' : defaultResponseMode(types);
  return { redirectUri, responseMode, state: params.get('state') };
}

/** RFC 6749 §3.1: request parameters must not be included more than once. */
export function refuseRepeatedParameters(params: AuthorizeParameters): void {
  const repeated = params.repeated();
  if (repeated.length > 0) throw AuthorizeError.invalidRequest(`Parameter ${repeated[0]} must not be given more than once.`);
}

function responseTypesOf(params: AuthorizeParameters, client: Client): ReadonlySet<ResponseType> {
  const raw = params.get('response_type');
  if (raw === undefined) throw new AuthorizeError(AuthorizeErrorCode.UnsupportedResponseType, 'response_type is required.');
  const words = params.list('response_type');
  const types = new Set(words);
  if (words.length !== types.size || words.some((word) => !RESPONSE_TYPE_WORDS.has(word))) {
    throw new AuthorizeError(AuthorizeErrorCode.UnsupportedResponseType, `response_type "${raw}" is not supported.`);
  }
  // Order does not matter: `id_token code` is `code id_token` (OAuth 2.0 Multiple Response Types §5).
  const allowed = client.responseTypes.some((registered) => {
    const registeredWords = registered.split(' ').filter((word) => word !== '');
    return registeredWords.length === types.size && registeredWords.every((word) => types.has(word));
  });
  if (!allowed) throw new AuthorizeError(AuthorizeErrorCode.UnsupportedResponseType, `The client may not use response_type "${raw}".`);
  return types as ReadonlySet<ResponseType>;
}

function responseModeOf(params: AuthorizeParameters, responseTypes: ReadonlySet<ResponseType>): ResponseMode {
  const requested = params.get('response_mode');
  if (requested === undefined) return defaultResponseMode(responseTypes);
  if (!isResponseMode(requested)) throw AuthorizeError.invalidRequest(`response_mode "${requested}" is not supported.`);
  // OAuth 2.0 Multiple Response Types §2.1: tokens never travel in the query (logs, Referer).
  if (requested === 'query' && (responseTypes.has('token') || responseTypes.has('id_token'))) {
    throw AuthorizeError.invalidRequest('response_mode "query" cannot be used with a response_type that returns tokens.');
  }
  return requested;
}

/** Dynamic registration is not built; discovery says so (request objects were resolved before). */
function refuseRegistration(params: AuthorizeParameters): void {
  if (params.get('registration') !== undefined) {
    throw new AuthorizeError(AuthorizeErrorCode.RegistrationNotSupported, 'The registration parameter is not supported.');
  }
}

/** OIDC Core §5.5: a JSON object, meaningful only in an OpenID Connect request. */
function claimsOf(params: AuthorizeParameters, scope: readonly string[]): ClaimsRequest | undefined {
  const claims = parseClaimsRequest(params.get('claims'));
  if (typeof claims === 'string') throw AuthorizeError.invalidRequest(claims);
  if (claims !== undefined && !scope.includes('openid')) throw AuthorizeError.invalidRequest('claims needs the openid scope.');
  return claims;
}

function stateOf(params: AuthorizeParameters): string {
  const state = params.get('state');
  if (state === undefined || state.length < MIN_PARAMETER_LENGTH) {
    throw new AuthorizeError(
      AuthorizeErrorCode.InvalidState,
      `state is required and must be at least ${MIN_PARAMETER_LENGTH} characters long.`,
    );
  }
  return state;
}

function scopeOf(params: AuthorizeParameters, client: Client, rules: ScopeRules): string[] {
  const requested = [...new Set(params.list('scope'))];
  const allowed = client.scope.split(' ').filter((scope) => scope !== '');
  const refused = requested.find((scope) => !scopeAllowed(rules, allowed, scope));
  if (refused !== undefined)
    throw new AuthorizeError(AuthorizeErrorCode.InvalidScope, `The client may not request the scope "${refused}".`);
  return requested;
}

function audienceOf(params: AuthorizeParameters, client: Client): string[] {
  const requested = [...new Set(params.list('audience'))];
  const refused = audiencesNotAllowed(client.audience, requested);
  if (refused.length > 0) throw AuthorizeError.invalidRequest(`The client may not request the audience "${refused[0]}".`);
  return requested;
}

function requireOpenIdForIdToken(responseTypes: ReadonlySet<ResponseType>, scope: readonly string[]): void {
  if (responseTypes.has('id_token') && !scope.includes('openid')) {
    throw AuthorizeError.invalidRequest('response_type id_token needs the openid scope.');
  }
}

/**
 * OIDC Core §3.2.2.1 and §3.3.2.11: the implicit and hybrid flows need a nonce (fosite: also
 * `code token` with openid). Where it is optional it must still be long enough when given.
 */
function nonceOf(params: AuthorizeParameters, responseTypes: ReadonlySet<ResponseType>, scope: readonly string[]): string | undefined {
  const nonce = params.get('nonce');
  const codeOrTokenAlone = responseTypes.size === 1 && (responseTypes.has('code') || responseTypes.has('token'));
  if (nonce === undefined) {
    if (scope.includes('openid') && !codeOrTokenAlone) {
      throw AuthorizeError.invalidRequest('nonce is required for the OpenID Connect implicit and hybrid flows.');
    }
    return undefined;
  }
  if (nonce.length < MIN_PARAMETER_LENGTH) {
    throw new AuthorizeError(AuthorizeErrorCode.InsufficientEntropy, `nonce must be at least ${MIN_PARAMETER_LENGTH} characters long.`);
  }
  return nonce;
}

function promptOf(params: AuthorizeParameters): ReadonlySet<Prompt> {
  const values = params.list('prompt');
  const unknown = values.find((value) => !PROMPTS.has(value));
  if (unknown !== undefined) throw AuthorizeError.invalidRequest(`prompt "${unknown}" is not supported.`);
  const prompt = new Set(values as Prompt[]);
  // OIDC Core §3.1.2.1: "none" with any other value is an error.
  if (prompt.has('none') && prompt.size > 1) throw AuthorizeError.invalidRequest('prompt "none" cannot be combined with other values.');
  return prompt;
}

function maxAgeOf(params: AuthorizeParameters): number | undefined {
  const raw = params.get('max_age');
  if (raw === undefined) return undefined;
  if (!NON_NEGATIVE_INTEGER.test(raw)) throw AuthorizeError.invalidRequest('max_age must be a non-negative integer (seconds).');
  return Number(raw);
}

/**
 * RFC 7636 with Hydra's policy: S256 only (a challenge without a method means plain, refused), and
 * required from public clients (RFC 9700 §2.1.1). Only a response type with a code carries one.
 */
function codeChallengeOf(params: AuthorizeParameters, client: Client, responseTypes: ReadonlySet<ResponseType>): string | undefined {
  if (!responseTypes.has('code')) return undefined;
  const challenge = params.get('code_challenge');
  const method = params.get('code_challenge_method');
  if (challenge === undefined) {
    if (method !== undefined) throw AuthorizeError.invalidRequest('code_challenge_method was given without a code_challenge.');
    if (client.tokenEndpointAuthMethod === 'none') {
      throw AuthorizeError.invalidRequest('Public clients must use PKCE: code_challenge (S256) is required.');
    }
    return undefined;
  }
  if (method !== 'S256') {
    throw AuthorizeError.invalidRequest('code_challenge_method must be S256 (plain is not allowed).');
  }
  if (!CODE_CHALLENGE.test(challenge)) {
    throw AuthorizeError.invalidRequest('code_challenge must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" and "~".');
  }
  return challenge;
}

function oidcContextOf(params: AuthorizeParameters): OidcContext {
  const acrValues = params.list('acr_values');
  const uiLocales = params.list('ui_locales');
  const display = params.get('display');
  const loginHint = params.get('login_hint');
  return {
    ...(acrValues.length > 0 ? { acr_values: acrValues } : {}),
    ...(uiLocales.length > 0 ? { ui_locales: uiLocales } : {}),
    ...(display !== undefined ? { display } : {}),
    ...(loginHint !== undefined ? { login_hint: loginHint } : {}),
  };
}
