import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error.js';
import { KRATOS_PAGE_OPTIONS, numberedPageLinkHeader, offsetOf, parseNumberedPage } from './numbered-page.js';

const links = (header: string): Record<string, string> =>
  Object.fromEntries(header.split(',').map((entry) => [/rel="([^"]+)"/.exec(entry)![1]!, /<([^>]+)>/.exec(entry)![1]!]));

describe('parseNumberedPage', () => {
  it('defaults to page 0 of 250 and lowers per_page to 1000', () => {
    expect(parseNumberedPage({}, KRATOS_PAGE_OPTIONS)).toEqual({ page: 0, perPage: 250 });
    expect(parseNumberedPage({ per_page: '5000', page: '3' }, KRATOS_PAGE_OPTIONS)).toEqual({ page: 3, perPage: 1000 });
    expect(offsetOf({ page: 3, perPage: 10 })).toBe(30);
  });

  it.each([
    [{ per_page: '0' }, 'per_page'],
    [{ per_page: 'x' }, 'per_page'],
    [{ page: '-1' }, 'page'],
    [{ page: ['1', '2'] }, 'page'],
  ])('refuses %j naming %s', (query, parameter) => {
    expect(() => parseNumberedPage(query, KRATOS_PAGE_OPTIONS)).toThrow(AppError);
    try {
      parseNumberedPage(query, KRATOS_PAGE_OPTIONS);
    } catch (error) {
      expect(error).toMatchObject({ code: 'invalid_request', details: { parameter } });
    }
  });
});

describe('numberedPageLinkHeader', () => {
  it('gives first, next and last on the first of several pages', () => {
    expect(links(numberedPageLinkHeader('/identities', { page: 0, perPage: 2 }, 5))).toEqual({
      first: '/identities?page=0&per_page=2',
      next: '/identities?page=1&per_page=2',
      last: '/identities?page=2&per_page=2',
    });
  });

  it('gives prev and no next on the last page, and keeps filters', () => {
    expect(links(numberedPageLinkHeader('/admin/identities?traits.email=a%40b&page=2', { page: 2, perPage: 2 }, 5))).toEqual({
      first: '/admin/identities?page=0&per_page=2&traits.email=a%40b',
      prev: '/admin/identities?page=1&per_page=2&traits.email=a%40b',
      last: '/admin/identities?page=2&per_page=2&traits.email=a%40b',
    });
  });

  it('points prev at the last page from past the end, and handles an empty list', () => {
    expect(links(numberedPageLinkHeader('/identities', { page: 9, perPage: 2 }, 3))['prev']).toBe('/identities?page=1&per_page=2');
    expect(numberedPageLinkHeader('/identities', { page: 0, perPage: 10 }, 0)).toBe(
      '</identities?page=0&per_page=10>; rel="first",</identities?page=0&per_page=10>; rel="last"',
    );
  });
});
