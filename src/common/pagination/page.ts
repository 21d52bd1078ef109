import { CommonErrors } from '../errors/app-error.js';

/** A page of a list: at most `limit` items after skipping `offset`. */
export interface Page {
  readonly limit: number;
  readonly offset: number;
}

export interface PageOptions {
  readonly defaultLimit: number;
  /** Larger limits are lowered to this one (Hydra does the same); the Link header shows what was served. */
  readonly maxLimit: number;
}

/** Hydra's values for `GET /clients` (ory/x pagination.Parse(r, 100, 0, 500)). */
export const DEFAULT_PAGE_OPTIONS: PageOptions = { defaultLimit: 100, maxLimit: 500 };

/**
 * Reads `limit` and `offset` from a parsed query string. Each must be absent or one decimal whole
 * number (`limit` at least 1); anything else, a repeated parameter or a number past 2^53 is a 400
 * naming the parameter. An offset past the end is not an error: it gives an empty page.
 */
export function parsePage(query: Readonly<Record<string, unknown>>, options: PageOptions = DEFAULT_PAGE_OPTIONS): Page {
  const limit = wholeNumber(query['limit'], 'limit', 1) ?? options.defaultLimit;
  const offset = wholeNumber(query['offset'], 'offset', 0) ?? 0;
  return { limit: Math.min(limit, options.maxLimit), offset };
}

function wholeNumber(raw: unknown, name: string, min: number): number | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^\d{1,16}$/.test(raw)) {
    throw CommonErrors.invalidRequest(`${name} must be a whole number of at least ${min}.`, { parameter: name });
  }
  const value = Number(raw);
  if (value < min || !Number.isSafeInteger(value)) {
    throw CommonErrors.invalidRequest(`${name} must be a whole number of at least ${min}.`, { parameter: name });
  }
  return value;
}
