import { Injectable } from '@nestjs/common';
import { ClientsService, type Client } from '../../clients/index.js';
import { AppError } from '../../common/errors/app-error.js';
import { ErrorKind } from '../../common/errors/error-kind.js';
import type { HtmlPage } from '../../common/html/html-page.js';
import { type OAuth2Config, type UrlsConfig } from '../../config/app-config.js';
import {
  ConsentFlowService,
  LOGIN_SESSION_COOKIE,
  type CookieInstruction,
  type LogoutCompletion,
  type LogoutStep,
} from '../../consent/index.js';
import { InjectConfig } from '../../config/inject-config.decorator.js';
import { IdTokenHintVerifier } from '../tokens/id-token-hint.verifier.js';
import { BackchannelLogoutNotifier } from './backchannel-logout.notifier.js';
import { frontchannelLogoutPage, frontchannelLogoutUris } from './frontchannel-logout.js';
import { LogoutError } from './logout.errors.js';

/** What the logout endpoint reads from the HTTP request. */
export interface LogoutInput {
  /** Query parameters (GET) or form fields (POST). */
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly cookies: Readonly<Record<string, string | undefined>>;
  /** The path and query the browser called. */
  readonly path: string;
}

/** What the endpoint answers: a redirect, or (front-channel logout) a page; with cookies either way. */
export type LogoutOutcome =
  | { readonly kind: 'redirect'; readonly location: string; readonly cookies: readonly CookieInstruction[] }
  | { readonly kind: 'page'; readonly page: HtmlPage; readonly cookies: readonly CookieInstruction[] };

/**
 * OpenID Connect RP-Initiated Logout 1.0 at `/oauth2/sessions/logout` (Hydra v1.5's LogoutHandler):
 * - `logout_verifier` (the browser back from the logout app): the consent context ends the session;
 * - neither `id_token_hint` nor `client_id`: an OP-initiated logout; `state` and
 *   `post_logout_redirect_uri` are refused, since nothing vouches for where to send the browser;
 * - `id_token_hint` (an ID token of ours, expired is fine, with a `sid`; its first audience, or the
 *   `client_id` sent with it, is the client) or `client_id` alone: RP-initiated;
 *   `post_logout_redirect_uri`, if any, must be exactly one of that client's
 *   post_logout_redirect_uris and gets `state`. `logout_hint` and `ui_locales` go to the logout app.
 * Whatever the parameters, only the browser's own session (its cookie) can end: a hint whose `sid`
 * is not that session ends nothing.
 * When the verifier ended a login session, every client granted tokens in it is told: back-channel
 * Logout Tokens are sent in the background, and front-channel logout URIs are loaded in iframes by a
 * page that then moves on to the post-logout redirect (a 302 when no client has one).
 * Every error goes to URLS_ERROR (Hydra's forwardError).
 */
@Injectable()
export class LogoutService {
  private readonly issuer: string;
  private readonly issuerIdentifier: string;
  private readonly errorUrl: string;
  private readonly defaultRedirect: string;

  constructor(
    @InjectConfig('oauth2') oauth2: OAuth2Config,
    @InjectConfig('urls') urls: UrlsConfig,
    private readonly hints: IdTokenHintVerifier,
    private readonly clients: ClientsService,
    private readonly consent: ConsentFlowService,
    private readonly backchannel: BackchannelLogoutNotifier,
  ) {
    this.issuer = urls.issuer;
    this.issuerIdentifier = urls.issuerIdentifier;
    this.errorUrl = oauth2.urls.error;
    this.defaultRedirect = oauth2.urls.postLogoutRedirect;
  }

  async logout(input: LogoutInput): Promise<LogoutOutcome> {
    try {
      return await this.step(input);
    } catch (error) {
      if (error instanceof AppError && error.kind !== ErrorKind.Internal && error.kind !== ErrorKind.Unavailable) {
        return { kind: 'redirect', location: this.errorLocation(error), cookies: [] };
      }
      throw error;
    }
  }

  private async step(input: LogoutInput): Promise<LogoutOutcome> {
    const sessionCookie = input.cookies[LOGIN_SESSION_COOKIE];
    const verifier = single(input.parameters, 'logout_verifier');
    if (verifier !== undefined) return this.complete(await this.consent.completeLogout(verifier, sessionCookie));
    return redirect(await this.start(input, sessionCookie));
  }

