import { CommonErrors } from '../errors/app-error.js';

/** A page of a list addressed Kratos-style: `page` counts from 0, `per_page` items each. */
export interface NumberedPage {
  readonly page: number;
  readonly perPage: number;
}

export interface NumberedPageOptions {
  readonly defaultPerPage: number;
  /** Larger values are lowered to this one (Kratos does the same); the Link header shows what was served. */
  readonly maxPerPage: number;
}

/** Kratos v0.6 identity listing (ory/x pagination: 250 by default, at most 1000). */
export const KRATOS_PAGE_OPTIONS: NumberedPageOptions = { defaultPerPage: 250, maxPerPage: 1000 };

/**
 * Reads `page` and `per_page`. Each must be absent or one decimal whole number (`per_page` at least 1);
 * anything else is a 400 naming the parameter. A page past the end is not an error: it is empty.
 */
export function parseNumberedPage(query: Readonly<Record<string, unknown>>, options: NumberedPageOptions): NumberedPage {
  const perPage = wholeNumber(query['per_page'], 'per_page', 1) ?? options.defaultPerPage;
  const page = wholeNumber(query['page'], 'page', 0) ?? 0;
  return { page, perPage: Math.min(perPage, options.maxPerPage) };
}

export function offsetOf(page: NumberedPage): number {
  return page.page * page.perPage;
}

/**
 * The `Link` header of one numbered page, Kratos' format: `</identities?page=1&per_page=10>; rel="next"`,
 * entries joined by `,`. The URL is the request path with its query, `page` and `per_page` replaced
 * and parameters sorted by name (Go's `url.Values.Encode`), so filters carry over. Always `first` and
 * `last`; `next` when items follow; `prev` when the page is not the first.
 */
export function numberedPageLinkHeader(requestUrl: string, page: NumberedPage, total: number): string {
  const [path = '/', query = ''] = requestUrl.split('?', 2);
  const params = new URLSearchParams(query);
  const link = (number: number, rel: string): string => {
    params.set('page', String(number));
    params.set('per_page', String(page.perPage));
    params.sort();
    return `<${path}?${params.toString()}>; rel="${rel}"`;
  };
  const lastPage = total === 0 ? 0 : Math.floor((total - 1) / page.perPage);
  const links = [link(0, 'first')];
  if ((page.page + 1) * page.perPage < total) links.push(link(page.page + 1, 'next'));
  if (page.page > 0) links.push(link(Math.min(page.page - 1, lastPage), 'prev'));
  links.push(link(lastPage, 'last'));
  return links.join(',');
}

function wholeNumber(raw: unknown, name: string, min: number): number | undefined {
  if (raw === undefined) return undefined;
  const value = typeof raw === 'string' && /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min) {
    throw CommonErrors.invalidRequest(`${name} must be a whole number of at least ${min}.`, { parameter: name });
  }
  return value;
}
