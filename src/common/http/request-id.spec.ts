import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { requestIdOf } from './request-id.js';

const request = (headers: Record<string, string> = {}): IncomingMessage => ({ headers }) as unknown as IncomingMessage;

describe('requestIdOf', () => {
  it('keeps a sane caller id', () => {
    expect(requestIdOf(request({ 'x-request-id': 'trace-abc.123:4' }))).toBe('trace-abc.123:4');
  });

  it('generates distinct random UUIDs otherwise', () => {
    const ids = Array.from({ length: 1000 }, (_, index) => requestIdOf(request(index % 2 === 0 ? {} : { 'x-request-id': 'bad id' })));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // Random, not counted: no two ids share their first twelve hex digits (a chance of about 3e-9).
    expect(new Set(ids.map((id) => id.slice(0, 13))).size).toBe(ids.length);
  });
});
