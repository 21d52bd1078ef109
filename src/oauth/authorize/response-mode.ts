import type { ResponseType } from '../tokens/authorized-request.js';

export type ResponseMode = 'query' | 'fragment' | 'form_post';

export const RESPONSE_MODES: readonly ResponseMode[] = ['query', 'fragment', 'form_post'];

/** OAuth 2.0 Multiple Response Types §2.1: query for `code` alone, fragment whenever tokens come back. */
export function defaultResponseMode(responseTypes: ReadonlySet<ResponseType>): ResponseMode {
  return responseTypes.size === 1 && responseTypes.has('code') ? 'query' : 'fragment';
}

export function isResponseMode(value: string): value is ResponseMode {
  return (RESPONSE_MODES as readonly string[]).includes(value);
}
