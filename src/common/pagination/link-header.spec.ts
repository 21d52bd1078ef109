import { describe, expect, it } from 'vitest';
import { paginationLinkHeader } from './link-header.js';

const links = (header: string): Record<string, string> =>
  Object.fromEntries(header.split(',').map((entry) => [/rel="([^"]+)"/.exec(entry)![1]!, /<([^>]+)>/.exec(entry)![1]!]));

describe('paginationLinkHeader', () => {
  it('gives first and last only when everything fits', () => {
    expect(paginationLinkHeader('/clients', { limit: 100, offset: 0 }, 7)).toBe(
      '</clients?limit=100&offset=0>; rel="first",</clients?limit=100&offset=0>; rel="last"',
    );
  });

  it('gives first, next and last on the first of several pages', () => {
    expect(links(paginationLinkHeader('/clients?limit=5', { limit: 5, offset: 0 }, 23))).toEqual({
      first: '/clients?limit=5&offset=0',
      next: '/clients?limit=5&offset=5',
      last: '/clients?limit=5&offset=20',
    });
  });

  it('gives all five rels on a middle page, prev and previous alike', () => {
    expect(links(paginationLinkHeader('/clients', { limit: 5, offset: 10 }, 23))).toEqual({
      first: '/clients?limit=5&offset=0',
      next: '/clients?limit=5&offset=15',
      prev: '/clients?limit=5&offset=5',
      previous: '/clients?limit=5&offset=5',
      last: '/clients?limit=5&offset=20',
    });
  });

  it('has no next on the last page; a total that divides evenly ends one page earlier', () => {
    expect(links(paginationLinkHeader('/clients', { limit: 5, offset: 15 }, 20))).toEqual({
      first: '/clients?limit=5&offset=0',
      prev: '/clients?limit=5&offset=10',
      previous: '/clients?limit=5&offset=10',
      last: '/clients?limit=5&offset=15',
    });
  });

  it('points prev at the last page from past the end, and at 0 from an unaligned offset', () => {
    expect(links(paginationLinkHeader('/clients', { limit: 5, offset: 100 }, 12))['prev']).toBe('/clients?limit=5&offset=10');
    expect(links(paginationLinkHeader('/clients', { limit: 5, offset: 3 }, 12))['prev']).toBe('/clients?limit=5&offset=0');
  });

  it('keeps other query parameters, sorted by name like Hydra', () => {
    expect(links(paginationLinkHeader('/admin/clients?owner=a%20b&limit=2&offset=2', { limit: 2, offset: 2 }, 3))['first']).toBe(
      '/admin/clients?limit=2&offset=0&owner=a+b',
    );
  });

  it('handles an empty list', () => {
    expect(paginationLinkHeader('/clients', { limit: 10, offset: 0 }, 0)).toBe(
      '</clients?limit=10&offset=0>; rel="first",</clients?limit=10&offset=0>; rel="last"',
    );
  });
});
