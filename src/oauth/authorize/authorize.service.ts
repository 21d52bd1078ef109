import { Injectable } from '@nestjs/common';
import { ClientsService, type Client } from '../../clients/index.js';
import { AppError } from '../../common/errors/app-error.js';
import { ErrorKind } from '../../common/errors/error-kind.js';
import { type OAuth2Config, type UrlsConfig } from '../../config/app-config.js';
import {
  ConsentError,
  ConsentErrorCode,
  ConsentFlowService,
  type AuthorizationContext,
  type BrowserState,
  type CookieInstruction,
} from '../../consent/index.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { AuthorizeResponseIssuer } from '../tokens/authorize-response.issuer.js';
import { IdTokenHintVerifier } from '../tokens/id-token-hint.verifier.js';
import { SubjectIdentifiers } from '../tokens/subject-identifiers.js';
import { AuthorizeError, AuthorizeErrorCode } from './authorize.errors.js';
import { AuthorizeParameters, type AuthorizeHttpInput } from './authorize-parameters.js';
import type { ErrorDestination, ValidAuthorizeRequest } from './authorize-request.js';
import { errorDestination, validateAuthorizeRequest } from './authorize-request.validator.js';
import { deliverToClient, type AuthorizeDelivery } from './authorize-response.js';
import { resolveRedirectUri } from './redirect-uri.js';
import { RequestObjectResolver } from './request-object.resolver.js';

export interface AuthorizeInput extends AuthorizeHttpInput {
  readonly cookies: Readonly<Record<string, string | undefined>>;
}

/**
 * What the authorization endpoint answers: something for the browser (a redirect to the login or
 * consent app, or the response to the client, possibly an error) with cookies to set, or an error
 * shown here because it must not go to any client.
 */
export type AuthorizeOutcome =
  | { readonly kind: 'deliver'; readonly delivery: AuthorizeDelivery; readonly cookies: readonly CookieInstruction[] }
  | { readonly kind: 'show_error'; readonly error: AppError };

/**
 * `GET|POST /oauth2/auth` as a list of steps: read the parameters; find the client and the redirect
 * URI (errors up to here are shown, never redirected: RFC 6749 §4.1.2.1); validate the rest; verify
 * id_token_hint; let the consent context run the login/consent hand-off; issue the response. Errors
 * after the redirect URI is known go to the client in its response mode, with `state`.
 */
@Injectable()
export class AuthorizeService {
  constructor(
    private readonly clients: ClientsService,
    private readonly consentFlow: ConsentFlowService,
    private readonly issuer: AuthorizeResponseIssuer,
    private readonly hintVerifier: IdTokenHintVerifier,
    private readonly subjects: SubjectIdentifiers,
    private readonly requestObjects: RequestObjectResolver,
    @InjectConfig('oauth2') private readonly oauth2: OAuth2Config,
    @InjectConfig('urls') private readonly urls: UrlsConfig,
  ) {}

  async authorize(input: AuthorizeInput): Promise<AuthorizeOutcome> {
    let params = AuthorizeParameters.from(input);
    let destination: ErrorDestination;
    let client: Client;
    try {
      client = await this.clientOf(params);
      params = await this.requestObjects.resolve(params, client);
      destination = errorDestination(params, resolveRedirectUri(client, redirectUriOf(params)));
    } catch (error) {
      return { kind: 'show_error', error: asAuthorizeError(error) };
    }
    try {
      return await this.continueWith(params, client, destination.redirectUri, input.cookies);
    } catch (error) {
      const failure = asAuthorizeError(error);
      if (failure.shownHere) return { kind: 'show_error', error: failure };
      return { kind: 'deliver', delivery: deliverError(destination, failure), cookies: [] };
    }
  }

  private async clientOf(params: AuthorizeParameters): Promise<Client> {
    const clientId = single(params, 'client_id');
    if (clientId === undefined) throw AuthorizeError.invalidRequest('client_id is required.');
    try {
      return await this.clients.get(clientId);
    } catch (error) {
      if (error instanceof AppError && error.kind === ErrorKind.NotFound) {
        throw new AuthorizeError(AuthorizeErrorCode.InvalidClient, 'The requested OAuth 2.0 client does not exist.');
      }
      throw error;
    }
  }

  private async continueWith(
    params: AuthorizeParameters,
    client: Client,
    redirectUri: string,
    cookies: Readonly<Record<string, string | undefined>>,
  ): Promise<AuthorizeOutcome> {
    const request = validateAuthorizeRequest(params, client, redirectUri, { scopeRules: this.oauth2 });
    const context = await this.contextOf(request, params);
    const browser: BrowserState = { cookies, loginVerifier: params.get('login_verifier'), consentVerifier: params.get('consent_verifier') };
    const step = await this.consentFlow.advance(context, browser);
    if (step.kind === 'redirect')
      return { kind: 'deliver', delivery: { kind: 'redirect', location: step.location }, cookies: step.cookies };
    const parameters = await this.issuer.issue({
      client,
      redirectUri,
      responseTypes: request.responseTypes,
      state: request.state,
      nonce: request.nonce,
      codeChallenge: request.codeChallenge,
      claimsRequest: request.claims,
      grant: step.grant,
    });
    return {
      kind: 'deliver',
      delivery: deliverToClient(redirectUri, request.responseMode, { ...parameters, state: request.state }),
      cookies: step.cookies,
    };
  }

