import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../common/errors/app-error.js';
import { ErrorKind } from '../common/errors/error-kind.js';
import { requestCookies } from '../common/http/cookies.js';
import { effectiveClaimsMapping } from '../common/oidc/standard-claims.js';
import type { OAuth2Config, SelfServiceConfig, UrlsConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { ConsentAdminService, type ConsentRequestView, type LoginRequestView } from '../consent/index.js';
import { IdentitiesService, type IdentityRecord } from '../identities/index.js';
import { BrowserUiService, type BrowserSessionView, FlowResponder, selfServiceRequestOf } from '../self-service/index.js';
import { claimsByScope, claimsForScopes, type ClaimsByScope } from './identity-claims.js';
import { SCOPE_TEXTS, UI_TEXTS } from './ui-catalogue.js';
import { checked, decisionOf, queryValue, requiredField, singleValue } from './ui-forms.js';
import { UiRenderer } from './ui-renderer.js';
import { UiError } from './ui.errors.js';

/** The request and reply of one page exchange. */
export interface PageHttp {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
}

/**
 * The key of the login `context` that carries the identity's claims by scope to the consent request,
 * where the built-in consent (or an app of one's own) picks those of the granted scopes.
 */
export const CLAIMS_CONTEXT_KEY = 'claims_by_scope';

const DENIED = { error: 'access_denied', error_description: 'The resource owner denied the request.' };

/**
 * The built-in OAuth2 login, consent and logout pages: they answer the hand-off as a deployer's apps
 * would, through the consent context's service rather than the admin API. Login signs the browser in
 * with a self-service login flow and accepts with the identity id as subject; consent grants the
 * requested scopes with the identity's claims for them; logout asks first, then ends the browser's
 * self-service session too.
 */
@Injectable()
export class OAuth2Pages {
  private readonly issuer: string;
  private readonly mapping: Readonly<Record<string, string>>;
  private readonly loginPage: URL;

  constructor(
    @InjectConfig('urls') urls: UrlsConfig,
    @InjectConfig('oauth2') private readonly oauth2: OAuth2Config,
    @InjectConfig('selfService') private readonly selfServiceConfig: SelfServiceConfig,
    private readonly consent: ConsentAdminService,
    private readonly selfService: BrowserUiService,
    private readonly identities: IdentitiesService,
    private readonly renderer: UiRenderer,
    private readonly responder: FlowResponder,
  ) {
    this.issuer = urls.issuer;
    this.mapping = effectiveClaimsMapping(oauth2.claimsMapping);
    this.loginPage = new URL(`${this.issuer}/ui/oauth2/login`);
  }

  /** `GET /ui/oauth2/login?login_challenge=`: skip, send to the sign-in form, or ask to continue as the signed-in identity. */
  async showLogin(http: PageHttp): Promise<FastifyReply> {
    this.assertOn('login');
    const challenge = queryValue(http.request, 'login_challenge');
    if (challenge === undefined) throw UiError.invalidRequest('login_challenge');
    const { request, client } = await this.consent.getLoginRequest(challenge);
    if (request.skip) {
      const record = await this.identityOrUndefined(request.subject);
      const location = await this.consent.acceptLoginRequest(challenge, {
        subject: request.subject,
        remember: true,
        context: this.loginContext(record),
      });
      return this.renderer.redirect(http.reply, location);
    }
    const session = await this.selfService.session(selfServiceRequestOf(http.request));
    if (session === undefined || !this.freshEnough(session, request.requestUrl, request.requestedAt)) {
      const signIn = new URL(`${this.issuer}/self-service/login/browser`);
      if (session !== undefined) signIn.searchParams.set('refresh', 'true');
      signIn.searchParams.set('return_to', this.pageUrl('login', 'login_challenge', challenge));
      return this.renderer.redirect(http.reply, signIn.href);
    }
    const record = await this.identities.get(session.identityId);
    return this.renderer.send(http.reply, 'oauth2-login', UI_TEXTS.oauth2Login.title, {
      who: displayName(record),
      clientName: clientName(client),
      action: `${this.issuer}/ui/oauth2/login`,
      challenge,
      csrfToken: this.formToken(http),
    });
  }

  /**
   * The `login_hint` of the authorization a sign-in returns to, when it returns to this login page
   * with a login request that is still open; else undefined (the sign-in works as ever without it).
   */
  async loginHintFor(returnTo: string | null): Promise<string | undefined> {
    if (returnTo === null || !URL.canParse(returnTo) || !this.oauth2.builtInPages.login) return undefined;
    const url = new URL(returnTo);
    if (url.origin !== this.loginPage.origin || url.pathname !== this.loginPage.pathname) return undefined;
    const challenge = url.searchParams.get('login_challenge');
    if (challenge === null || challenge === '') return undefined;
    try {
      const hint = (await this.consent.getLoginRequest(challenge)).request.oidcContext.login_hint;
      return hint === '' ? undefined : hint;
    } catch (error) {
      if (error instanceof AppError && (error.kind === ErrorKind.NotFound || error.kind === ErrorKind.Conflict)) return undefined;
      throw error;
    }
  }

  /** `POST /ui/oauth2/login`: continue (remembered per the checkbox) or cancel, back to the client either way. */
  async submitLogin(http: PageHttp): Promise<FastifyReply> {
    this.assertOn('login');
    this.selfService.verifyFormToken(selfServiceRequestOf(http.request), singleValue(http.request.body, 'csrf_token'));
    const challenge = requiredField(http.request, 'login_challenge');
    if (decisionOf(http.request) === 'reject') {
      return this.renderer.redirect(http.reply, await this.consent.rejectLoginRequest(challenge, DENIED));
    }
    const session = await this.selfService.session(selfServiceRequestOf(http.request));
    const { request } = await this.consent.getLoginRequest(challenge);
    // The form may be posted without the page (or long after it): a session that this request needs
    // to see re-authenticated (prompt=login, max_age) goes back through the page, to the sign-in.
    if (session === undefined || !this.freshEnough(session, request.requestUrl, request.requestedAt)) {
      return this.renderer.redirect(http.reply, this.pageUrl('login', 'login_challenge', challenge));
    }
    const record = await this.identities.get(session.identityId);
    const remember = checked(http.request, 'remember');
    const location = await this.consent.acceptLoginRequest(challenge, {
      subject: session.identityId,
      remember,
      // A remembered login lasts no longer than the self-service session it came from.
      remember_for: remember ? this.selfServiceConfig.sessionLifespan : 0,
      amr: ['pwd'],
      context: this.loginContext(record),
    });
    return this.renderer.redirect(http.reply, location);
  }

  /** `GET /ui/oauth2/consent?consent_challenge=`: granted at once when remembered or for a first-party client, else asked. */
  async showConsent(http: PageHttp): Promise<FastifyReply> {
    this.assertOn('consent');
    const challenge = queryValue(http.request, 'consent_challenge');
    if (challenge === undefined) throw UiError.invalidRequest('consent_challenge');
    const view = await this.askedInThisBrowser(http, challenge);
    const { request, client } = view;
    if (request.skip || client.metadata['first_party'] === true) {
      return this.renderer.redirect(http.reply, await this.grant(view, request.skip));
    }
    const record = await this.identityOrUndefined(request.subject);
    return this.renderer.send(http.reply, 'consent', UI_TEXTS.consent.title, {
      client: {
        name: clientName(client),
        logoUri: client.logoUri === '' ? undefined : client.logoUri,
        links: [
          ...(client.policyUri === '' ? [] : [{ href: client.policyUri, text: UI_TEXTS.consent.policy }]),
          ...(client.tosUri === '' ? [] : [{ href: client.tosUri, text: UI_TEXTS.consent.terms }]),
        ],
      },
      who: record === undefined ? undefined : displayName(record),
      scopes: request.requestedScope.map((scope) => ({
        scope,
        text: SCOPE_TEXTS[scope] ?? scope,
        unknown: SCOPE_TEXTS[scope] === undefined,
      })),
      action: `${this.issuer}/ui/oauth2/consent`,
      challenge,
      csrfToken: this.formToken(http),
    });
  }

  /** `POST /ui/oauth2/consent`: allow (remembered per the checkbox) or deny. */
  async submitConsent(http: PageHttp): Promise<FastifyReply> {
    this.assertOn('consent');
    this.selfService.verifyFormToken(selfServiceRequestOf(http.request), singleValue(http.request.body, 'csrf_token'));
    const challenge = requiredField(http.request, 'consent_challenge');
    const decision = decisionOf(http.request);
    const view = await this.askedInThisBrowser(http, challenge);
    if (decision === 'reject') {
      return this.renderer.redirect(http.reply, await this.consent.rejectConsentRequest(challenge, DENIED));
    }
    return this.renderer.redirect(http.reply, await this.grant(view, checked(http.request, 'remember')));
  }

  /** `GET /ui/oauth2/logout?logout_challenge=`: asks whether to sign out. */
  async showLogout(http: PageHttp): Promise<FastifyReply> {
    this.assertOn('logout');
    const challenge = queryValue(http.request, 'logout_challenge');
    if (challenge === undefined) throw UiError.invalidRequest('logout_challenge');
    await this.consent.getLogoutRequest(challenge);
    return this.renderer.send(http.reply, 'logout', UI_TEXTS.logout.title, {
      action: `${this.issuer}/ui/oauth2/logout`,
      challenge,
      csrfToken: this.formToken(http),
    });
  }

  /** `POST /ui/oauth2/logout`: yes ends the self-service session and goes on with the logout; no stays signed in. */
  async submitLogout(http: PageHttp): Promise<FastifyReply> {
    this.assertOn('logout');
    this.selfService.verifyFormToken(selfServiceRequestOf(http.request), singleValue(http.request.body, 'csrf_token'));
    const challenge = requiredField(http.request, 'logout_challenge');
    if (decisionOf(http.request) === 'reject') {
      await this.consent.rejectLogoutRequest(challenge);
      return this.renderer.send(http.reply, 'message', UI_TEXTS.logout.title, { text: UI_TEXTS.logout.stayed });
    }
    const location = await this.consent.acceptLogoutRequest(challenge);
    const input = selfServiceRequestOf(http.request);
    await this.selfService.endSession(input);
    this.responder.writeCookies(http.reply, input);
    return this.renderer.redirect(http.reply, location);
  }

  /** Grants every requested scope and audience, with the claims of the granted scopes in ID tokens and /userinfo. */
  private async grant({ request, challenge }: ConsentRequestView, remember: boolean): Promise<string> {
    const context = request.context as Record<string, unknown>;
    const byScope =
      context[CLAIMS_CONTEXT_KEY] ?? (await this.identityOrUndefined(request.subject).then((record) => this.claimsOf(record)));
    return this.consent.acceptConsentRequest(challenge, {
      grant_scope: [...request.requestedScope],
      grant_access_token_audience: [...request.requestedAudience],
      remember,
      session: { id_token: claimsForScopes(byScope, request.requestedScope) },
    });
  }

  /**
   * The consent request, only in the browser it was asked in (else 403 `request_forbidden`): whoever
   * else holds the challenge (a link passed on, another person at another browser) can neither see
   * whose account it is nor answer for them.
   */
  private async askedInThisBrowser(http: PageHttp, challenge: string): Promise<ConsentRequestView> {
    const view = await this.consent.getConsentRequest(challenge);
    this.consent.assertAskedIn(view, requestCookies(http.request));
    return view;
  }

  /** What the login hands on to the consent request: the identity's claims by scope (documented for consent apps). */
  private loginContext(record: IdentityRecord | undefined): Record<string, unknown> {
    return record === undefined ? {} : { [CLAIMS_CONTEXT_KEY]: this.claimsOf(record) };
  }

  private claimsOf(record: IdentityRecord | undefined): ClaimsByScope {
    if (record === undefined) return {};
    return claimsByScope(
      { traits: record.identity.traits, verifiableAddresses: record.verifiableAddresses, updatedAt: record.identity.updatedAt },
      this.mapping,
    );
  }

  /** The identity a subject names, if it names one (an external login app may use subjects of its own). */
  private async identityOrUndefined(subject: string): Promise<IdentityRecord | undefined> {
    try {
      return await this.identities.get(subject);
    } catch (error) {
      if (error instanceof AppError && error.kind === ErrorKind.NotFound) return undefined;
      throw error;
    }
  }

  /**
   * Whether the browser's session is recent enough for this authorization: `prompt=login` asks for a
   * sign-in after the request was made, `max_age` for one within that many seconds.
   */
  private freshEnough(session: BrowserSessionView, requestUrl: string, requestedAt: Date): boolean {
    const parameters = new URL(requestUrl, this.issuer).searchParams;
    const signedInSince = session.authenticatedAt.getTime() >= requestedAt.getTime();
    if ((parameters.get('prompt') ?? '').split(' ').includes('login') && !signedInSince) return false;
    const maxAge = Number(parameters.get('max_age') ?? Number.NaN);
    if (Number.isInteger(maxAge) && maxAge >= 0 && Date.now() - session.authenticatedAt.getTime() > maxAge * 1000) return false;
    return true;
  }

  private pageUrl(page: 'login', parameter: string, value: string): string {
    const url = new URL(`${this.issuer}/ui/oauth2/${page}`);
    url.searchParams.set(parameter, value);
    return url.href;
  }

  /** A page whose URL setting points at an app of one's own is not served. */
  private assertOn(page: 'login' | 'consent' | 'logout'): void {
    if (!this.oauth2.builtInPages[page]) throw UiError.pageNotFound();
  }

  /** The form token of this page's form; the browser's CSRF cookie is set when it has none. */
  private formToken(http: PageHttp): string {
    const input = selfServiceRequestOf(http.request);
    const token = this.selfService.formToken(input);
    this.responder.writeCookies(http.reply, input);
    return token;
  }
}

type Client = LoginRequestView['client'];

function clientName(client: Client): string {
  return client.name === '' ? client.id : client.name;
}

/** How a page names the signed-in person: the e-mail trait when there is one, else the identity id. */
function displayName(record: IdentityRecord): string {
  const traits = record.identity.traits as Record<string, unknown>;
  return typeof traits['email'] === 'string' ? traits['email'] : record.identity.id;
}
