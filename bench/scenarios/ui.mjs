// Built-in sign-in page scenarios (docs/ui.md, Performance).
//
// "ui: GET /ui/login?flow= (render)": the login page of an existing browser flow, read and rendered with
// Handlebars on every request (the flow is read from PostgreSQL each time, as a reload would).
//
// "ui: browser sign-in (pages, login, consent, code)": one whole browser sign-in per iteration, with a
// fresh cookie jar each time, as a new browser does: GET /oauth2/auth → the OAuth2 login page → a
// self-service browser login flow → its page → POST the password form → the "continue" page → POST it →
// back to /oauth2/auth → the consent page → POST allow → back to /oauth2/auth → the code at the
// client's redirect URI: 12 requests and one argon2id verification, in completed flows/s. Its baseline
// is the API login of the same identity (init + submit), measured in every round next to it: the
// figure is sign-in ÷ API login, i.e. what the pages, the hand-off and the browser's cookies add to
// the password check that dominates both.
import { Buffer } from 'node:buffer';
import http from 'node:http';
import { URLSearchParams } from 'node:url';

const PASSWORD = 'bench password that is long enough 1';
const EMAIL = 'bench-ui@example.com';
const SIGN_IN_CONCURRENCY = 8;
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One request without following redirects; answers status, headers and text. */
function send(baseUrl, method, path, { headers = {}, body } = {}) {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method, agent, headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) } },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** A browser's cookies for one host (name → value), enough for the service's own cookies. */
class Browser {
  constructor(baseUrl) {
    this.baseUrl = baseUrl;
    this.cookies = new Map();
  }

  async request(method, path, form) {
    const headers = { accept: 'text/html' };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    let body;
    if (form !== undefined) {
      body = new URLSearchParams(form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const response = await send(this.baseUrl, method, path, { headers, body });
    for (const line of [response.headers['set-cookie'] ?? []].flat()) {
      const [pair] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** A request that must redirect: the path and query of where to. */
  async redirect(method, path, form) {
    const response = await this.request(method, path, form);
    if (response.status !== 302 && response.status !== 303)
      throw new Error(`${method} ${path.split('?')[0]} answered ${response.status}: ${response.text.slice(0, 160)}`);
    const location = new URL(response.headers.location, this.baseUrl);
    return `${location.pathname}${location.search}`;
  }

  /** A page that must render: its HTML and its form's CSRF token. */
  async page(path) {
    const response = await this.request('GET', path);
    if (response.status !== 200) throw new Error(`GET ${path.split('?')[0]} answered ${response.status}: ${response.text.slice(0, 160)}`);
    const token = /name="csrf_token" value="([^"]+)"/.exec(response.text)?.[1];
    if (token === undefined) throw new Error(`GET ${path.split('?')[0]} rendered no csrf_token`);
    return token;
  }
}

async function signIn(baseUrl, client) {
  const browser = new Browser(baseUrl);
  const authorize = `/oauth2/auth?${new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: client.redirect_uris[0],
    response_type: 'code',
    scope: 'openid email',
    state: 'bench-state-0123456789',
  })}`;
  const loginPage = await browser.redirect('GET', authorize);
  const startLogin = await browser.redirect('GET', loginPage);
  const flowPage = await browser.redirect('GET', startLogin);
  const flowToken = await browser.page(flowPage);
  const flowId = new URLSearchParams(flowPage.split('?')[1]).get('flow');
  const back = await browser.redirect('POST', `/self-service/login?flow=${flowId}`, {
    csrf_token: flowToken,
    password_identifier: EMAIL,
    password: PASSWORD,
    method: 'password',
  });
  const continueToken = await browser.page(back);
  const loginChallenge = new URLSearchParams(back.split('?')[1]).get('login_challenge');
  const verified = await browser.redirect('POST', '/ui/oauth2/login', {
    csrf_token: continueToken,
    login_challenge: loginChallenge,
    decision: 'accept',
  });
  const consentPage = await browser.redirect('GET', verified);
  const consentToken = await browser.page(consentPage);
  const consentChallenge = new URLSearchParams(consentPage.split('?')[1]).get('consent_challenge');
  const allowed = await browser.redirect('POST', '/ui/oauth2/consent', {
    csrf_token: consentToken,
    consent_challenge: consentChallenge,
    decision: 'accept',
  });
  const response = await browser.request('GET', allowed);
  const code = response.status === 302 ? new URL(response.headers.location).searchParams.get('code') : null;
  if (code === null) throw new Error(`no code at the end of the sign-in: ${response.status} ${response.headers.location ?? ''}`);
}

async function apiLogin(baseUrl) {
  const init = await send(baseUrl, 'GET', '/self-service/login/api');
  if (init.status !== 200) throw new Error(`GET /self-service/login/api answered ${init.status}`);
  const flow = JSON.parse(init.text);
  const body = JSON.stringify({ method: 'password', password_identifier: EMAIL, password: PASSWORD });
  const submit = await send(baseUrl, 'POST', `/self-service/login?flow=${flow.id}`, {
    headers: { 'content-type': 'application/json' },
    body,
  });
  if (submit.status !== 200) throw new Error(`POST /self-service/login answered ${submit.status}: ${submit.text.slice(0, 160)}`);
}

let identityCreated;
function ensureIdentity(ctx) {
  identityCreated ??= ctx.admin('POST', '/identities', {
    traits: { email: EMAIL },
    credentials: { password: { config: { password: PASSWORD } } },
  });
  return identityCreated;
}

export const uiScenarios = [
  {
    name: 'ui: GET /ui/login?flow= (render)',
    listener: 'public',
    method: 'GET',
    setup: async (ctx) => {
      const started = await send(ctx.urls.public, 'GET', '/self-service/login/browser', { headers: { accept: 'text/html' } });
      const location = started.headers.location;
      if (started.status !== 302 || location === undefined) throw new Error(`GET /self-service/login/browser answered ${started.status}`);
      const url = new URL(location);
      if (url.pathname !== '/ui/login') throw new Error(`the login UI is not the built-in page: ${url.pathname}`);
      return { path: `${url.pathname}${url.search}` };
    },
  },
  {
    name: 'ui: browser sign-in (pages, login, consent, code)',
    listener: 'public',
    method: 'FLOW',
    concurrency: SIGN_IN_CONCURRENCY,
    baseline: {
      name: 'API password login of the same identity (init + submit)',
      setup: async (ctx) => {
        await ensureIdentity(ctx);
        return { flow: () => apiLogin(ctx.urls.public) };
      },
    },
    setup: async (ctx) => {
      await ensureIdentity(ctx);
      const client = await ctx.admin('POST', '/clients', {
        client_name: 'bench ui',
        redirect_uris: ['https://bench.example/cb'],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        scope: 'openid email',
        token_endpoint_auth_method: 'client_secret_basic',
      });
      return { flow: () => signIn(ctx.urls.public, client) };
    },
  },
];
