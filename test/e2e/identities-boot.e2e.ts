import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config.error.js';
import { bootApp } from '../support/app.js';

function schemas(...documents: unknown[]): string {
  return JSON.stringify(documents.map((document, index) => ({ id: `s${index}`, url: JSON.stringify(document) })));
}

const VALID = { properties: { traits: { type: 'object', properties: { email: { type: 'string', format: 'email' } } } } };

async function bootError(env: Record<string, string>): Promise<ConfigError> {
  let caught: unknown;
  try {
    const app = await bootApp(env);
    await app.close();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ConfigError);
  return caught as ConfigError;
}

describe('identity schemas at boot', () => {
  it.each([
    ['a schema that does not compile', schemas({ properties: { traits: { type: 'nonsense' } } })],
    ['an unknown keyword', schemas({ properties: { traits: { type: 'object', requird: ['email'] } } })],
    ['an unknown format', schemas({ properties: { traits: { type: 'string', format: 'telephone' } } })],
    [
      'an extension with an unknown channel',
      schemas({ properties: { traits: { type: 'string', 'ory.sh/kratos': { recovery: { via: 'sms' } } } } }),
    ],
    ['an extension with an unknown member', schemas({ properties: { traits: { type: 'string', 'ory.sh/kratos': { login: true } } } })],
    ['a schema without traits', schemas({ type: 'object' })],
    ['an unsupported dialect', schemas({ $schema: 'http://json-schema.org/draft-04/schema#', properties: { traits: {} } })],
    ['a schema that is not JSON', JSON.stringify([{ id: 'x', url: '{not json' }])],
    ['a missing file', JSON.stringify([{ id: 'x', url: 'file:///nonexistent/latchkey/schema.json' }])],
    ['an http URL', JSON.stringify([{ id: 'x', url: 'https://example.com/schema.json' }])],
  ])('refuses %s with a ConfigError naming IDENTITY_SCHEMAS', async (_name, value) => {
    const error = await bootError({ IDENTITY_SCHEMAS: value });
    expect(error.key).toBe('IDENTITY_SCHEMAS');
  });

  it('refuses a default schema id that names no schema', async () => {
    const error = await bootError({ IDENTITY_SCHEMAS: schemas(VALID), IDENTITY_DEFAULT_SCHEMA_ID: 'missing' });
    expect(error.key).toBe('IDENTITY_DEFAULT_SCHEMA_ID');
  });

  it('serves the built-in default schema when none is configured, and the first configured one otherwise', async () => {
    const builtIn = await bootApp();
    try {
      const schema = await builtIn.public.get<{ properties: { traits: { required: string[] } } }>('/schemas/default');
      expect(schema.status).toBe(200);
      expect(schema.body.properties.traits.required).toEqual(['email']);
      const created = await builtIn.admin.post<{ schema_id: string }>('/identities', { json: { traits: { email: 'first@example.com' } } });
      expect(created.status).toBe(201);
      expect(created.body.schema_id).toBe('default');
    } finally {
      await builtIn.close();
    }
    const configured = await bootApp({ IDENTITY_SCHEMAS: schemas(VALID) });
    try {
      expect((await configured.public.get('/schemas/default')).status).toBe(404);
      const created = await configured.admin.post<{ schema_id: string }>('/identities', { json: { traits: {} } });
      expect(created.body.schema_id).toBe('s0');
    } finally {
      await configured.close();
    }
  });
});
