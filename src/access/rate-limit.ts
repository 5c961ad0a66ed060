// Owns rate limiting. Each API key has a token bucket (the `limiter` package): it holds up to `burst`
// tokens and refills at `perSec` tokens a second, so a client can burst and then sustain the rate.
// Limits come from the account (accounts.rate_limit_*) or the server defaults. Failed authentication
// is limited per client IP with its own bucket, so key guessing is throttled.
// Buckets live in this process: with several server processes each enforces its own share.
import { TokenBucket } from 'limiter';
import type { Db } from '../db/client.js';
import { ApiError } from '../errors.js';
import { TtlCache } from './ttl-cache.js';

export interface Limits {
  perSec: number;
  burst: number;
}

const MAX_BUCKETS = 50_000;

class Buckets {
  private map = new Map<string, TokenBucket>();

  get(key: string, limits: Limits): TokenBucket {
    let b = this.map.get(key);
    if (!b) {
      if (this.map.size >= MAX_BUCKETS) this.map.delete(this.map.keys().next().value!);
      b = new TokenBucket({ bucketSize: limits.burst, tokensPerInterval: limits.perSec, interval: 'second' });
      b.content = limits.burst;
      this.map.set(key, b);
    }
    return b;
  }

  peek(key: string): TokenBucket | undefined {
    return this.map.get(key);
  }
}

function headers(limits: Limits, b: TokenBucket): Record<string, string> {
  const remaining = Math.max(0, Math.floor(b.content));
  const reset = Math.ceil((limits.burst - b.content) / limits.perSec);
  return {
    'ratelimit-limit': String(limits.burst),
    'ratelimit-remaining': String(remaining),
    'ratelimit-reset': String(Math.max(0, reset)),
    'ratelimit-policy': `${limits.burst};w=${Math.max(1, Math.ceil(limits.burst / limits.perSec))}`,
  };
}

export class KeyRateLimiter {
  private buckets = new Buckets();
  private limits: TtlCache<Limits>;

  constructor(
    private db: Db,
    private defaults: Limits,
    ttlMs: number,
  ) {
    this.limits = new TtlCache(ttlMs);
  }

  private async limitsFor(accountId: string): Promise<Limits> {
    return this.limits.get(accountId, async () => {
      const row = await this.db.selectFrom('accounts').select(['rate_limit_per_sec', 'rate_limit_burst']).where('id', '=', accountId).executeTakeFirst();
      const perSec = row?.rate_limit_per_sec ?? this.defaults.perSec;
      return { perSec, burst: Math.max(1, row?.rate_limit_burst ?? this.defaults.burst) };
    });
  }

  /** Takes one token; returns the RateLimit headers, or throws 429 with Retry-After. */
  async take(accountId: string, keyId: string): Promise<Record<string, string>> {
    const limits = await this.limitsFor(accountId);
    const b = this.buckets.get(`${keyId}:${limits.perSec}:${limits.burst}`, limits);
    if (b.tryRemoveTokens(1)) return headers(limits, b);
    const retryAfter = Math.max(1, Math.ceil((1 - b.content) / limits.perSec));
    throw new ApiError('rate_limited', `Rate limit exceeded: ${limits.perSec} requests a second, bursts of ${limits.burst}; retry after ${retryAfter} s`, {
      headers: { ...headers(limits, b), 'retry-after': String(retryAfter) },
    });
  }
}

export class AuthFailureThrottle {
  private buckets = new Buckets();
  private limits: Limits;

  constructor(perMinute: number) {
    this.limits = { perSec: perMinute / 60, burst: perMinute };
  }

  /** Throws 429 while this IP has used up its failed attempts. */
  check(ip: string): void {
    const b = this.buckets.peek(ip);
    if (!b) return;
    b.drip();
    if (b.content < 1) {
      const retryAfter = Math.max(1, Math.ceil((1 - b.content) / this.limits.perSec));
      throw new ApiError('rate_limited', `Too many failed authentication attempts from this address; retry after ${retryAfter} s`, {
        headers: { 'retry-after': String(retryAfter) },
      });
    }
  }

  fail(ip: string): void {
    this.buckets.get(ip, this.limits).tryRemoveTokens(1);
  }
}
