import { Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AppError } from '../common/errors/app-error.js';
import { ErrorKind } from '../common/errors/error-kind.js';
import type { SelfServiceConfig, UrlsConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { BrowserUiService, type BrowserFlowView, type FlowKind, FlowResponder, selfServiceRequestOf } from '../self-service/index.js';
import { formsOf, messageViews } from './flow-form-view.js';
import { OAuth2Pages, type PageHttp } from './oauth2-pages.service.js';
import { UI_TEXTS } from './ui-catalogue.js';
import { queryValue, singleValue } from './ui-forms.js';
import { UiRenderer } from './ui-renderer.js';
import { UiError } from './ui.errors.js';

/** The self-service pages and the path each is served at (the defaults of URLS_SELFSERVICE_*_UI). */
export const FLOW_PAGES: Readonly<Record<FlowKind, string>> = {
  login: '/ui/login',
  registration: '/ui/registration',
  settings: '/ui/settings',
  recovery: '/ui/recovery',
  verification: '/ui/verification',
};

/**
 * The self-service pages: each renders its flow's UI container generically (messages, then the form
 * of its nodes), with links to the other flows. A page without a usable flow (none given, unknown,
 * expired) starts a new browser flow, which comes back here with `?flow=`, as Ory's reference UI does.
 */
@Injectable()
export class FlowPages {
  private readonly issuer: string;

  constructor(
    @InjectConfig('urls') urls: UrlsConfig,
    @InjectConfig('selfService') private readonly selfServiceConfig: SelfServiceConfig,
    private readonly selfService: BrowserUiService,
    private readonly renderer: UiRenderer,
    private readonly responder: FlowResponder,
    private readonly oauth2: OAuth2Pages,
  ) {
    this.issuer = urls.issuer;
  }

  async show(kind: FlowKind, http: PageHttp): Promise<FastifyReply> {
    this.assertOn(kind);
    const flowId = queryValue(http.request, 'flow');
    if (flowId === undefined) return this.renderer.redirect(http.reply, this.startUrl(kind, queryValue(http.request, 'return_to')));
    let flow: BrowserFlowView;
    try {
      flow = await this.selfService.flow(kind, flowId, selfServiceRequestOf(http.request));
    } catch (error) {
      const restart = restartOf(error);
      if (restart === 'flow') return this.renderer.redirect(http.reply, this.startUrl(kind, undefined));
      if (restart === 'session') return this.renderer.redirect(http.reply, this.startUrl('login', `${this.issuer}${FLOW_PAGES[kind]}`));
      throw error;
    }
    const messages = messageViews(flow.ui.messages);
    const model: Record<string, unknown> = {
      messages,
      messagesAlert: messages.some((message) => message.isError),
      forms: formsOf(flow.ui, {
        splitByGroup: kind === 'settings',
        newPassword: kind !== 'login',
        identifierHint: kind === 'login' ? await this.oauth2.loginHintFor(flow.returnTo) : undefined,
      }),
      links: this.links(kind, flow.returnTo ?? undefined),
    };
    if (kind === 'settings') Object.assign(model, await this.sessionsSection(http));
    return this.renderer.send(http.reply, 'flow', UI_TEXTS[kind].title, model);
  }

  /** `POST /ui/settings/sessions`: signs the identity out of every other session. */
  async signOutElsewhere(http: PageHttp): Promise<FastifyReply> {
    this.assertOn('settings');
    this.selfService.verifyFormToken(selfServiceRequestOf(http.request), singleValue(http.request.body, 'csrf_token'));
    await this.selfService.signOutElsewhere(selfServiceRequestOf(http.request));
    return this.renderer.send(http.reply, 'message', UI_TEXTS.settings.title, {
      text: UI_TEXTS.settings.signedOutElsewhere,
      link: { href: `${this.issuer}${FLOW_PAGES.settings}`, text: UI_TEXTS.settings.title },
    });
  }

  /** `GET /ui/error?error=`: the errors a browser flow was sent here with. */
  async showError(http: PageHttp): Promise<FastifyReply> {
    if (this.selfServiceConfig.urls.error !== `${this.issuer}/ui/error`) throw UiError.pageNotFound();
    const container = await this.selfService.errorContainer(queryValue(http.request, 'error'));
    const errors = container.errors.map((error) => ({ status: error['code'], label: error['status'], message: error['message'] }));
    return this.renderer.send(http.reply, 'error', UI_TEXTS.error.title, { errors, restartUrl: this.startUrl('login', undefined) });
  }

  private async sessionsSection(http: PageHttp): Promise<Record<string, unknown>> {
    const { current, all, logoutToken } = await this.selfService.sessionsOfBrowser(selfServiceRequestOf(http.request));
    return {
      sessions: all.map((session) => ({
        authenticatedAt: session.authenticatedAt.toISOString(),
        authenticatedAtText: readableTime(session.authenticatedAt),
        expiresAt: session.expiresAt.toISOString(),
        expiresAtText: readableTime(session.expiresAt),
        current: session.id === current.id,
      })),
      signOutElsewhereAction: `${this.issuer}/ui/settings/sessions`,
      signOutUrl: `${this.issuer}/self-service/logout?${new URLSearchParams({ token: logoutToken }).toString()}`,
      csrfToken: this.formToken(http),
    };
  }

  private links(kind: FlowKind, returnTo: string | undefined): { href: string; text: string }[] {
    switch (kind) {
      case 'login':
        return [
          { href: this.startUrl('registration', returnTo), text: UI_TEXTS.login.register },
          { href: this.startUrl('recovery', returnTo), text: UI_TEXTS.login.recover },
        ];
      case 'registration':
        return [{ href: this.startUrl('login', returnTo), text: UI_TEXTS.registration.login }];
      case 'recovery':
      case 'verification':
        return [{ href: this.startUrl('login', returnTo), text: UI_TEXTS[kind].login }];
      case 'settings':
        return [];
    }
  }

  /** Where a new browser flow of that kind starts (`return_to` is checked by self-service against its allow-list). */
  private startUrl(kind: FlowKind, returnTo: string | undefined): string {
    const url = new URL(`${this.issuer}/self-service/${kind}/browser`);
    if (returnTo !== undefined) url.searchParams.set('return_to', returnTo);
    return url.href;
  }

  /** A page whose URL setting points at a UI of one's own is not served. */
  private assertOn(kind: FlowKind): void {
    if (this.selfServiceConfig.urls[kind] !== `${this.issuer}${FLOW_PAGES[kind]}`) throw UiError.pageNotFound();
  }

  /** The form token of this page's form; the browser's CSRF cookie is set when it has none. */
  private formToken(http: PageHttp): string {
    const input = selfServiceRequestOf(http.request);
    const token = this.selfService.formToken(input);
    this.responder.writeCookies(http.reply, input);
    return token;
  }
}

/** Whether a flow that cannot be shown calls for a new flow (malformed, unknown, expired) or a sign-in first. */
function restartOf(error: unknown): 'flow' | 'session' | undefined {
  if (!(error instanceof AppError)) return undefined;
  switch (error.kind) {
    case ErrorKind.BadRequest:
    case ErrorKind.NotFound:
    case ErrorKind.Gone:
      return 'flow';
    case ErrorKind.Unauthorized:
      return 'session';
    default:
      return undefined;
  }
}

function readableTime(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