  /** The session ended: notify its clients, back-channel now and front-channel through the page. */
  private complete(completion: LogoutCompletion): LogoutOutcome {
    const { ended } = completion;
    if (ended === undefined) return redirect(completion);
    void this.backchannel.notify(ended);
    const uris = frontchannelLogoutUris(ended, this.issuerIdentifier);
    if (uris.length === 0) return redirect(completion);
    return { kind: 'page', page: frontchannelLogoutPage(completion.location, uris), cookies: completion.cookies };
  }

  /** No verifier: check the request, then the consent context says where the browser goes. */
  private async start(input: LogoutInput, sessionCookie: string | undefined): Promise<LogoutStep> {
    const parameter = (name: string): string | undefined => single(input.parameters, name);
    const hint = parameter('id_token_hint');
    const clientId = parameter('client_id');
    const requestedRedirect = parameter('post_logout_redirect_uri');
    const state = parameter('state');
    const hints = {
      logoutHint: parameter('logout_hint') ?? '',
      uiLocales: (parameter('ui_locales') ?? '').split(' ').filter((l) => l !== ''),
    };
    const requestUrl = `${this.issuer}${input.path}`;
    if (hint === undefined && clientId === undefined) {
      if (state !== undefined) throw LogoutError.invalidRequest('state is only accepted together with id_token_hint or client_id.');
      if (requestedRedirect !== undefined)
        throw LogoutError.invalidRequest('post_logout_redirect_uri is only accepted together with id_token_hint or client_id.');
      return this.consent.startLogout({
        requestUrl,
        sessionCookie,
        hintedSessionId: undefined,
        rpInitiated: false,
        postLogoutRedirectUri: this.defaultRedirect,
        ...hints,
      });
    }

    let sid: string | undefined;
    let client: Client;
    if (hint !== undefined) {
      const claims = await this.hints.verify(hint);
      if (claims === undefined) throw LogoutError.invalidRequest('id_token_hint is not an ID token issued by this service.');
      const claimedSid = claims['sid'];
      if (typeof claimedSid !== 'string' || claimedSid === '') throw LogoutError.invalidRequest('id_token_hint has no sid claim.');
      sid = claimedSid;
      const audience = typeof claims.aud === 'string' ? [claims.aud] : (claims.aud ?? []);
      // RP-Initiated Logout 1.0 §2: a client_id sent with the hint must be one of its audiences.
      if (clientId !== undefined && !audience.includes(clientId)) {
        throw LogoutError.invalidRequest('client_id is not an audience of the id_token_hint.');
      }
      // An ID token's `aud` holds the client_id first.
      client = await this.clientOf(clientId ?? audience[0], 'The client of the id_token_hint');
    } else {
      client = await this.clientOf(clientId, 'client_id');
    }
    return this.consent.startLogout({
      requestUrl,
      sessionCookie,
      hintedSessionId: sid,
      rpInitiated: true,
      postLogoutRedirectUri: requestedRedirect === undefined ? this.defaultRedirect : registeredRedirect(client, requestedRedirect, state),
      ...hints,
    });
  }

  /** The relying party asking for the logout; `what` names where its id came from, for the error. */
  private async clientOf(clientId: string | undefined, what: string): Promise<Client> {
    if (clientId === undefined || clientId === '') throw LogoutError.invalidRequest(`${what} is missing.`);
    try {
      return await this.clients.get(clientId);
    } catch (error) {
      if (error instanceof AppError && error.kind === ErrorKind.NotFound) {
        throw LogoutError.invalidRequest(`${what} names no client.`);
      }
      throw error;
    }
  }

  private errorLocation(error: AppError): string {
    const location = new URL(this.errorUrl);
    location.searchParams.set('error', error.code);
    location.searchParams.set('error_description', error.message);
    return location.toString();
  }
}

function redirect(step: LogoutStep): LogoutOutcome {
  return { kind: 'redirect', location: step.location, cookies: step.cookies };
}

/** OIDC RP-Initiated Logout §3: exact match with a registered value, or no redirection there at all. */
function registeredRedirect(client: Client, redirect: string, state: string | undefined): string {
  if (!client.postLogoutRedirectUris.includes(redirect)) {
    throw LogoutError.invalidRequest('post_logout_redirect_uri is not one of the post_logout_redirect_uris of the client.');
  }
  if (state === undefined) return redirect;
  const location = new URL(redirect);
  location.searchParams.set('state', state);
  return location.toString();
}

/** A parameter given once, undefined when absent or empty; a repeated one cannot be trusted. */
function single(parameters: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = parameters[name];
  if (Array.isArray(value)) throw LogoutError.invalidRequest(`${name} must not be given more than once.`);
  return typeof value === 'string' && value !== '' ? value : undefined;
}
