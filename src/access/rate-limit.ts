// Owns rate limiting. Each API key has a token bucket: it holds up to `burst` tokens and refills at
// `perSec` tokens a second, so a client can burst and then sustain the rate. Limits come from the
// account (accounts.rate_limit_*) or the server defaults. Buckets live in this process (the `limiter`
// package) or, with SANGAM_REDIS_URL, in Redis (redis-bucket.ts), shared by every server process.
// Failed authentication is limited per client IP with its own in-process bucket.
import { TokenBucket } from 'limiter';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { ApiError } from '../errors.js';
import { TtlCache } from './ttl-cache.js';

export interface Limits {
  perSec: number;
  burst: number;
}

/** Where buckets live: takes one token if there is one; answers the tokens left either way. */
export interface BucketStore {
  take(key: string, limits: Limits): Promise<{ ok: boolean; tokens: number }>;
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

export class MemoryBucketStore implements BucketStore {
  private buckets = new Buckets();

  async take(key: string, limits: Limits) {
    const b = this.buckets.get(key, limits);
    const ok = b.tryRemoveTokens(1);
    return { ok, tokens: b.content };
  }
}

function headers(limits: Limits, tokens: number): Record<string, string> {
  const remaining = Math.max(0, Math.floor(tokens));
  const reset = Math.ceil((limits.burst - tokens) / limits.perSec);
  return {
    'ratelimit-limit': String(limits.burst),
    'ratelimit-remaining': String(remaining),
    'ratelimit-reset': String(Math.max(0, reset)),
    'ratelimit-policy': `${limits.burst};w=${Math.max(1, Math.ceil(limits.burst / limits.perSec))}`,
  };
}

export class KeyRateLimiter {
  private limits: TtlCache<Limits>;

  constructor(
    private db: Db,
    private defaults: Limits,
    ttlMs: number,
    private store: BucketStore,
    private log: FastifyBaseLogger,
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
    let res: { ok: boolean; tokens: number };
    try {
      res = await this.store.take(`${keyId}:${limits.perSec}:${limits.burst}`, limits);
    } catch (err) {
      // A limiter outage must not stop payments: let the request through, loudly.
      this.log.error({ err }, 'rate limiter store unavailable; request allowed');
      return {};
    }
    if (res.ok) return headers(limits, res.tokens);
    const retryAfter = Math.max(1, Math.ceil((1 - res.tokens) / limits.perSec));
    throw new ApiError('rate_limited', `Rate limit exceeded: ${limits.perSec} requests a second, bursts of ${limits.burst}; retry after ${retryAfter} s`, {
      headers: { ...headers(limits, res.tokens), 'retry-after': String(retryAfter) },
    });
  }
}

export class AuthFailureThrottle {
  private buckets = new Buckets();
  private limits: Limits;

  constructor(perMinute: number) {
    this.limits = { perSec: perMinute / 60, burst: perMinute };
  }

  /**
   * Throws 429 while `who` has used up its failed attempts. The console's password sign-in checks
   * before trying (a guessed password must not succeed while throttled); API keys are too long to
   * guess, so the API counts and refuses only failed attempts (fail()).
   */
  check(who: string): void {
    const b = this.buckets.peek(who);
    if (!b) return;
    b.drip();
    if (b.content < 1) throw this.limited(b.content);
  }

  /** Counts one failed attempt by `who`; throws 429 once it has used up its failed attempts. */
  fail(who: string): void {
    const b = this.buckets.get(who, this.limits);
    if (!b.tryRemoveTokens(1)) throw this.limited(b.content);
  }

  private limited(tokens: number): ApiError {
    const retryAfter = Math.max(1, Math.ceil((1 - tokens) / this.limits.perSec));
    return new ApiError('rate_limited', `Too many failed authentication attempts from this address; retry after ${retryAfter} s`, {
      headers: { 'retry-after': String(retryAfter) },
    });
  }
}
