import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Client } from '../../clients/index.js';
import type { OutboundHttp, OutboundResponse } from '../../common/http/outbound-http.js';
import { ClientJwks } from './client-jwks.js';

function outbound(documents: unknown[]): { http: OutboundHttp; calls: () => number } {
  let calls = 0;
  const http = {
    get: async (): Promise<OutboundResponse> => {
      const body = documents[Math.min(calls, documents.length - 1)];
      calls += 1;
      return { status: 200, headers: {}, body: Buffer.from(JSON.stringify(body)) };
    },
  } as unknown as OutboundHttp;
  return { http, calls: () => calls };
}

const client = (extra: Partial<Client>): Client => ({ id: 'c', jwks: undefined, jwksUri: '', ...extra }) as Client;
const key = (kid: string, use = 'sig') => ({ kty: 'EC', crv: 'P-256', x: 'x', y: 'y', kid, use });

describe('ClientJwks', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('uses registered jwks without fetching, leaving out encryption keys', async () => {
    const { http, calls } = outbound([]);
    const keys = await new ClientJwks(http).keysOf(client({ jwks: { keys: [key('a'), key('b', 'enc')] } }));
    expect(keys?.keys.map((entry) => entry.kid)).toEqual(['a']);
    expect(calls()).toBe(0);
  });

  it('fetches a jwks_uri once and serves it from cache', async () => {
    const { http, calls } = outbound([{ keys: [key('a')] }]);
    const jwks = new ClientJwks(http);
    const uriClient = client({ jwksUri: 'https://client.example/jwks' });
    await jwks.keysOf(uriClient);
    expect((await jwks.keysOf(uriClient))?.keys.map((entry) => entry.kid)).toEqual(['a']);
    expect(calls()).toBe(1);
  });

  it('refreshes on demand (rotated keys), but not twice within 30 seconds', async () => {
    const { http, calls } = outbound([{ keys: [key('a')] }, { keys: [key('b')] }]);
    const jwks = new ClientJwks(http);
    const uriClient = client({ jwksUri: 'https://client.example/jwks' });
    await jwks.keysOf(uriClient);
    expect(jwks.canRefresh(uriClient)).toBe(false);
    expect((await jwks.keysOf(uriClient, { refresh: true }))?.keys[0]?.kid).toBe('a');
    vi.advanceTimersByTime(31_000);
    expect(jwks.canRefresh(uriClient)).toBe(true);
    expect((await jwks.keysOf(uriClient, { refresh: true }))?.keys[0]?.kid).toBe('b');
    expect(calls()).toBe(2);
  });

  it('answers undefined for a document that is not a key set', async () => {
    const { http } = outbound([{ not: 'a key set' }]);
    expect(await new ClientJwks(http).keysOf(client({ jwksUri: 'https://client.example/jwks' }))).toBeUndefined();
  });
});
