import { Module } from '@nestjs/common';
import { RateLimitStores } from './rate-limit-stores.js';
import { RateLimiter } from './rate-limiter.js';

/** Project rate limits by plan and environment, and the inflight rules (docs/rate-limits.md). */
@Module({
  providers: [RateLimitStores, RateLimiter],
})
export class RateLimitModule {}
