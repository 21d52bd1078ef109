import type { Redis } from 'ioredis';
import type { StorageRecord } from './memory-throttler-storage.js';

export const BURST_WINDOW_MS = 1000;
export const SUSTAINED_WINDOW_MS = 60_000;

/** One window of a bucket's counters, its keys derived once, when the bucket is compiled. */
export interface CounterWindow {
  /** `{counterKey}:burst` or `…:sustained`: the in-memory window's key, and the hash tag of the Redis keys. */
  readonly key: string;
  /** The Redis keys, named as `@nest-lab/throttler-storage-redis` named them, so counts carry over. */
  readonly hitsKey: string;
  readonly blockedKey: string;
  readonly limit: number;
  /** The window's length, and how long a request over the limit blocks the bucket. */
  readonly ms: number;
}

export function counterWindow(counterKey: string, name: 'burst' | 'sustained', limit: number): CounterWindow {
  const key = `${counterKey}:${name}`;
  return {
    key,
    hitsKey: `{${key}}:hits`,
    blockedKey: `{${key}}:blocked`,
    limit,
    ms: name === 'burst' ? BURST_WINDOW_MS : SUSTAINED_WINDOW_MS,
  };
}

/** The two windows every bucket counts a request against. */
export interface CountedBucket {
  readonly burst: CounterWindow;
  readonly sustained: CounterWindow;
}

export interface WindowCounts {
  readonly burst: StorageRecord;
  readonly sustained: StorageRecord;
}

/**
 * Counts a request against both windows of its bucket. The in-memory store answers synchronously, so
 * the limiter's hook needs no promise for it; Redis answers both windows in one round trip.
 */
export interface RateCounters {
  count(bucket: CountedBucket): WindowCounts | Promise<WindowCounts>;
}

/**
 * The Redis storage's counting (fixed windows from their first hit, blocked for the window's length
 * once over the limit; the script of `@nest-lab/throttler-storage-redis`, whose keys it keeps), run
 * for both windows in one script. Both windows' keys are given, so Redis (not Redis Cluster: the two
 * hash tags differ) runs it as one atomic call.
 */
const COUNT_SCRIPT = `
local function hit(hitKey, blockKey, ttl, limit)
  local totalHits = redis.call('INCR', hitKey)
  local timeToExpire = redis.call('PTTL', hitKey)
  if timeToExpire <= 0 then
    redis.call('PEXPIRE', hitKey, ttl)
    timeToExpire = ttl
  end
  local isBlocked = redis.call('GET', blockKey)
  local timeToBlockExpire = 0
  if isBlocked then
    timeToBlockExpire = redis.call('PTTL', blockKey)
  elseif totalHits > limit then
    redis.call('SET', blockKey, 1, 'PX', ttl)
    isBlocked = '1'
    timeToBlockExpire = ttl
  end
  if isBlocked and timeToBlockExpire <= 0 then
    redis.call('DEL', blockKey)
    redis.call('SET', hitKey, 1, 'PX', ttl)
    totalHits = 1
    timeToExpire = ttl
    isBlocked = false
  end
  return { totalHits, timeToExpire, isBlocked and 1 or 0, timeToBlockExpire }
end
local burst = hit(KEYS[1], KEYS[2], tonumber(ARGV[1]), tonumber(ARGV[2]))
local sustained = hit(KEYS[3], KEYS[4], tonumber(ARGV[3]), tonumber(ARGV[4]))
return { burst[1], burst[2], burst[3], burst[4], sustained[1], sustained[2], sustained[3], sustained[4] }
`;

/** Both windows' milliseconds as Redis returns them, in the order of the script's answer. */
type CountReply = [number, number, number, number, number, number, number, number];

/** The ioredis command `defineCommand` adds: EVALSHA, with EVAL only when Redis does not have the script yet. */
type WithCountCommand = Redis & {
  latchkeyRateLimitCount(
    burstHits: string,
    burstBlocked: string,
    sustainedHits: string,
    sustainedBlocked: string,
    burstMs: number,
    burstLimit: number,
    sustainedMs: number,
    sustainedLimit: number,
  ): Promise<CountReply>;
};

/** Several instances: the counters live in Redis, shared by every instance of the project. */
export class RedisRateCounters implements RateCounters {
  private readonly redis: WithCountCommand;

  constructor(redis: Redis) {
    redis.defineCommand('latchkeyRateLimitCount', { numberOfKeys: 4, lua: COUNT_SCRIPT });
    this.redis = redis as WithCountCommand;
  }

  async count({ burst, sustained }: CountedBucket): Promise<WindowCounts> {
    const reply = await this.redis.latchkeyRateLimitCount(
      burst.hitsKey,
      burst.blockedKey,
      sustained.hitsKey,
      sustained.blockedKey,
      burst.ms,
      burst.limit,
      sustained.ms,
      sustained.limit,
    );
    if (!Array.isArray(reply) || reply.length !== 8) throw new TypeError('unexpected answer of the rate-limit counting script');
    for (const value of reply) if (typeof value !== 'number') throw new TypeError('unexpected answer of the rate-limit counting script');
    return { burst: recordOf(reply, 0), sustained: recordOf(reply, 4) };
  }
}

function recordOf(reply: CountReply, at: 0 | 4): StorageRecord {
  return {
    totalHits: reply[at]!,
    timeToExpire: Math.ceil(reply[at + 1]! / 1000),
    isBlocked: reply[at + 2] === 1,
    timeToBlockExpire: Math.ceil(reply[at + 3]! / 1000),
  };
}
