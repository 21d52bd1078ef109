import { html } from '../../common/html/html.js';
import { htmlPage, type HtmlPage } from '../../common/html/html-page.js';
import type { ResponseMode } from './response-mode.js';

/** How the browser is sent back to the client: a 302 to a URL, or (form_post) a page that POSTs. */
export type AuthorizeDelivery =
  { readonly kind: 'redirect'; readonly location: string } | { readonly kind: 'page'; readonly page: HtmlPage };

const SUBMIT_SCRIPT = 'document.forms[0].submit();';

/**
 * Delivers response parameters (a code and tokens, or an error) to the redirect URI in the response
 * mode: added to its query (keeping the query it already has, RFC 6749 §3.1.2), put in its fragment,
 * or posted by an auto-submitting form (OAuth 2.0 Form Post Response Mode).
 */
export function deliverToClient(redirectUri: string, mode: ResponseMode, parameters: Readonly<Record<string, string>>): AuthorizeDelivery {
  const encoded = new URLSearchParams(parameters).toString();
  switch (mode) {
    case 'query': {
      const base = headerSafe(redirectUri);
      return { kind: 'redirect', location: `${base}${querySeparator(base)}${encoded}` };
    }
    case 'fragment':
      return { kind: 'redirect', location: `${headerSafe(redirectUri)}#${encoded}` };
    case 'form_post':
      return { kind: 'page', page: formPostPage(redirectUri, parameters) };
  }
}

/**
 * The redirect URI as the URL parser serialises it (non-ASCII percent-encoded, as a browser would send
 * it anyway): a registered URI may hold characters that a `Location` header cannot carry. Registered
 * URIs are absolute (checked at registration), so they parse.
 */
function headerSafe(uri: string): string {
  return /^[\x21-\x7e]*$/.test(uri) ? uri : new URL(uri).href;
}

function querySeparator(uri: string): string {
  if (!uri.includes('?')) return '?';
  return uri.endsWith('?') || uri.endsWith('&') ? '' : '&';
}

/** Submits itself with its one hashed inline script; without scripts the user presses the button. */
function formPostPage(redirectUri: string, parameters: Readonly<Record<string, string>>): HtmlPage {
  const inputs = Object.entries(parameters).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`);
  return htmlPage(
    'Submit this form',
    html`<form method="post" action="${redirectUri}">
      ${inputs}
      <noscript><button type="submit">Continue</button></noscript>
    </form>`,
    { inlineScript: SUBMIT_SCRIPT },
  );
}
