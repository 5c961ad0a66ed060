// Owns token buckets in Redis, so that a key's limit holds across every server process. One Lua
// script refills and takes atomically, using Redis's own clock (no skew between processes); a take of
// cost 0 only looks (the console's check before a sign-in).
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { BucketStore, Limits } from './rate-limit.js';

// ioredis is loaded when a Redis store is configured, not at every server's boot (about 100 ms).
const load = createRequire(import.meta.url);

const TAKE = `
local cap = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local b = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(b[1])
local ts = tonumber(b[2])
if tokens == nil then
  if cost == 0 then return { 1, tostring(cap) } end
  tokens = cap ts = now
end
tokens = math.min(cap, tokens + math.max(0, now - ts) * rate / 1000)
local ok = 0
if tokens >= 1 then tokens = tokens - cost ok = 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(cap / rate * 1000) + 1000)
return { ok, tostring(tokens) }
`;

export class RedisBucketStore implements BucketStore {
  private redis: Redis;

  constructor(url: string) {
    const { Redis: Client } = load('ioredis') as typeof import('ioredis');
    this.redis = new Client(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    this.redis.on('error', () => {}); // surfaced per call by take()
    this.redis.defineCommand('sangamTake', { numberOfKeys: 1, lua: TAKE });
  }

  async take(key: string, limits: Limits, cost = 1): Promise<{ ok: boolean; tokens: number }> {
    const [ok, tokens] = (await (this.redis as unknown as { sangamTake(k: string, c: number, r: number, n: number): Promise<[number, string]> }).sangamTake(
      `sangam:rl:${key}`,
      limits.burst,
      limits.perSec,
      cost,
    )) as [number, string];
    return { ok: ok === 1, tokens: Number(tokens) };
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
