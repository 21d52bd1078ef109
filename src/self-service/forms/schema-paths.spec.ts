import { describe, expect, it } from 'vitest';
import { listSchemaPaths, traitsSchemaOf } from './schema-paths.js';

describe('listSchemaPaths', () => {
  it('lists leaves with dotted names, types, formats, patterns, titles and requiredness, in schema order', () => {
    const document = {
      properties: {
        traits: {
          type: 'object',
          required: ['email'],
          properties: {
            email: { type: 'string', format: 'email', title: 'E-Mail', pattern: '.+@.+' },
            name: { type: 'object', required: ['last'], properties: { first: { type: 'string' }, last: { type: 'string' } } },
            tags: { type: 'array', items: { type: 'integer' } },
            mixed: { type: 'array', items: { type: 'object' } },
            nullable: { type: ['null', 'boolean'] },
            untyped: { description: 'no type: not a form field' },
          },
        },
      },
    };
    expect(listSchemaPaths(document, traitsSchemaOf(document), 'traits')).toEqual([
      { name: 'traits.email', type: 'string', format: 'email', pattern: '.+@.+', title: 'E-Mail', required: true },
      { name: 'traits.name.first', type: 'string', required: false },
      { name: 'traits.name.last', type: 'string', required: true },
      { name: 'traits.tags', type: 'array', itemType: 'integer', required: false },
      { name: 'traits.mixed', type: 'array', required: false },
      { name: 'traits.nullable', type: 'boolean', required: false },
    ]);
  });

  it('follows local $refs (definitions and $defs), and stops at the depth limit for recursive ones', () => {
    const document = {
      $defs: { address: { type: 'object', properties: { city: { $ref: '#/definitions/city' } } } },
      definitions: {
        city: { type: 'string', title: 'City' },
        node: { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#/definitions/node' } } },
      },
      properties: { traits: { $ref: '#/definitions/wrapper' } },
    };
    const withWrapper = {
      ...document,
      definitions: {
        ...document.definitions,
        wrapper: { type: 'object', properties: { home: { $ref: '#/$defs/address' }, tree: { $ref: '#/definitions/node' } } },
      },
    };
    const names = listSchemaPaths(withWrapper, traitsSchemaOf(withWrapper), 'traits').map((path) => path.name);
    expect(names[0]).toBe('traits.home.city');
    expect(names).toContain('traits.tree.name');
    expect(names).toContain('traits.tree.child.name');
    expect(names.length).toBeLessThan(10);
    expect(
      listSchemaPaths(
        { properties: { traits: { $ref: '#/nowhere' } } },
        traitsSchemaOf({ properties: { traits: { $ref: '#/nowhere' } } }),
        'traits',
      ),
    ).toEqual([]);
  });
});
