import { BlockList, isIPv4 } from 'node:net';
import type { RateLimitConfig, RateLimitOverride } from '../config/app-config.js';
import { BucketPattern } from './bucket-pattern.js';
import { nextPlanUp, planLimits, type BucketLimits } from './rate-limit-tables.js';
import type { RequestPath } from './request-path.js';

/** One bucket with its limits, ready for the counters and the response headers. */
export interface ResolvedBucket {
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

/** Lookups per request are cached by method and path, up to this many; then the cache starts over. */
const CACHE_LIMIT = 10_000;

/**
 * Which bucket a request counts against. Every request counts against exactly one: the most specific
 * bucket whose method and pattern match the hosted-style path or its alias, `*` when no other does.
 */
export class RateLimitPolicy {
  readonly enabled: boolean;
  private readonly standard: readonly CompiledBucket[];
  private readonly trusted: readonly CompiledBucket[];
  private readonly trustedAddresses: BlockList | undefined;
  private cache = new Map<string, ResolvedBucket>();

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

  isTrusted(ip: string): boolean {
    if (this.trustedAddresses === undefined) return false;
    const mapped = ip.startsWith('::ffff:') ? ip.slice('::ffff:'.length) : ip;
    return isIPv4(mapped) ? this.trustedAddresses.check(mapped, 'ipv4') : this.trustedAddresses.check(ip, 'ipv6');
  }

  bucketFor(method: string, path: RequestPath, trusted: boolean): ResolvedBucket {
    const cacheKey = `${trusted ? 't' : 's'}${path.listener} ${method} ${path.hosted}`;
    const cached = this.cache.get(cacheKey);
    if (cached !== undefined) return cached;
    const found = mostSpecific(trusted ? this.trusted : this.standard, method, path);
    if (this.cache.size >= CACHE_LIMIT) this.cache = new Map();
    this.cache.set(cacheKey, found);
    return found;
  }
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
    .map((limit) => ({
      pattern: new BucketPattern(limit.bucket),
      bucket: {
        name: limit.bucket,
        counterKey: `latchkey:rate-limit:${project}:${audience}:${limit.bucket}`,
        burstRps: limit.burstRps,
        sustainedRpm: limit.sustainedRpm,
        policyHeader: `"burst";q=${limit.burstRps};w=1, "sustained";q=${limit.sustainedRpm};w=60`,
      },
    }))
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
