import type { FastifyReply } from 'fastify';
import { sha256Base64 } from '../crypto/digest.js';
import { html, SafeHtml } from './html.js';

/** A complete HTML response: status, the document, and the headers that go with it. */
export interface HtmlPage {
  readonly status: number;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface HtmlPageOptions {
  readonly status?: number;
  /** Source of the one inline script the page may run (allowed by its hash, nothing else is). */
  readonly inlineScript?: string;
}

/**
 * Wraps content in a minimal document. The headers keep the page from being framed (RFC 9700 §4.16),
 * cached (it may carry codes or tokens) or sniffed, and allow no script but the page's own inline one.
 */
export function htmlPage(title: string, content: SafeHtml, options: HtmlPageOptions = {}): HtmlPage {
  const script = options.inlineScript;
  const scriptSource = script === undefined ? "'none'" : `'sha256-${sha256Base64(script)}'`;
  const document = html`<!DOCTYPE html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${title}</title>
      </head>
      <body>
        ${content} ${script === undefined ? '' : new SafeHtml(`<script>${script}</script>`)}
      </body>
    </html> `;
  return {
    status: options.status ?? 200,
    body: document.value,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      pragma: 'no-cache',
      'content-security-policy': `default-src 'none'; script-src ${scriptSource}; frame-ancestors 'none'; base-uri 'none'`,
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    },
  };
}

export function sendHtmlPage(reply: FastifyReply, page: HtmlPage): FastifyReply {
  return reply.status(page.status).headers(page.headers).send(page.body);
}
