import { headerOf, type JudgedRequest } from './authentication-session.js';

/** Oathkeeper's `token_from`: one of a header, a query parameter or a cookie. */
export interface TokenFrom {
  readonly header?: string;
  readonly query_parameter?: string;
  readonly cookie?: string;
}

const MAX_TOKEN_LENGTH = 8192;

/**
 * The bearer token of a request: by default from `Authorization: Bearer`; from `token_from` when set
 * (a header named `Authorization` still drops the `Bearer ` prefix). Undefined when absent.
 */
export function tokenFrom(request: JudgedRequest, from: TokenFrom | undefined): string | undefined {
  let token: string | undefined;
  if (from?.header !== undefined) {
    const value = headerOf(request, from.header);
    token = from.header.toLowerCase() === 'authorization' ? bearer(value) : value;
  } else if (from?.query_parameter !== undefined) {
    token = request.url.searchParams.get(from.query_parameter) ?? undefined;
  } else if (from?.cookie !== undefined) {
    token = request.readCookies()[from.cookie];
  } else {
    token = bearer(headerOf(request, 'authorization'));
  }
  return token === undefined || token === '' || token.length > MAX_TOKEN_LENGTH ? undefined : token;
}

function bearer(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const match = /^bearer\s+(\S+)\s*$/i.exec(value);
  return match?.[1];
}

/** A path into a JSON document, GJSON's simple form: `a.b.0.c`, `@this` for the whole document. */
export function jsonPath(document: unknown, path: string): unknown {
  if (path === '@this' || path === '') return document;
  let value = document;
  for (const key of path.split(/(?<!\\)\./).map((part) => part.replaceAll('\\.', '.'))) {
    if (value === null || typeof value !== 'object') return undefined;
    if (Array.isArray(value)) value = /^\d+$/.test(key) ? value[Number(key)] : undefined;
    else value = Object.prototype.hasOwnProperty.call(value, key) ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}
