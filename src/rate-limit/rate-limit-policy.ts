import { BlockList, isIPv4 } from 'node:net';
import type { RateLimitConfig, RateLimitOverride } from '../config/app-config.js';
import { BucketPattern } from './bucket-pattern.js';
import { counterWindow, type CountedBucket } from './rate-counters.js';
import { nextPlanUp, planLimits, type BucketLimits } from './rate-limit-tables.js';
import type { RequestPath } from './request-path.js';

/** One bucket with its limits, ready for the counters and the response headers. */
export interface ResolvedBucket extends CountedBucket {
  /** The bucket as the tables write it (`*`, `GET /admin/identities`, ...): the metric label. */
  readonly name: string;
  /** Where its counters live; trusted addresses count apart from the rest of the project. */
  readonly counterKey: string;
  readonly burstRps: number;
  readonly sustainedRpm: number;
  /** The `RateLimit-Policy` field value (IETF httpapi-ratelimit-headers draft). */
  readonly policyHeader: string;
}

interface CompiledBucket {
  readonly pattern: BucketPattern;
  readonly bucket: ResolvedBucket;
}

/** Lookups per request are cached by method and path, up to this many paths; then the cache starts over. */
const CACHE_LIMIT = 10_000;

/** Path → method → bucket; nested so that a lookup builds no key string. */
type BucketCache = Map<string, Map<string, ResolvedBucket>>;

/**
 * Which bucket a request counts against. Every request counts against exactly one: the most specific
 * bucket whose method and pattern match the hosted-style path or its alias, `*` when no other does.
 */
export class RateLimitPolicy {
  readonly enabled: boolean;
  private readonly standard: readonly CompiledBucket[];
  private readonly trusted: readonly CompiledBucket[];
  private readonly trustedAddresses: BlockList | undefined;
  /** One cache per audience and listener: standard public, standard admin, trusted public, trusted admin. */
  private caches: BucketCache[] = newCaches();
  private cachedPaths = 0;

  constructor(config: RateLimitConfig) {
    this.enabled = config.plan !== 'off';
    if (config.plan === 'off') {
      this.standard = [];
      this.trusted = [];
      this.trustedAddresses = undefined;
      return;
    }
    const own = planLimits(config.plan, config.environment);
    const above = planLimits(nextPlanUp(config.plan), config.environment);
    this.standard = compile(config.project, 'project', withOverrides(own, config.overrides, false));
    this.trusted = compile(config.project, 'trusted', withOverrides(above, config.overrides, true));
    this.trustedAddresses = config.trustedIps.length === 0 ? undefined : blockListOf(config.trustedIps);
  }

  /** False when no trusted addresses are configured: the caller then need not look up the client's address. */
  get trustsAddresses(): boolean {
    return this.trustedAddresses !== undefined;
  }

  isTrusted(ip: string): boolean {
    if (this.trustedAddresses === undefined) return false;
    const mapped = ip.startsWith('::ffff:') ? ip.slice('::ffff:'.length) : ip;
    return isIPv4(mapped) ? this.trustedAddresses.check(mapped, 'ipv4') : this.trustedAddresses.check(ip, 'ipv6');
  }

  bucketFor(method: string, path: RequestPath, trusted: boolean): ResolvedBucket {
    const slot = (trusted ? 2 : 0) + (path.listener === 'admin' ? 1 : 0);
    let byMethod = this.caches[slot]!.get(path.hosted);
    const cached = byMethod?.get(method);
    if (cached !== undefined) return cached;
    const found = mostSpecific(trusted ? this.trusted : this.standard, method, path);
    if (byMethod === undefined) {
      if (this.cachedPaths >= CACHE_LIMIT) {
        this.caches = newCaches();
        this.cachedPaths = 0;
      }
      byMethod = new Map();
      this.caches[slot]!.set(path.hosted, byMethod);
      this.cachedPaths += 1;
    }
    byMethod.set(method, found);
    return found;
  }
}

function newCaches(): BucketCache[] {
  return [new Map(), new Map(), new Map(), new Map()];
}

/** Buckets are sorted most specific first, so the first match wins; `*` is last and matches everything. */
function mostSpecific(buckets: readonly CompiledBucket[], method: string, path: RequestPath): ResolvedBucket {
  const admin = path.listener === 'admin';
  for (const { pattern, bucket } of buckets) {
    if (pattern.adminOnly && !admin) continue;
    if (pattern.matches(method, path.hosted) || (path.alias !== path.hosted && pattern.matches(method, path.alias))) return bucket;
  }
  return buckets.at(-1)!.bucket;
}

/**
 * An override replaces a bucket's limits, or adds the bucket. For trusted addresses the larger of the
 * override and the next plan's value holds, so an override never leaves them below the plan above.
 */
function withOverrides(limits: readonly BucketLimits[], overrides: readonly RateLimitOverride[], keepLarger: boolean): BucketLimits[] {
  const merged = new Map(limits.map((limit) => [limit.bucket, limit]));
  for (const override of overrides) {
    const base = merged.get(override.bucket);
    merged.set(override.bucket, {
      bucket: override.bucket,
      burstRps: keepLarger && base !== undefined ? Math.max(base.burstRps, override.burstRps) : override.burstRps,
      sustainedRpm: keepLarger && base !== undefined ? Math.max(base.sustainedRpm, override.sustainedRpm) : override.sustainedRpm,
    });
  }
  return [...merged.values()];
}

function compile(project: string, audience: 'project' | 'trusted', limits: readonly BucketLimits[]): CompiledBucket[] {
  return limits
    .map((limit) => {
      const counterKey = `latchkey:rate-limit:${project}:${audience}:${limit.bucket}`;
      return {
        pattern: new BucketPattern(limit.bucket),
        bucket: {
          name: limit.bucket,
          counterKey,
          burst: counterWindow(counterKey, 'burst', limit.burstRps),
          sustained: counterWindow(counterKey, 'sustained', limit.sustainedRpm),
          burstRps: limit.burstRps,
          sustainedRpm: limit.sustainedRpm,
          policyHeader: `"burst";q=${limit.burstRps};w=1, "sustained";q=${limit.sustainedRpm};w=60`,
        },
      };
    })
    .sort((a, b) => a.pattern.compareSpecificity(b.pattern));
}

function blockListOf(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [address, prefix] = cidr.split('/') as [string, string];
    list.addSubnet(address, Number(prefix), isIPv4(address) ? 'ipv4' : 'ipv6');
  }
  return list;
}
