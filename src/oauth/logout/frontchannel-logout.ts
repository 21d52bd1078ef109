import type { Client } from '../../clients/index.js';
import { html } from '../../common/html/html.js';
import { htmlPage, type HtmlPage } from '../../common/html/html-page.js';
import type { EndedLoginSession } from '../../consent/index.js';

/**
 * Seconds before the page moves on by itself (`Refresh` header) when a frame never finishes loading
 * or scripts are off; with scripts, it moves on as soon as every frame has loaded.
 */
export const FRONTCHANNEL_FALLBACK_SECONDS = 5;

/**
 * Counts the frames' load events, then leaves for the link's target. Static, so the CSP allows it by
 * its hash; it reads the target from the document, so nothing from a request ever lands in a script.
 * The short pause gives the relying parties' pages a moment for work they start on load.
 */
const CONTINUE_SCRIPT =
  "(function(){var a=document.getElementById('continue');var f=document.querySelectorAll('iframe');var n=f.length;" +
  'var go=function(){window.location.replace(a.href);};if(n===0){go();return;}' +
  "f.forEach(function(e){e.addEventListener('load',function(){n-=1;if(n===0){setTimeout(go,500);}});});})();";

/**
 * The `frontchannel_logout_uri` of each client of the ended session that registered one (OIDC
 * Front-Channel Logout 1.0 §2). `iss` and `sid` are always added, both together, as Hydra does: a
 * client that set `frontchannel_logout_session_required` needs them, and the others may use them to
 * end the right session. The client's own query is kept as registered. Duplicates go.
 */
export function frontchannelLogoutUris(ended: EndedLoginSession, issuer: string): string[] {
  const uris = ended.participants
    .map(({ client }) => client)
    .filter((client) => client.frontchannelLogoutUri !== '')
    .map((client) => frontchannelLogoutUri(client, issuer, ended.sid));
  return [...new Set(uris)];
}

function frontchannelLogoutUri(client: Client, issuer: string, sid: string): string {
  const uri = client.frontchannelLogoutUri;
  const added = new URLSearchParams({ iss: issuer, sid }).toString();
  if (!uri.includes('?')) return `${uri}?${added}`;
  return uri.endsWith('?') || uri.endsWith('&') ? `${uri}${added}` : `${uri}&${added}`;
}

/**
 * The page that ends a logout when some client has a front-channel logout URI: one hidden iframe per
 * URI, then on to `location` (the post-logout redirect). Its CSP is the page shell's plus `frame-src`
 * for exactly those origins; `frame-ancestors 'none'` still keeps the page itself from being framed.
 * The frames are sandboxed to what a logout page needs (its own origin, for cookies and storage, and
 * scripts): no navigating this page away, no pop-ups, no forms.
 */
export function frontchannelLogoutPage(location: string, uris: readonly string[]): HtmlPage {
  const frames = uris.map(
    (uri) => html`<iframe src="${uri}" hidden sandbox="allow-same-origin allow-scripts" title="Logging out"></iframe>`,
  );
  const page = htmlPage(
    'Logging out',
    html`<p>Logging you out of the applications you used…</p>
      ${frames}
      <p><a id="continue" href="${location}">Continue</a></p>`,
    { inlineScript: CONTINUE_SCRIPT },
  );
  const origins = [...new Set(uris.map((uri) => new URL(uri).origin))].filter((origin) => origin !== 'null');
  const frameSources = origins.length === 0 ? "'none'" : origins.join(' ');
  return {
    ...page,
    headers: {
      ...page.headers,
      'content-security-policy': `${page.headers['content-security-policy']}; frame-src ${frameSources}`,
      // Serialised by URL: a header carries ASCII only.
      refresh: `${FRONTCHANNEL_FALLBACK_SECONDS}; url=${new URL(location).toString()}`,
    },
  };
}
