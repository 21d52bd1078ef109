import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../support/app.js';
import type { HttpResponse } from '../support/http.js';
import { startHttpsFixture, type HttpsFixture } from '../support/https-fixture.js';

/**
 * Client metadata that makes the service fetch a document (sector_identifier_uri), against a real
 * HTTPS server on localhost. Reaching it needs OUTBOUND_ALLOW_PRIVATE_NETWORKS=true and its
 * self-signed certificate in OUTBOUND_CA_FILE; the refusal of private addresses with the default
 * settings is covered in clients.e2e.ts.
 */
let fixture: HttpsFixture;
let app: TestApp;

const REDIRECTS = ['https://one.example/cb', 'https://two.example/cb'];

beforeAll(async () => {
  fixture = await startHttpsFixture();
  const json = (body: unknown) => (_request: unknown, response: import('node:http').ServerResponse) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  fixture.route('/sector.json', json([...REDIRECTS, 'https://three.example/cb']));
  fixture.route('/object.json', json({ redirect_uris: REDIRECTS }));
  fixture.route('/empty.json', json([]));
  fixture.route('/partial.json', json([REDIRECTS[0]]));
  fixture.route('/not-json', (_request, response) => response.writeHead(200).end('<html>'));
  fixture.route('/huge.json', (_request, response) => {
    // A valid sector document padded to 6 MiB and streamed without a Content-Length: only the size
    // cap, enforced while reading, can refuse it.
    response.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = (): void => {
      while (sent < 6 * 1024 * 1024) {
        sent += chunk.length;
        if (!response.write(chunk)) {
          response.once('drain', pump);
          return;
        }
      }
      response.end(`${JSON.stringify(REDIRECTS)}`);
    };
    pump();
  });
  fixture.route('/slow.json', () => {
    // Never answers.
  });
  fixture.route('/redirect', (_request, response) => response.writeHead(302, { location: `${fixture.origin}/sector.json` }).end());
  app = await bootApp({
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
    OUTBOUND_CA_FILE: fixture.caFile,
    OUTBOUND_TIMEOUT_MS: '1000',
    OIDC_SUBJECT_TYPES: 'public,pairwise',
  });
});

afterAll(async () => {
  await app?.close();
  await fixture?.close();
});

function post(sectorPath: string, redirectUris: string[] = REDIRECTS): Promise<HttpResponse> {
  return app.admin.post('/clients', {
    json: { subject_type: 'pairwise', sector_identifier_uri: `${fixture.origin}${sectorPath}`, redirect_uris: redirectUris },
  });
}

function expectSectorError(response: HttpResponse): void {
  expect(response.status, response.text).toBe(400);
  const body = response.body as { error: string; error_description: string; details: { field: string } };
  expect(body.error).toBe('invalid_client_metadata');
  expect(body.details.field).toBe('sector_identifier_uri');
  expect(body.error_description).toContain('sector_identifier_uri');
}

describe('sector_identifier_uri', () => {
  it('accepts a pairwise client whose redirect URIs on several hosts are all listed', async () => {
    const response = await post('/sector.json');
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({ subject_type: 'pairwise', sector_identifier_uri: `${fixture.origin}/sector.json` });
  });

  it('is checked on PUT as well', async () => {
    const created = await post('/sector.json');
    const id = (created.body as { client_id: string }).client_id;
    const response = await app.admin.put(`/clients/${id}`, {
      json: { subject_type: 'pairwise', sector_identifier_uri: `${fixture.origin}/partial.json`, redirect_uris: REDIRECTS },
    });
    expectSectorError(response);
  });

  it.each([
    ['a JSON object instead of an array (S45)', '/object.json'],
    ['an empty array', '/empty.json'],
    ['an array that misses a redirect URI (S45)', '/partial.json'],
    ['a body that is not JSON', '/not-json'],
    ['a body over 5 MiB (S45)', '/huge.json'],
    ['a 404', '/missing.json'],
    ['a redirect, which is not followed', '/redirect'],
    ['a server that does not answer in time', '/slow.json'],
  ])('refuses %s', async (_name, path) => {
    expectSectorError(await post(path));
  });

  it('refuses a certificate the service does not trust', async () => {
    const untrusted = await bootApp({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' });
    try {
      const response = await untrusted.admin.post('/clients', {
        json: { sector_identifier_uri: `${fixture.origin}/sector.json`, redirect_uris: REDIRECTS },
      });
      expect(response.status).toBe(400);
      expect((response.body as { error: string }).error).toBe('invalid_client_metadata');
    } finally {
      await untrusted.close();
    }
  });
});
