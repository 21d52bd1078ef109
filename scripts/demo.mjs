// `npm run demo`: a tiny relying party for a running Latchkey. It starts on a free port, registers its
// client through the admin API, and prints one URL: open it to sign up (or sign in), consent, and come
// back to a page showing the ID token's claims and /userinfo. Built on panva's openid-client.
//
//   LATCHKEY_URL        the public URL (issuer) of Latchkey     default http://127.0.0.1:4444
//   LATCHKEY_ADMIN_URL  its admin URL                           default http://127.0.0.1:4445
//   ADMIN_TOKEN         an admin token (the one printed at first start, or one of ADMIN_TOKENS)
//   DEMO_PORT           the demo's port                         default: a free one
/* global fetch */
import { createServer } from 'node:http';
import * as oidc from 'openid-client';

const issuer = (process.env.LATCHKEY_URL ?? 'http://127.0.0.1:4444').replace(/\/+$/, '');
const adminUrl = (process.env.LATCHKEY_ADMIN_URL ?? 'http://127.0.0.1:4445').replace(/\/+$/, '');
const adminToken = process.env.ADMIN_TOKEN ?? process.env.ADMIN_TOKENS?.split(',')[0]?.trim();

function fail(message) {
  process.stderr.write(`demo: ${message}\n`);
  process.exit(1);
}

if (adminToken === undefined || adminToken === '') {
  fail('set ADMIN_TOKEN to the admin token Latchkey printed at its first start (or one of its ADMIN_TOKENS).');
}

const escape = (text) =>
  String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
const page = (title, body) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title></head>` +
  `<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem"><h1>${escape(title)}</h1>${body}</body></html>`;

const server = createServer((request, response) => {
  handle(new URL(request.url ?? '/', origin))
    .then(({ status = 200, location, html }) => {
      if (location !== undefined) response.writeHead(status, { location }).end();
      else response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    })
    .catch((error) =>
      response
        .writeHead(500, { 'content-type': 'text/html; charset=utf-8' })
        .end(page('Something went wrong', `<pre>${escape(error)}</pre>`)),
    );
});
await new Promise((resolve, reject) => {
  server.once('error', reject);
  server.listen(Number(process.env.DEMO_PORT ?? 0), '127.0.0.1', resolve);
});
const origin = `http://127.0.0.1:${server.address().port}`;
const redirectUri = `${origin}/callback`;

const registered = await fetch(`${adminUrl}/clients`, {
  method: 'POST',
  headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
  body: JSON.stringify({
    client_name: 'Latchkey demo app',
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    scope: 'openid profile email offline_access',
    token_endpoint_auth_method: 'client_secret_basic',
  }),
}).catch((error) => fail(`cannot reach the admin API at ${adminUrl} (${error.cause?.code ?? error.message}); is Latchkey running?`));
if (registered.status !== 201) fail(`registering the client answered ${registered.status}: ${(await registered.text()).slice(0, 300)}`);
const client = await registered.json();
const config = await oidc.discovery(new URL(issuer), client.client_id, undefined, oidc.ClientSecretBasic(client.client_secret), {
  execute: issuer.startsWith('http:') ? [oidc.allowInsecureRequests] : [],
});

const pending = new Map();

async function handle(url) {
  if (url.pathname === '/') {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    pending.set(state, { verifier, nonce });
    const authorize = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid profile email',
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    return { status: 302, location: authorize.href };
  }
  if (url.pathname === '/callback') {
    const error = url.searchParams.get('error');
    if (error !== null)
      return {
        html: page(
          'Not signed in',
          `<p>${escape(error)}: ${escape(url.searchParams.get('error_description') ?? '')}</p><p><a href="/">Try again</a></p>`,
        ),
      };
    const state = url.searchParams.get('state') ?? '';
    const expected = pending.get(state);
    if (expected === undefined) return { status: 400, html: page('Unknown state', '<p><a href="/">Start again</a></p>') };
    pending.delete(state);
    const tokens = await oidc.authorizationCodeGrant(config, url, {
      pkceCodeVerifier: expected.verifier,
      expectedState: state,
      expectedNonce: expected.nonce,
    });
    const claims = tokens.claims();
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    return {
      html: page(
        `Signed in as ${userinfo.email ?? claims.sub}`,
        `<h2>ID token claims</h2><pre>${escape(JSON.stringify(claims, null, 2))}</pre>` +
          `<h2>/userinfo</h2><pre>${escape(JSON.stringify(userinfo, null, 2))}</pre>` +
          `<p><a href="${escape(`${issuer}/ui/settings`)}">Your account</a> · <a href="/">Sign in again</a></p>`,
      ),
    };
  }
  return { status: 404, html: page('Not found', '<p><a href="/">Start</a></p>') };
}

process.stdout.write(
  `\nDemo app registered as client ${client.client_id}.\n\n  Open ${origin}/ to sign up, sign in and consent.\n\n(Ctrl+C to stop.)\n`,
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
