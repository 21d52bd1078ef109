import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import Handlebars from 'handlebars';
import type { UiConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { ConfigError } from '../config/config.error.js';
import { UI_TEXTS } from './ui-catalogue.js';
import { uiStylesheet } from './ui-stylesheet.js';
import { BUILTIN_UI_TEMPLATES, UI_PARTIALS, UI_TEMPLATE_NAMES, type UiTemplateName } from './ui-templates.js';

/** Where the stylesheet is served (the only style source the pages' CSP allows besides none). */
export const UI_STYLESHEET_PATH = '/ui/static/style.css';

/** What every page shows around its content. */
export interface UiBrand {
  readonly productName: string;
  readonly logoUrl: string | undefined;
  readonly stylesheetUrl: string;
}

type PageTemplate = Exclude<UiTemplateName, 'layout' | 'messages' | 'node'>;

/** Models every template is tried with at boot, so a broken override stops the boot rather than a sign-in. */
const SAMPLE_MODELS: Readonly<Record<PageTemplate, Record<string, unknown>>> = {
  flow: { messages: [], forms: [{ action: '/x', nodes: [{ isHidden: true, name: 'csrf_token', value: 't' }] }], links: [] },
  'oauth2-login': { who: 'a@example.com', clientName: 'App', action: '/x', csrfToken: 't', challenge: 'c' },
  consent: { client: { name: 'App', links: [] }, scopes: [], action: '/x', csrfToken: 't', challenge: 'c' },
  logout: { action: '/x', csrfToken: 't', challenge: 'c' },
  message: { text: 'x' },
  error: { errors: [{ status: 500, label: 'x', message: 'x' }], restartUrl: '/' },
};

/**
 * Renders the built-in pages with Handlebars (HTML-escaped by default; prototype access off) in an
 * isolated instance. A file `<name>.hbs` in UI_TEMPLATES_DIR replaces the built-in template of that
 * name; everything is compiled and test-rendered once at boot. Every page goes out with a CSP that
 * allows no script at all, styles from this service only, and no framing.
 */
@Injectable()
export class UiRenderer {
  private readonly templates = new Map<UiTemplateName, HandlebarsTemplateDelegate>();
  private readonly brand: UiBrand;
  private readonly headers: Readonly<Record<string, string>>;
  readonly stylesheet: string;

  constructor(@InjectConfig('ui') ui: UiConfig) {
    const handlebars = Handlebars.create();
    const overrides = ui.templatesDir;
    for (const name of UI_TEMPLATE_NAMES) {
      const override = overrides === undefined ? undefined : join(overrides, `${name}.hbs`);
      const source = override !== undefined && existsSync(override) ? readFileSync(override, 'utf8') : BUILTIN_UI_TEMPLATES[name];
      const compiled = handlebars.compile(source, { knownHelpersOnly: true });
      // Registered compiled: a partial registered as source is compiled again on every render.
      if (UI_PARTIALS.includes(name)) handlebars.registerPartial(name, compiled);
      else this.templates.set(name, compiled);
    }
    this.brand = { productName: ui.productName, logoUrl: ui.logoUrl, stylesheetUrl: UI_STYLESHEET_PATH };
    this.stylesheet = uiStylesheet(ui.primaryColor);
    const logoOrigin = ui.logoUrl === undefined ? '' : ` ${new URL(ui.logoUrl).origin}`;
    this.headers = {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      pragma: 'no-cache',
      // No form-action: Chrome applies it to the redirects after a submit, and those end at clients' redirect URIs.
      'content-security-policy': `default-src 'none'; style-src 'self'; img-src 'self' https: data:${logoOrigin}; script-src 'none'; frame-ancestors 'none'; base-uri 'none'`,
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    };
    for (const [name, model] of Object.entries(SAMPLE_MODELS) as [PageTemplate, Record<string, unknown>][]) {
      try {
        this.render(name, 'Sample', model);
      } catch (error) {
        throw new ConfigError('UI_TEMPLATES_DIR', `${name}.hbs (or the layout or a partial) does not render: ${(error as Error).message}`);
      }
    }
  }

  /** The whole document of a page: its template inside the layout. */
  render(name: PageTemplate, title: string, model: Record<string, unknown>): string {
    const context = { ...model, title, brand: this.brand, texts: UI_TEXTS };
    const content = this.templates.get(name)!(context);
    return this.templates.get('layout')!({ ...context, content });
  }

  send(reply: FastifyReply, name: PageTemplate, title: string, model: Record<string, unknown>, status = 200): FastifyReply {
    return reply
      .status(status)
      .headers(this.headers)
      .send(this.render(name, title, model));
  }

  redirect(reply: FastifyReply, location: string): FastifyReply {
    return reply.status(303).header('location', location).header('cache-control', 'no-store').send();
  }
}
