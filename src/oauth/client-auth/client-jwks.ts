import { Injectable } from '@nestjs/common';
import type { JSONWebKeySet } from 'jose';
import type { Client } from '../../clients/index.js';
import { TtlCache } from '../../common/cache/ttl-cache.js';
import { OutboundHttp } from '../../common/http/outbound-http.js';

const CACHE = { ttlMs: 5 * 60_000, maxEntries: 1000 };
/** A key set fetched less than this long ago is not fetched again, even when a kid is missing. */
const MIN_REFETCH_MS = 30_000;

interface Fetched {
  readonly jwks: JSONWebKeySet;
  readonly at: number;
}

/**
 * The keys a private_key_jwt client signs its assertions with: its registered `jwks`, or the document
 * at its `jwks_uri`, fetched through OutboundHttp (private addresses refused unless configured, size
 * and time capped) and cached for five minutes. A client that rotated its keys gets a fresh fetch when
 * an assertion names an unknown kid, at most once per 30 seconds per URI. Keys meant for encryption
 * are left out. Undefined when the keys cannot be had.
 */
@Injectable()
export class ClientJwks {
  private readonly cache = new TtlCache<string, Fetched>(CACHE);
  private readonly inflight = new Map<string, Promise<Fetched | undefined>>();

  constructor(private readonly outbound: OutboundHttp) {}

  async keysOf(client: Client, options: { readonly refresh: boolean } = { refresh: false }): Promise<JSONWebKeySet | undefined> {
    if (client.jwks !== undefined) return signingKeys(client.jwks as unknown as JSONWebKeySet);
    if (client.jwksUri === '') return undefined;
    const cached = this.cache.get(client.jwksUri);
    if (cached !== undefined && (!options.refresh || Date.now() - cached.at < MIN_REFETCH_MS)) return cached.jwks;
    return (await this.fetch(client.jwksUri))?.jwks;
  }

  /** True when a refresh would actually fetch (so callers retry only when it can change something). */
  canRefresh(client: Client): boolean {
    if (client.jwks !== undefined || client.jwksUri === '') return false;
    const cached = this.cache.get(client.jwksUri);
    return cached === undefined || Date.now() - cached.at >= MIN_REFETCH_MS;
  }

  private fetch(uri: string): Promise<Fetched | undefined> {
    let running = this.inflight.get(uri);
    if (running === undefined) {
      const generation = this.cache.generation();
      running = this.download(uri)
        .then((jwks) => {
          if (jwks === undefined) return undefined;
          const fetched = { jwks, at: Date.now() };
          this.cache.set(uri, fetched, generation);
          return fetched;
        })
        .finally(() => this.inflight.delete(uri));
      this.inflight.set(uri, running);
    }
    return running;
  }

  private async download(uri: string): Promise<JSONWebKeySet | undefined> {
    try {
      const response = await this.outbound.get(uri);
      if (response.status !== 200) return undefined;
      const parsed: unknown = JSON.parse(response.body.toString('utf8'));
      if (typeof parsed !== 'object' || parsed === null || !Array.isArray((parsed as { keys?: unknown }).keys)) return undefined;
      return signingKeys(parsed as JSONWebKeySet);
    } catch {
      // Unreachable, refused (private address), too large, not JSON: the client cannot be authenticated.
      return undefined;
    }
  }
}

function signingKeys(jwks: JSONWebKeySet): JSONWebKeySet {
  return { keys: jwks.keys.filter((key) => typeof key === 'object' && key !== null && key.use !== 'enc') };
}
