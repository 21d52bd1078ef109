import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/** Requests in flight per inflight key: a key is held by one request at a time. */
export interface InflightRegistry {
  /** A token to release the key with, or `undefined` when another request holds it. */
  acquire(key: string): Promise<string | undefined>;
  release(key: string, token: string): Promise<void>;
}

/**
 * A held key outlives its request at most this long: an instance that dies mid-request (Redis), or a
 * handler that never answers, frees it then.
 */
export const INFLIGHT_KEY_TTL_MS = 30_000;

/** One instance: the keys held by this process's requests. */
export class MemoryInflightRegistry implements InflightRegistry {
  private readonly held = new Map<string, { readonly token: string; readonly expiresAt: number }>();

  acquire(key: string): Promise<string | undefined> {
    const now = Date.now();
    const holder = this.held.get(key);
    if (holder !== undefined && holder.expiresAt > now) return Promise.resolve(undefined);
    const token = randomUUID();
    this.held.set(key, { token, expiresAt: now + INFLIGHT_KEY_TTL_MS });
    return Promise.resolve(token);
  }

  release(key: string, token: string): Promise<void> {
    if (this.held.get(key)?.token === token) this.held.delete(key);
    return Promise.resolve();
  }
}

/** Deletes the key only if it still holds this request's token (it may have expired and been taken since). */
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/** The ioredis command `defineCommand` adds: EVALSHA, with EVAL only when Redis does not have the script yet. */
type WithReleaseCommand = Redis & { latchkeyInflightRelease(key: string, token: string): Promise<number> };

/** Several instances: the keys live in Redis, shared by every instance of the project. */
export class RedisInflightRegistry implements InflightRegistry {
  private readonly redis: WithReleaseCommand;

  constructor(redis: Redis) {
    redis.defineCommand('latchkeyInflightRelease', { numberOfKeys: 1, lua: RELEASE_SCRIPT });
    this.redis = redis as WithReleaseCommand;
  }

  async acquire(key: string): Promise<string | undefined> {
    const token = randomUUID();
    const answer = await this.redis.set(key, token, 'PX', INFLIGHT_KEY_TTL_MS, 'NX');
    return answer === 'OK' ? token : undefined;
  }

  async release(key: string, token: string): Promise<void> {
    await this.redis.latchkeyInflightRelease(key, token);
  }
}
