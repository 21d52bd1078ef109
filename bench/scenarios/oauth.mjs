// OAuth 2.0 token endpoint scenarios (docs/oauth2.md). `client_credentials` with client_secret_basic:
// the secret check is answered from the clients' verification cache after the first request (no
// PBKDF2 per request), the token is an opaque HMAC token, and its row is written by group commit
// (AccessTokenBatchWriter: the tokens of one event-loop turn in one INSERT).
//
// "code flow": one complete authorization-code flow with PKCE per iteration, as a browser, a login
// app, a consent app and a client together run it: GET /oauth2/auth (-> login app), PUT login accept
// (admin), GET /oauth2/auth with the login verifier (-> consent app), PUT consent accept (admin), GET
// /oauth2/auth with the consent verifier (-> client, with a code), POST /oauth2/token. Six requests on
// two listeners, each flow with its own cookies; `concurrency` flows run at once and the figure is
// completed flows per second (a flow scenario of bench/run.mjs). It starts with 30 s of unmeasured
// flows: at some 50 flows/s, one second of warm-up leaves most of the flow's code (consent, authorize,
// TypeORM) unoptimised, and V8's compiler was a fifth to a third of the service's CPU in the first rounds
// (measured: 22-24 ms of service CPU per flow after 1 s of flows, 13-15 after 10 s, 9-11 after 30 s).
/* global fetch, URLSearchParams */
import { Buffer } from 'node:buffer';
import { createHash, randomBytes } from 'node:crypto';

const FLOW_CALLBACK = 'https://bench-client.example/cb';

/** Keeps a flow's cookies (name -> value), dropping the ones the server expires. */
function absorbCookies(jar, response) {
  for (const line of response.headers.getSetCookie()) {
    const [pair, ...attributes] = line.split(';');
    const at = pair.indexOf('=');
    const name = pair.slice(0, at).trim();
    if (attributes.some((attribute) => attribute.trim().toLowerCase() === 'max-age=0')) jar.delete(name);
    else jar.set(name, pair.slice(at + 1).trim());
  }
}

/** A request that must answer `status` (no redirect followed). */
async function expectStatus(url, init, status) {
  const response = await fetch(url, { redirect: 'manual', ...init });
  if (response.status !== status) {
    throw new Error(
      `${init.method ?? 'GET'} ${new URL(url).pathname} answered ${response.status}: ${(await response.text()).slice(0, 200)}`,
    );
  }
  return response;
}

const codeFlowScenario = {
  name: 'code flow (authorize, login, consent, token)',
  listener: 'public',
  method: 'FLOW',
  concurrency: 16,
  warmup: 30,
  setup: async (ctx) => {
    const client = await ctx.admin('POST', '/clients', {
      client_name: 'bench code flow',
      redirect_uris: [FLOW_CALLBACK],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      scope: 'openid',
      token_endpoint_auth_method: 'client_secret_basic',
    });
    if (typeof client?.client_id !== 'string' || typeof client?.client_secret !== 'string') {
      throw new Error('POST /clients returned no client_id or client_secret');
    }
    const encode = (value) => encodeURIComponent(value).replace(/%20/g, '+');
    const basic = `Basic ${Buffer.from(`${encode(client.client_id)}:${encode(client.client_secret)}`).toString('base64')}`;
    const adminHeaders = { ...ctx.adminHeaders, 'content-type': 'application/json' };
    // Locations carry the issuer's host; the requests go to the listeners the harness started.
    const onPublic = (location) => {
      const url = new URL(location);
      return `${ctx.urls.public}${url.pathname}${url.search}`;
    };
    const browse = async (jar, url) => {
      const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
      const response = await expectStatus(url, { headers: { cookie } }, 302);
      absorbCookies(jar, response);
      await response.arrayBuffer();
      return response.headers.get('location');
    };
    const accept = async (step, location, body) => {
      const challenge = new URL(location).searchParams.get(`${step}_challenge`);
      const response = await expectStatus(
        `${ctx.urls.admin}/oauth2/auth/requests/${step}/accept?${step}_challenge=${encodeURIComponent(challenge)}`,
        { method: 'PUT', headers: adminHeaders, body: JSON.stringify(body) },
        200,
      );
      return onPublic((await response.json()).redirect_to);
    };
    const flow = async () => {
      const jar = new Map();
      const verifier = randomBytes(32).toString('base64url');
      const query = new URLSearchParams({
        client_id: client.client_id,
        redirect_uri: FLOW_CALLBACK,
        response_type: 'code',
        scope: 'openid',
        state: randomBytes(12).toString('base64url'),
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      });
      const login = await browse(jar, `${ctx.urls.public}/oauth2/auth?${query}`);
      const consent = await browse(jar, await accept('login', login, { subject: 'bench-user' }));
      const callback = await browse(jar, await accept('consent', consent, { grant_scope: ['openid'] }));
      const code = new URL(callback).searchParams.get('code');
      if (code === null) throw new Error(`no code in the redirect to ${callback.split('?')[0]}`);
      const token = await expectStatus(
        `${ctx.urls.public}/oauth2/token`,
        {
          method: 'POST',
          headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code,
            redirect_uri: FLOW_CALLBACK,
            code_verifier: verifier,
          }).toString(),
        },
        200,
      );
      await token.arrayBuffer();
    };
    return { flow };
  },
};

export const oauthScenarios = [
  {
    name: 'POST /oauth2/token client_credentials (client_secret_basic)',
    listener: 'public',
    method: 'POST',
    path: '/oauth2/token',
    target: 0.25,
    peer: {
      name: 'node-oidc-provider 9 (in memory)',
      target: 2,
      script: 'bench/peer/oidc-provider.mjs',
      env: () => ({ PEER_CLIENT_ID: 'bench-peer', PEER_CLIENT_SECRET: randomBytes(32).toString('base64url') }),
      request: (env) => ({
        path: '/token',
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${env.PEER_CLIENT_ID}:${env.PEER_CLIENT_SECRET}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials&scope=read',
      }),
    },
    setup: async (ctx) => {
      const client = await ctx.admin('POST', '/clients', {
        client_name: 'bench client_credentials',
        grant_types: ['client_credentials'],
        response_types: [],
        scope: 'read write',
        token_endpoint_auth_method: 'client_secret_basic',
      });
      if (typeof client?.client_id !== 'string' || typeof client?.client_secret !== 'string') {
        throw new Error('POST /clients returned no client_id or client_secret');
      }
      const encode = (value) => encodeURIComponent(value).replace(/%20/g, '+');
      const credentials = Buffer.from(`${encode(client.client_id)}:${encode(client.client_secret)}`).toString('base64');
      return {
        headers: { authorization: `Basic ${credentials}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials&scope=read',
      };
    },
  },
  codeFlowScenario,
];
