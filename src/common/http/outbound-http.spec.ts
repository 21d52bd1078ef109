import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboundConfig } from '../../config/app-config.js';
import { OutboundHttp } from './outbound-http.js';
import { OutboundFailure } from './outbound-http.error.js';

const routes: Record<string, (request: IncomingMessage, response: ServerResponse) => void> = {
  '/ok': (_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('["a"]'),
  '/headers': (request, response) => response.writeHead(200).end(JSON.stringify(request.headers)),
  '/declared-large': (_request, response) => response.writeHead(200, { 'content-length': String(10_000) }).end('x'.repeat(10_000)),
  '/streamed-large': (_request, response) => {
    response.writeHead(200);
    for (let i = 0; i < 20; i += 1) response.write('y'.repeat(1024));
    response.end();
  },
  '/redirect': (_request, response) => response.writeHead(302, { location: '/ok' }).end(),
  '/hang': () => {},
  '/echo': (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () =>
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ method: request.method, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') })),
    );
  },
};

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const route = routes[request.url ?? ''];
    if (route === undefined) response.writeHead(404).end();
    else route(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function client(outbound: Partial<OutboundConfig> = {}): OutboundHttp {
  return new OutboundHttp({ allowPrivateNetworks: true, timeoutMs: 500, maxBytes: 4096, caFile: undefined, ...outbound });
}

describe('OutboundHttp.get', () => {
  it('fetches a document and sends Accept and User-Agent', async () => {
    const response = await client().get(`${base}/ok`);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body.toString())).toEqual(['a']);
    const headers = JSON.parse((await client().get(`${base}/headers`)).body.toString()) as Record<string, string>;
    expect(headers['accept']).toBe('application/json');
    expect(headers['user-agent']).toBe('Latchkey');
  });

  it('refuses loopback, private and link-local targets by default, before connecting', async () => {
    for (const url of [
      `${base}/ok`,
      'http://localhost:1/',
      'http://10.0.0.1/',
      'http://169.254.169.254/latest',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
    ]) {
      await expect(client({ allowPrivateNetworks: false }).get(url)).rejects.toMatchObject({ failure: OutboundFailure.ForbiddenAddress });
    }
  });

  it('refuses what is not an absolute http(s) URL', async () => {
    for (const url of ['/relative', 'file:///etc/passwd', 'gopher://example.com/']) {
      await expect(client().get(url)).rejects.toMatchObject({ failure: OutboundFailure.InvalidUrl });
    }
  });

  it('refuses a body larger than the cap, whether declared or streamed', async () => {
    await expect(client().get(`${base}/declared-large`)).rejects.toMatchObject({ failure: OutboundFailure.TooLarge });
    await expect(client().get(`${base}/streamed-large`)).rejects.toMatchObject({ failure: OutboundFailure.TooLarge });
    expect((await client({ maxBytes: 64 * 1024 }).get(`${base}/streamed-large`)).body.length).toBe(20 * 1024);
  });

  it('gives up after the timeout', async () => {
    await expect(client({ timeoutMs: 150 }).get(`${base}/hang`)).rejects.toMatchObject({ failure: OutboundFailure.Timeout });
  });

  it('does not follow redirects', async () => {
    const response = await client().get(`${base}/redirect`);
    expect(response.status).toBe(302);
  });

  it('reports a refused connection as a network failure', async () => {
    await expect(client().get('http://127.0.0.1:1/')).rejects.toMatchObject({ failure: OutboundFailure.Network });
  });

  it('reports a host that does not resolve', async () => {
    await expect(client({ allowPrivateNetworks: false }).get('https://no-such-host.invalid/')).rejects.toMatchObject({
      failure: OutboundFailure.Unresolvable,
    });
  });

  it('stops the boot with the setting named when the CA file cannot be read', () => {
    expect(() => client({ caFile: '/nonexistent/ca.pem' })).toThrow(/OUTBOUND_CA_FILE/);
  });
});

describe('OutboundHttp.postForm', () => {
  it('POSTs the form url-encoded, with its length and type', async () => {
    const response = await client().postForm(`${base}/echo`, { logout_token: 'a.b.c', 'x y': '&=' });
    expect(response.status).toBe(200);
    const echoed = JSON.parse(response.body.toString()) as { method: string; headers: Record<string, string>; body: string };
    expect(echoed.method).toBe('POST');
    expect(echoed.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(echoed.headers['content-length']).toBe(String(Buffer.byteLength(echoed.body)));
    expect(Object.fromEntries(new URLSearchParams(echoed.body))).toEqual({ logout_token: 'a.b.c', 'x y': '&=' });
  });

  it('applies the address policy, the deadline and the size cap of GET', async () => {
    await expect(client({ allowPrivateNetworks: false }).postForm(`${base}/echo`, {})).rejects.toMatchObject({
      failure: OutboundFailure.ForbiddenAddress,
    });
    await expect(client({ timeoutMs: 150 }).postForm(`${base}/hang`, {})).rejects.toMatchObject({ failure: OutboundFailure.Timeout });
    await expect(client().postForm(`${base}/declared-large`, {})).rejects.toMatchObject({ failure: OutboundFailure.TooLarge });
  });
});

describe('OutboundHttp.assertPublicDestination', () => {
  const strict = (): OutboundHttp => client({ allowPrivateNetworks: false });

  it('refuses private literals (in any spelling URL parsers accept) and names that resolve to loopback', async () => {
    const tricks = ['https://2130706433/', 'https://0x7f.0.0.1/', 'https://017700000001/', 'https://[::ffff:169.254.169.254]/'];
    for (const url of ['https://127.0.0.1/', 'https://localhost/jwks', 'https://[fd00::1]/', 'https://192.168.0.10:8443/x', ...tricks]) {
      await expect(strict().assertPublicDestination(url)).rejects.toMatchObject({ failure: OutboundFailure.ForbiddenAddress });
    }
  });

  it('lets public addresses and hosts that do not resolve (yet) pass; fetches check again', async () => {
    await expect(strict().assertPublicDestination('https://8.8.8.8/jwks.json')).resolves.toBeUndefined();
    await expect(strict().assertPublicDestination('https://[2606:4700:4700::1111]/')).resolves.toBeUndefined();
    await expect(strict().assertPublicDestination('https://no-such-host.invalid/')).resolves.toBeUndefined();
  });

  it('checks nothing when private networks are allowed', async () => {
    await expect(client().assertPublicDestination('https://127.0.0.1/')).resolves.toBeUndefined();
  });
});
