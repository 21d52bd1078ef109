import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataSource } from 'typeorm';
import { IdentitiesRepository } from '../../src/identities/identities.repository.js';
import { bootApp, type TestApp } from '../support/app.js';
import { queryDatabase } from '../support/database.js';

interface Identity {
  id: string;
}

let app: TestApp;
let repository: IdentitiesRepository;
let dataSource: DataSource;

beforeAll(async () => {
  app = await bootApp();
  repository = app.running.app.get(IdentitiesRepository);
  dataSource = app.running.app.get(DataSource);
});

afterAll(async () => {
  await app?.close();
});

describe('the owner of an e-mail', () => {
  // With a schema whose login identifier and verifiable address are different traits, one identity can
  // log in with an e-mail that is another's address. Both lookups (one e-mail, many) answer the
  // identifier's identity, whichever row PostgreSQL happens to read first.
  it.each(['identifier row first', 'address row first'])('is the identity whose login identifier it is (%s)', async (order) => {
    const tag = order.split(' ')[0];
    const shared = `shared-${tag}@example.com`;
    const a = await app.admin.post<Identity>('/identities', { json: { traits: { email: `a-${tag}@example.com` } } });
    const b = await app.admin.post<Identity>('/identities', { json: { traits: { email: `b-${tag}@example.com` } } });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    const identifierOfA = `INSERT INTO identity_credential_identifiers (id, identity_id, type, identifier, trait_path)
       VALUES (gen_random_uuid(), $1, 'password', $2, 'email')`;
    const addressOfB = `UPDATE identity_verifiable_addresses SET value = $2 WHERE identity_id = $1`;
    if (order === 'identifier row first') {
      await queryDatabase(app.databaseUrl, identifierOfA, [a.body.id, shared]);
      await queryDatabase(app.databaseUrl, addressOfB, [b.body.id, shared]);
    } else {
      await queryDatabase(app.databaseUrl, addressOfB, [b.body.id, shared]);
      await queryDatabase(app.databaseUrl, identifierOfA, [a.body.id, shared]);
    }

    expect(await repository.idByEmail(shared, dataSource.manager)).toBe(a.body.id);
    expect(await repository.idsByEmail([shared], dataSource.manager)).toEqual(new Map([[shared, a.body.id]]));
  });
});
