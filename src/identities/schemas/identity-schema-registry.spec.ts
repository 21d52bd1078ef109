import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config.loader.js';
import { ConfigError } from '../../config/config.error.js';
import { IdentitiesError } from '../identities.errors.js';
import { IdentitySchemaRegistry } from './identity-schema-registry.js';

function registry(schemas: Record<string, unknown>, defaultId?: string): IdentitySchemaRegistry {
  const env: Record<string, string> = {
    IDENTITY_SCHEMAS: JSON.stringify(Object.entries(schemas).map(([id, document]) => ({ id, url: JSON.stringify(document) }))),
  };
  if (defaultId !== undefined) env['IDENTITY_DEFAULT_SCHEMA_ID'] = defaultId;
  return new IdentitySchemaRegistry(loadConfig(env, '1.0.0').identities);
}

function caught(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  return undefined;
}

const ALL = { credentials: { password: { identifier: true } }, verification: { via: 'email' }, recovery: { via: 'email' } };

const PERSON = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  properties: {
    traits: {
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email', 'ory.sh/kratos': ALL },
        backup: { type: 'array', items: { type: 'string', format: 'email', 'ory.sh/kratos': { recovery: { via: 'email' } } } },
        phone: { type: 'number', 'ory.sh/kratos': { credentials: { password: { identifier: true } } } },
        'ory.sh/kratos': { type: 'string' },
      },
    },
  },
};

describe('IdentitySchemaRegistry', () => {
  it('ships the built-in email schema as the default when none is configured', () => {
    const schemas = new IdentitySchemaRegistry(loadConfig({}, '1.0.0').identities);
    expect(schemas.defaultId).toBe('default');
    expect(schemas.resolve('').id).toBe('default');
    expect(schemas.resolve(undefined).validate({ email: 'Ann@Example.com' })).toEqual({
      identifiers: [{ identifier: 'ann@example.com', traitPath: 'email' }],
      verifiableAddresses: [{ via: 'email', value: 'ann@example.com' }],
      recoveryAddresses: [{ via: 'email', value: 'ann@example.com' }],
    });
    expect(schemas.identifierTraitPaths).toEqual(new Set(['email']));
  });

  it('derives identifiers (NFC, lower case, deduplicated) and addresses, arrays included', () => {
    const person = registry({ person: PERSON }).resolve('person');
    const derived = person.validate({
      email: 'Zoe\u0308@Example.com',
      backup: ['b@example.com', 'B@example.com'],
      phone: 491701234,
      'ory.sh/kratos': 'a name',
    });
    expect(derived.identifiers).toEqual([
      { identifier: 'zo\u00eb@example.com', traitPath: 'email' },
      { identifier: '491701234', traitPath: 'phone' },
    ]);
    expect(derived.verifiableAddresses).toEqual([{ via: 'email', value: 'zo\u00eb@example.com' }]);
    expect(derived.recoveryAddresses).toEqual([
      { via: 'email', value: 'zo\u00eb@example.com' },
      { via: 'email', value: 'b@example.com' },
    ]);
  });

  it('names the failing trait path and keyword', () => {
    const person = registry({ person: PERSON }).resolve('person');
    expect(caught(() => person.validate({ backup: ['ok@example.com', 'nope'] }))).toMatchObject({
      code: 'invalid_traits',
      details: { path: 'traits.backup.1', keyword: 'format' },
    });
    expect(caught(() => person.validate({ phone: 'x' }))).toMatchObject({ details: { path: 'traits.phone', keyword: 'type' } });
    expect((caught(() => person.validate({ phone: 'x' })) as IdentitiesError).message).toContain('traits.phone');
  });

  it('compiles 2020-12 with $defs and $ref, and the extension works through the reference', () => {
    const schema = registry({
      modern: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $defs: { mail: { type: 'string', format: 'idn-email', 'ory.sh/kratos': ALL } },
        properties: { traits: { type: 'object', properties: { mail: { $ref: '#/$defs/mail' } }, unevaluatedProperties: false } },
      },
    }).resolve('modern');
    expect(schema.validate({ mail: 'ü@example.de' }).identifiers).toEqual([{ identifier: 'ü@example.de', traitPath: 'mail' }]);
    expect(caught(() => schema.validate({ mail: 'a@b.de', other: 1 }))).toMatchObject({
      details: { path: 'traits', keyword: 'unevaluatedProperties' },
    });
  });

  it('resolves unknown ids to a 400 for writes and a 404 for GET /schemas', () => {
    const schemas = registry({ a: PERSON, b: PERSON }, 'b');
    expect(schemas.defaultId).toBe('b');
    expect(caught(() => schemas.resolve('c'))).toMatchObject({ code: 'unknown_schema', kind: 'bad_request' });
    expect(caught(() => schemas.get('c'))).toMatchObject({ code: 'schema_not_found', kind: 'not_found' });
    expect(schemas.get('a').document).toEqual(PERSON);
  });

  it('refuses schemas that do not compile and a default that names none', () => {
    expect(caught(() => registry({ bad: { properties: { traits: { minLength: 'three' } } } }))).toMatchObject({ key: 'IDENTITY_SCHEMAS' });
    expect(caught(() => registry({ a: PERSON }, 'z'))).toBeInstanceOf(ConfigError);
    expect(caught(() => registry({ a: PERSON }, 'z'))).toMatchObject({ key: 'IDENTITY_DEFAULT_SCHEMA_ID' });
  });

  it('runs a schema pattern in linear time against a hostile trait, and refuses at load one with no linear-time form', () => {
    const withPattern = (pattern: string): unknown => ({
      properties: { traits: { type: 'object', properties: { handle: { type: 'string', pattern } } } },
    });
    const schema = registry({ nested: withPattern('^(a+)+$') }).resolve('nested');
    expect(caught(() => schema.validate({ handle: `${'a'.repeat(64)}!` }))).toMatchObject({
      details: { path: 'traits.handle', keyword: 'pattern' },
    });
    expect(schema.validate({ handle: 'aaaa' }).identifiers).toEqual([]);
    for (const pattern of ['^(a)\\1$', '^(?=a)a$']) {
      expect(
        caught(() => registry({ bad: withPattern(pattern) })),
        pattern,
      ).toMatchObject({ key: 'IDENTITY_SCHEMAS' });
    }
  });
});
