import { describe, expect, it } from 'vitest';
import { bootApp } from '../support/app.js';
import { freshDatabase } from '../support/database.js';

describe('identities across a restart', () => {
  it('keeps every acknowledged write: traits, derived addresses, credentials and uniqueness', async () => {
    const databaseUrl = await freshDatabase();
    const first = await bootApp({}, { databaseUrl });
    let created: { id: string };
    let updated: unknown;
    try {
      const response = await first.admin.post<{ id: string }>('/identities', {
        json: {
          traits: { email: 'durable@example.com' },
          credentials: { password: { config: { password: 'a long enough passphrase 42' } } },
        },
      });
      expect(response.status).toBe(201);
      created = response.body;
      const replaced = await first.admin.put(`/identities/${created.id}`, {
        json: { schema_id: 'default', traits: { email: 'still-durable@example.com' } },
      });
      expect(replaced.status).toBe(200);
      updated = replaced.body;
    } finally {
      await first.close();
    }

    const second = await bootApp({}, { databaseUrl });
    try {
      const read = await second.admin.get(`/identities/${created.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(updated);
      const clash = await second.admin.post('/identities', { json: { traits: { email: 'Still-Durable@example.com' } } });
      expect(clash.status).toBe(409);
      const listed = await second.admin.get<{ id: string }[]>('/identities?credentials_identifier=still-durable@example.com');
      expect(listed.status).toBe(200);
      expect(listed.body.map((identity) => identity.id)).toEqual([created.id]);
    } finally {
      await second.close();
    }
  });
});
