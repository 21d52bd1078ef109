import { describe, expect, it } from 'vitest';
import { bootApp } from '../support/app.js';
import { HttpClient } from '../support/http.js';

describe('the proxy listener', () => {
  it('opens when PROXY_PORT is set, serves none of the public or admin routes, and judges them by the rules (none here: no_match)', async () => {
    const app = await bootApp({ PROXY_PORT: '0' });
    try {
      expect(app.running.urls.proxy).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const proxy = new HttpClient(app.running.urls.proxy!);
      for (const path of ['/health/alive', '/health/ready', '/clients', '/admin/clients']) {
        const response = await proxy.get(path);
        expect(response.status, path).toBe(404);
        expect(response.body, path).toMatchObject({ id: 'no_match', code: 404, details: [] });
        expect(response.headers.get('x-request-id')).toBeTruthy();
      }
    } finally {
      await app.close();
    }
  });
});

describe('ADMIN_AUTH=off', () => {
  it('lets callers without a credential use the admin API, and only on the admin listener', async () => {
    const app = await bootApp({ ADMIN_AUTH: 'off' });
    try {
      expect((await app.anonymousAdmin.get('/version')).status).toBe(200);
      expect((await app.anonymousAdmin.get('/clients')).status).toBe(200);
      expect((await app.public.get('/clients')).status).toBe(404);
      // The plain admin routes too: the check answers (403, nothing allowed), rather than 401.
      const check = '/check?namespace=files&object=doc&relation=view&subject=alice';
      expect((await app.anonymousAdmin.get(check)).status).toBe(403);
      expect((await app.anonymousAdmin.withToken('wrong-token').get(`/admin${check}`)).status).toBe(403);
      const allowed = await app.anonymousAdmin.post('/engines/acp/service/exact/allowed', {
        json: { subject: 'alice', action: 'read', resource: 'doc' },
      });
      expect(allowed.status).toBe(403);
      expect(allowed.body).toEqual({ allowed: false });
      expect((await app.public.get(check)).status).toBe(404);
    } finally {
      await app.close();
    }
  });
});
