// The Redis rate-limit counters measured apart from HTTP: 50 concurrent callers count requests of one
// bucket through the service's StorageRateCounters (dist/) over the Redis ThrottlerStorage on one ioredis connection, as the service
// does, and the CPU per request is reported for this process (the service's share) and for
// redis-server (from INFO cpu, so it needs a Redis of its own or a quiet one). docs/rate-limits.md.
//
//   npm run build && node bench/rate-limit-counters.mjs        (BENCH_REDIS_URL, default redis://127.0.0.1:6379)
/* global performance */
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const REQUESTS = 40_000;
const CALLERS = 50;

const { StorageRateCounters, counterWindow } = await import(join(ROOT, 'dist', 'src', 'rate-limit', 'rate-counters.js'));
const { ThrottlerStorageRedisService } = await import('@nest-lab/throttler-storage-redis');
const key = `latchkey:rate-limit:bench-${randomBytes(4).toString('hex')}:project:/sessions/whoami`;
const bucket = { burst: counterWindow(key, 'burst', 1e9), sustained: counterWindow(key, 'sustained', 1e9) };

const redis = new Redis(REDIS_URL, { enableOfflineQueue: false, enableAutoPipelining: true, maxRetriesPerRequest: 0 });
const info = new Redis(REDIS_URL);
await new Promise((resolve) => redis.once('ready', resolve));
const counters = new StorageRateCounters(new ThrottlerStorageRedisService(redis));

async function redisCpuSeconds() {
  const text = await info.info('cpu');
  return Number(/used_cpu_user:([\d.]+)/.exec(text)[1]) + Number(/used_cpu_sys:([\d.]+)/.exec(text)[1]);
}

async function load() {
  let started = 0;
  const caller = async () => {
    while (started++ < REQUESTS) await counters.count(bucket);
  };
  await Promise.all(Array.from({ length: CALLERS }, caller));
}

await load(); // warm-up
for (let round = 1; round <= 3; round += 1) {
  const redisBefore = await redisCpuSeconds();
  const cpuBefore = process.cpuUsage();
  const startedAt = performance.now();
  await load();
  const elapsed = performance.now() - startedAt;
  const cpu = process.cpuUsage(cpuBefore);
  const redisMicros = ((await redisCpuSeconds()) - redisBefore) * 1e6;
  console.log(
    `round ${round}: ${Math.round((REQUESTS / elapsed) * 1000)} counts/s, ` +
      `client CPU ${((cpu.user + cpu.system) / REQUESTS).toFixed(1)} µs, redis-server CPU ${(redisMicros / REQUESTS).toFixed(1)} µs per request`,
  );
}
await redis.del(...['burst', 'sustained'].flatMap((name) => [`{${key}:${name}}:hits`, `{${key}:${name}}:blocked`]));
redis.disconnect();
info.disconnect();
