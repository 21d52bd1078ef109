import { describe, expect, it } from 'vitest';
import { BUILT_IN_IDENTITY_SCHEMA } from '../identities/index.js';
import { defaultTraitsMapping, mapTraits } from './traits-mapping.js';

const schemaWith = (traits: Record<string, unknown>) => ({ properties: { traits: { type: 'object', properties: traits } } });

describe('defaultTraitsMapping', () => {
  it('maps e-mail and name onto the built-in schema', () => {
    expect(defaultTraitsMapping(BUILT_IN_IDENTITY_SCHEMA)).toEqual({
      email: 'email',
      'name.first': 'first_name',
      'name.last': 'last_name',
    });
  });

  it('finds the e-mail trait by format and the given/family or flat name fields', () => {
    expect(
      defaultTraitsMapping(
        schemaWith({
          work_email: { type: 'string', format: 'email' },
          name: { type: 'object', properties: { given: {}, family: {} } },
        }),
      ),
    ).toEqual({ work_email: 'email', 'name.given': 'first_name', 'name.family': 'last_name' });
    expect(defaultTraitsMapping(schemaWith({ first_name: {}, last_name: {} }))).toEqual({
      first_name: 'first_name',
      last_name: 'last_name',
    });
    expect(defaultTraitsMapping({})).toEqual({});
  });
});

describe('mapTraits', () => {
  it('copies mapped fields, nested both ways, and leaves out absent and empty ones', () => {
    const data = { id: 'u1', email: 'ada@example.com', first_name: 'Ada', last_name: '', raw: { department: 'R&D' } };
    expect(
      mapTraits(data, { email: 'email', 'name.first': 'first_name', 'name.last': 'last_name', dept: 'raw.department', x: 'raw.none' }),
    ).toEqual({
      email: 'ada@example.com',
      name: { first: 'Ada' },
      dept: 'R&D',
    });
  });

  it('never reads or writes through a prototype', () => {
    const data = JSON.parse('{"raw": {"__proto__": {"polluted": true}}, "email": "a@example.com"}') as Record<string, unknown>;
    const traits = mapTraits(data, { 'raw.__proto__': 'email', evil: 'raw.__proto__.polluted', email: 'constructor' });
    expect(traits).toEqual({});
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