  /** The request as the consent context sees it; a given id_token_hint must be an ID token we issued to this client. */
  private async contextOf(request: ValidAuthorizeRequest, params: AuthorizeParameters): Promise<AuthorizationContext> {
    let hintMatches: AuthorizationContext['hintMatches'];
    let oidcContext = request.oidcContext;
    if (request.idTokenHint !== undefined) {
      const hint = await this.hintVerifier.verify(request.idTokenHint);
      const audience = hint === undefined ? [] : typeof hint.aud === 'string' ? [hint.aud] : (hint.aud ?? []);
      if (hint === undefined || !audience.includes(request.client.id)) {
        throw AuthorizeError.invalidRequest('id_token_hint is not a valid ID token issued by this service to this client.');
      }
      // Hydra compares the hint with the subject both as accepted and as this client sees it.
      hintMatches = (subject, forced) => hint.sub === subject || hint.sub === this.subjects.forClient(request.client, subject, forced);
      oidcContext = { ...oidcContext, id_token_hint_claims: hint };
    }
    return {
      client: request.client,
      requestUrl: `${this.urls.issuer}/oauth2/auth?${params.requestQuery}`,
      redirectUri: request.redirectUri,
      requestedScope: request.scope,
      requestedAudience: request.audience,
      prompt: request.prompt,
      maxAgeSeconds: request.maxAgeSeconds,
      oidcContext,
      hintMatches,
    };
  }
}

/**
 * The requested redirect URI. OIDC Core §3.1.2.1 makes it required for OpenID Connect requests,
 * whatever the client registered: without it the ID token would go wherever the registration says.
 */
function redirectUriOf(params: AuthorizeParameters): string | undefined {
  const requested = single(params, 'redirect_uri');
  if (requested === undefined && params.list('scope').includes('openid')) {
    throw AuthorizeError.invalidRequest('redirect_uri is required for OpenID Connect requests (scope openid).');
  }
  return requested;
}

/** A parameter that decides where errors go: given twice, it cannot be trusted for that. */
function single(params: AuthorizeParameters, name: string): string | undefined {
  if (params.repeated().includes(name)) throw AuthorizeError.invalidRequest(`Parameter ${name} must not be given more than once.`);
  return params.get(name);
}

function deliverError(destination: ErrorDestination, error: AuthorizeError): AuthorizeDelivery {
  return deliverToClient(destination.redirectUri, destination.responseMode, {
    error: error.code,
    ...(error.message === '' ? {} : { error_description: error.message }),
    ...(error.hint === undefined || error.hint === '' ? {} : { error_hint: error.hint }),
    ...(destination.state === undefined ? {} : { state: destination.state }),
  });
}

/**
 * Errors of the later steps as authorization errors: the consent context's by its code (an expired
 * request and a CSRF failure are shown here, the rest go to the client), any other 4xx AppError (token
 * issuing's) by its wire code. Anything else is a server error and is rethrown.
 */
function asAuthorizeError(error: unknown): AuthorizeError {
  if (error instanceof AuthorizeError) return error;
  if (error instanceof ConsentError) return fromConsentError(error);
  if (error instanceof AppError && error.kind !== ErrorKind.Internal && error.kind !== ErrorKind.Unavailable) {
    return new AuthorizeError(AuthorizeErrorCode.InvalidRequest, error.message, undefined, error.code);
  }
  throw error;
}

function fromConsentError(error: ConsentError): AuthorizeError {
  switch (error.reason) {
    case ConsentErrorCode.LoginRequired:
      return new AuthorizeError(AuthorizeErrorCode.LoginRequired, error.message);
    case ConsentErrorCode.ConsentRequired:
      return new AuthorizeError(AuthorizeErrorCode.ConsentRequired, error.message);
    case ConsentErrorCode.AccessDenied:
      return new AuthorizeError(AuthorizeErrorCode.AccessDenied, error.message);
    case ConsentErrorCode.RequestUnauthorized:
      return new AuthorizeError(AuthorizeErrorCode.RequestUnauthorized, error.message);
    case ConsentErrorCode.RequestForbidden:
      return new AuthorizeError(AuthorizeErrorCode.RequestForbidden, error.message);
    case ConsentErrorCode.InvalidRequest:
      return AuthorizeError.invalidRequest(error.message);
    case ConsentErrorCode.Rejected:
      return AuthorizeError.rejected(error.code, error.message, error.rejection?.errorHint);
    case ConsentErrorCode.NotFound:
    case ConsentErrorCode.Conflict:
      // advance() never throws these (admin API only): reaching here is a bug, not a client error.
      throw error;
  }
}
