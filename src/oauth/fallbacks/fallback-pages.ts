import { html } from '../../common/html/html.js';
import { htmlPage, type HtmlPage } from '../../common/html/html-page.js';

export interface ShownError {
  readonly error: string;
  readonly description: string | undefined;
  readonly hint: string | undefined;
}

/** An OAuth 2.0 error shown to the user (the error fallback page, and authorize errors that cannot go to a client). */
export function errorPage(shown: ShownError, status: number): HtmlPage {
  return htmlPage(
    'An error occurred',
    html`<h1>An error occurred</h1>
      <p><strong>Error:</strong> <code>${shown.error}</code></p>
      ${shown.description === undefined ? '' : html`<p><strong>Description:</strong> ${shown.description}</p>`}
      ${shown.hint === undefined ? '' : html`<p><strong>Hint:</strong> ${shown.hint}</p>`}`,
    { status },
  );
}

/** The error the error page was sent (Hydra's `error`, `error_description`, `error_hint` query parameters). */
export function shownErrorOf(query: Readonly<Record<string, unknown>>): ShownError {
  return {
    error: text(query['error']) ?? 'unknown_error',
    description: text(query['error_description']),
    hint: text(query['error_hint']),
  };
}

/** What a fallback stands in for: the setting to configure and what the deployer's app there does. */
export interface MissingApp {
  readonly setting: string;
  readonly purpose: string;
}

/** The default of URLS_LOGIN, URLS_CONSENT and URLS_LOGOUT: says that the app is not configured. */
export function notConfiguredPage(app: MissingApp): HtmlPage {
  return htmlPage(
    'Not configured',
    html`<h1>This page is not configured</h1>
      <p>The ${app.purpose} app's URL has not been set. The operator of this service sets it with <code>${app.setting}</code>.</p>`,
  );
}

/** The default of URLS_POST_LOGOUT_REDIRECT: where a logout ends when the client named no place to return to. */
export function logoutDonePage(): HtmlPage {
  return htmlPage(
    'Logged out',
    html`<h1>You have been logged out</h1>
      <p>You may close this window.</p>`,
  );
}

/** One query value as text: the first of repeated ones, undefined when absent or empty. */
function text(value: unknown): string | undefined {
  const first: unknown = Array.isArray(value) ? (value as unknown[])[0] : value;
  return typeof first === 'string' && first !== '' ? first : undefined;
}
