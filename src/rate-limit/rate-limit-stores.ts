import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { Redis } from 'ioredis';
import type { RedisConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/inject-config.decorator.js';
import { MemoryInflightRegistry, RedisInflightRegistry, type InflightRegistry } from './inflight-registry.js';
import { MemoryThrottlerStorage } from './memory-throttler-storage.js';
import { StorageRateCounters, type RateCounters } from './rate-counters.js';

/** How long a Redis command may take before the request goes on unchecked. */
const REDIS_COMMAND_TIMEOUT_MS = 500;
const REDIS_CONNECT_WAIT_MS = 2000;

/**
 * Where counters and inflight keys live: in this process, or in Redis when REDIS_URL is set (every
 * instance of the project then shares them). A Redis that cannot be reached does not hold requests:
 * commands fail at once while it is disconnected (no offline queue) or after a short timeout, and the
 * limiter lets the request through (see RateLimiter).
 */
@Injectable()
export class RateLimitStores implements OnModuleInit, OnApplicationShutdown {
  readonly counters: RateCounters;
  readonly inflight: InflightRegistry;
  private readonly redis: Redis | undefined;
  private readonly memory: MemoryThrottlerStorage | undefined;
  private readonly logger = new Logger('RateLimit');
  private lastConnectionWarning = 0;

  constructor(@InjectConfig('redis') redis: RedisConfig) {
    if (redis.url === undefined) {
      this.memory = new MemoryThrottlerStorage();
      this.counters = this.memory;
      this.inflight = new MemoryInflightRegistry();
      return;
    }
    this.redis = new Redis(redis.url, {
      enableOfflineQueue: false,
      enableAutoPipelining: true,
      maxRetriesPerRequest: 0,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      connectionName: 'latchkey-rate-limit',
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    this.redis.on('error', (error: Error) => this.warnUnreachable(error));
    this.counters = new StorageRateCounters(new ThrottlerStorageRedisService(this.redis));
    this.inflight = new RedisInflightRegistry(this.redis);
  }

  /** Gives Redis a moment to connect at boot, so the first requests are counted; boots without it. */
  async onModuleInit(): Promise<void> {
    const redis = this.redis;
    if (redis === undefined || redis.status === 'ready') return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      timer = setTimeout(resolve, REDIS_CONNECT_WAIT_MS);
      redis.once('ready', resolve);
    });
    clearTimeout(timer);
  }

  /** Logs that Redis cannot be reached, at most every ten seconds. */
  warnUnreachable(error: unknown): void {
    const now = Date.now();
    if (now - this.lastConnectionWarning < 10_000) return;
    this.lastConnectionWarning = now;
    this.logger.warn({ msg: 'rate-limit counters unreachable: requests go through unchecked', error: describe(error) });
  }

  onApplicationShutdown(): void {
    this.memory?.close();
    this.redis?.disconnect(false);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
