import type { Page } from './page.js';

/**
 * The `Link` header of one page of an offset-paginated list, in Hydra's format:
 * `</clients?limit=5&offset=5>; rel="next"`, entries joined by `,`. The URL is the request path with
 * its query string, `limit` and `offset` replaced and the parameters sorted by name (Go's
 * `url.Values.Encode`, which Hydra uses). Always `first` and `last`; `next` when items follow; `prev`
 * and `previous` (the API description's spelling; Hydra sends `prev`) when the page does not start at 0.
 */
export function paginationLinkHeader(requestUrl: string, page: Page, total: number): string {
  const [path = '/', query = ''] = requestUrl.split('?', 2);
  const params = new URLSearchParams(query);
  const link = (offset: number, rel: string): string => {
    params.set('limit', String(page.limit));
    params.set('offset', String(offset));
    params.sort();
    return `<${path}?${params.toString()}>; rel="${rel}"`;
  };
  const lastOffset = total === 0 ? 0 : Math.floor((total - 1) / page.limit) * page.limit;
  const links = [link(0, 'first')];
  if (page.offset + page.limit < total) links.push(link(page.offset + page.limit, 'next'));
  if (page.offset > 0) {
    const previous = Math.min(Math.max(page.offset - page.limit, 0), lastOffset);
    links.push(link(previous, 'prev'), link(previous, 'previous'));
  }
  links.push(link(lastOffset, 'last'));
  return links.join(',');
}
