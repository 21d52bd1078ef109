import { describe, expect, it } from 'vitest';
import { parseIdentityListFilter } from './identity-list-filter.js';

const paths = new Set(['email', 'contact.phone']);

describe('parseIdentityListFilter', () => {
  it('ignores pagination and normalises values like identifiers', () => {
    expect(parseIdentityListFilter({ page: '1', per_page: '2' }, paths)).toEqual([]);
    expect(parseIdentityListFilter({ credentials_identifier: 'Zoe\u0308@X.com', 'traits.contact.phone': '+49' }, paths)).toEqual([
      { identifier: 'zo\u00eb@x.com', traitPath: undefined },
      { identifier: '+49', traitPath: 'contact.phone' },
    ]);
  });

  it.each([
    [{ 'traits.name': 'x' }, 'traits.name'],
    [{ email: 'x' }, 'email'],
    [{ credentials_identifier: ['a', 'b'] }, 'credentials_identifier'],
    [{ 'traits.email': '' }, 'traits.email'],
  ])('refuses %j naming %s', (query, field) => {
    expect(() => parseIdentityListFilter(query, paths)).toThrow(expect.objectContaining({ code: 'invalid_request', details: { field } }));
  });
});
