import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../support/app.js';
import { rawRequest } from '../support/decisions.js';
import { aRuleDocument } from '../support/rule-builders.js';
import { nginxAvailable, startNginx, type RunningNginx } from '../support/nginx.js';
import { apiLogin, createPasswordIdentity, GOOD_PASSWORD } from '../support/self-service.js';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'];

/** A noop → allow → noop rule for the usual methods; `overrides` replace top-level members. */
function aRule(id: string, url: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return aRuleDocument(id, url, { match: { methods: METHODS, url }, ...overrides });
}

const HOST = 'app.test';
const available = nginxAvailable('decisions-nginx.e2e.ts');

let app: TestApp;
let nginx: RunningNginx;
let upstream: Server;
let dir: string;
let identityId: string;
let sessionToken: string;
const reached: { url: string; headers: IncomingHttpHeaders }[] = [];

/**
 * A real gateway as the client: Debian's nginx with `auth_request` pointed at `/decisions`, the way
 * operators put Oathkeeper's decision API behind nginx; the identity the mutators add is forwarded to
 * a real upstream with `auth_request_set`.
 */
describe.skipIf(!available)('nginx auth_request against /decisions', () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'latchkey-nginx-'));
    await writeFile(
      join(dir, 'rules.json'),
      JSON.stringify([
        aRule('app', `http://${HOST}/app/<.*>`, {
          authenticators: [{ handler: 'cookie_session' }],
          mutators: [{ handler: 'header', config: { headers: { 'X-User': '{{ print .Subject }}' } } }],
        }),
        aRule('admin-area', `http://${HOST}/admin/<.*>`, { authorizer: { handler: 'deny' } }),
      ]),
    );
    app = await bootApp({ RULES_FILES: join(dir, 'rules.json'), DECISIONS_TRUSTED_PROXIES: '127.0.0.1/32' });
    identityId = await createPasswordIdentity(app, 'nina@example.com');
    sessionToken = (await apiLogin(app, 'nina@example.com', GOOD_PASSWORD)).body.session_token;

    upstream = createServer((req, res) => {
      reached.push({ url: req.url ?? '', headers: req.headers });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('upstream');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const upstreamPort = (upstream.address() as AddressInfo).port;
    const decisions = new URL(app.running.urls.admin!).host;
    nginx = await startNginx(
      dir,
      `server {
        listen LISTEN;
        location = /_decide {
          internal;
          proxy_pass http://${decisions}/decisions;
          proxy_pass_request_body off;
          proxy_set_header Content-Length "";
          proxy_set_header Host $host;
          proxy_set_header X-Forwarded-Method $request_method;
          proxy_set_header X-Forwarded-Proto $scheme;
          proxy_set_header X-Forwarded-Host $host;
          proxy_set_header X-Forwarded-Uri $request_uri;
        }
        location / {
          auth_request /_decide;
          auth_request_set $user $upstream_http_x_user;
          proxy_set_header X-User $user;
          proxy_pass http://127.0.0.1:${upstreamPort};
        }
      }`,
    );
  });

  afterAll(async () => {
    await nginx?.stop();
    await app?.close();
    await new Promise((resolve) => upstream?.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('lets a request with a real session through, with the identity the header mutator set', async () => {
    const response = await rawRequest(nginx.url, 'GET', '/app/page?x=1', { host: HOST, cookie: `service_session=${sessionToken}` });
    expect(response.status).toBe(200);
    expect(response.text).toBe('upstream');
    expect(reached.at(-1)).toMatchObject({ url: '/app/page?x=1', headers: { 'x-user': identityId } });
  });

  it('answers 401 without a session and 403 where the rule denies, without reaching the upstream', async () => {
    const before = reached.length;
    expect((await rawRequest(nginx.url, 'GET', '/app/page', { host: HOST })).status).toBe(401);
    expect((await rawRequest(nginx.url, 'GET', '/app/page', { host: HOST, cookie: 'service_session=forged' })).status).toBe(401);
    expect((await rawRequest(nginx.url, 'GET', '/admin/x', { host: HOST, cookie: `service_session=${sessionToken}` })).status).toBe(403);
    expect(reached.length).toBe(before);
  });

  it('judges the raw URI nginx forwards after normalising it: a traversal into a denied area is refused', async () => {
    const before = reached.length;
    const response = await rawRequest(nginx.url, 'GET', '/app/%2e%2e/admin/x', { host: HOST, cookie: `service_session=${sessionToken}` });
    expect(response.status).toBe(403);
    expect(reached.length).toBe(before);
  });
});
