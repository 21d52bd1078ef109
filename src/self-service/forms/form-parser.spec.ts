import { describe, expect, it } from 'vitest';
import { BUILT_IN_IDENTITY_SCHEMA } from '../../identities/index.js';
import { traitPaths } from '../ui/ui-nodes.js';
import { decodeJsonBody, parseForm } from './form-parser.js';
import type { SchemaPath } from './schema-paths.js';

const SCHEMA = {
  properties: {
    traits: {
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email' },
        name: { type: 'object', properties: { first: { type: 'string' }, last: { type: 'string' } } },
        newsletter: { type: 'boolean' },
        age: { type: 'integer' },
        height: { type: 'number' },
        tags: { type: 'array', items: { type: 'string' } },
        scores: { type: 'array', items: { type: 'number' } },
        flags: { type: 'array', items: { type: 'boolean' } },
        extra: { type: 'object' },
        nickname: { type: ['string', 'null'] },
      },
    },
  },
};

const PATHS: SchemaPath[] = [{ name: 'method', type: 'string', required: true }, ...traitPaths(SCHEMA)];

describe('parseForm (reference §2, ory/x decoderx)', () => {
  it('nests dotted names into objects', () => {
    expect(
      parseForm({ 'traits.email': 'a@b.c', 'traits.name.first': 'Ann', 'traits.name.last': 'Lee', method: 'password' }, PATHS),
    ).toEqual({
      method: 'password',
      traits: { email: 'a@b.c', name: { first: 'Ann', last: 'Lee' }, extra: {} },
    });
  });

  it('booleans: the last value wins, so hidden false + checked true is true and hidden false alone is false', () => {
    expect(parseForm({ 'traits.newsletter': ['false', 'true'] }, PATHS)['traits']).toMatchObject({ newsletter: true });
    expect(parseForm({ 'traits.newsletter': 'false' }, PATHS)['traits']).toMatchObject({ newsletter: false });
    expect(parseForm({ 'traits.newsletter': 'true' }, PATHS)['traits']).toMatchObject({ newsletter: true });
  });

  it('a boolean that is neither true nor false is kept raw, so schema validation reports it', () => {
    expect(parseForm({ 'traits.newsletter': 'on' }, PATHS)['traits']).toMatchObject({ newsletter: 'on' });
  });

  it('numbers and integers: the first value, converted; not-a-number kept raw; empty treated as absent', () => {
    expect(parseForm({ 'traits.age': ['42', '7'], 'traits.height': '1.85' }, PATHS)['traits']).toMatchObject({ age: 42, height: 1.85 });
    expect(parseForm({ 'traits.age': '-3', 'traits.height': '1e3' }, PATHS)['traits']).toMatchObject({ age: -3, height: 1000 });
    expect(parseForm({ 'traits.age': '4.5' }, PATHS)['traits']).toMatchObject({ age: 4.5 });
    expect(parseForm({ 'traits.age': 'forty', 'traits.height': '0x10' }, PATHS)['traits']).toMatchObject({ age: 'forty', height: '0x10' });
    expect(parseForm({ 'traits.age': '' }, PATHS)['traits']).not.toHaveProperty('age');
    expect(parseForm({ 'traits.age': '  12 ' }, PATHS)['traits']).toMatchObject({ age: 12 });
  });

  it('strings: the first value, as given (also empty)', () => {
    expect(parseForm({ 'traits.email': ['first@x.y', 'second@x.y'], 'traits.nickname': '' }, PATHS)['traits']).toMatchObject({
      email: 'first@x.y',
      nickname: '',
    });
  });

  it('arrays: every value in order, typed per item', () => {
    expect(
      parseForm({ 'traits.tags': ['a', 'b'], 'traits.scores': ['1', 'x', '2.5'], 'traits.flags': ['true', 'false'] }, PATHS)['traits'],
    ).toMatchObject({
      tags: ['a', 'b'],
      scores: [1, 'x', 2.5],
      flags: [true, false],
    });
    expect(parseForm({ 'traits.tags': 'single' }, PATHS)['traits']).toMatchObject({ tags: ['single'] });
  });

  it('object leaves: JSON objects parsed, absent ones {}, other values kept raw', () => {
    expect(parseForm({ 'traits.extra': '{"a":1}' }, PATHS)['traits']).toMatchObject({ extra: { a: 1 } });
    expect(parseForm({}, PATHS)).toEqual({ traits: { extra: {} } });
    expect(parseForm({ 'traits.extra': '[1]' }, PATHS)['traits']).toMatchObject({ extra: '[1]' });
  });

  it('drops names that are not exactly a schema path, prototype keys included', () => {
    const parsed = parseForm(
      {
        'traits.admin': 'true',
        traits: 'x',
        'traits.name': 'flat',
        'traits.name.first.x': 'deep',
        __proto__: 'p',
        'constructor.prototype.x': 'y',
        password: 'secret',
      },
      PATHS,
    );
    expect(parsed).toEqual({ traits: { extra: {} } });
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
  });

  it('never writes through a prototype even when a schema names such a path', () => {
    const parsed = parseForm({ 'traits.__proto__.polluted': 'yes' }, [
      { name: 'traits.__proto__.polluted', type: 'string', required: false },
    ]);
    expect(parsed).toEqual({});
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('works with the built-in schema', () => {
    expect(parseForm({ 'traits.email': 'a@b.c', 'traits.name.first': 'A' }, traitPaths(BUILT_IN_IDENTITY_SCHEMA))).toEqual({
      traits: { email: 'a@b.c', name: { first: 'A' } },
    });
  });
});

describe('decodeJsonBody', () => {
  it('a body of scalars follows the form format (dotted keys nest, strings converted by type)', () => {
    expect(
      decodeJsonBody(
        { method: 'password', 'traits.age': '5', 'traits.newsletter': true, 'traits.unknown': 'x', 'traits.email': null },
        PATHS,
      ),
    ).toEqual({
      method: 'password',
      traits: { age: 5, newsletter: true, extra: {} },
    });
  });

  it('a body with an object or array is plain JSON, returned as is', () => {
    const body = { method: 'password', traits: { email: 'a@b.c', age: '5' } };
    expect(decodeJsonBody(body, PATHS)).toBe(body);
    const list = { 'traits.tags': ['a'] };
    expect(decodeJsonBody(list, PATHS)).toBe(list);
  });

  it('anything but an object is undefined', () => {
    for (const body of [null, undefined, 'x', 5, [1]]) expect(decodeJsonBody(body, PATHS)).toBeUndefined();
  });
});
