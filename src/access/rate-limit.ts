// Owns rate limiting. Each API key has a token bucket: it holds up to `burst` tokens and refills at
// `perSec` tokens a second, so a client can burst and then sustain the rate. Limits come from the
// account (accounts.rate_limit_*) or the server defaults. Failed authentications are limited per
// client IP (and console sign-ins per address and email) with buckets of their own. Every bucket lives
// in one BucketStore, chosen once (services.ts): with SANGAM_REDIS_URL in Redis (redis-bucket.ts),
// shared by every server process; in cluster mode without Redis in the primary process
// (cluster-bucket.ts), shared by its workers; otherwise in this process (the `limiter` package). A
// store that fails lets the request through, loudly: a limiter outage never stops payments.
import { TokenBucket } from 'limiter';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { ApiError } from '../errors.js';
import { TtlCache } from './ttl-cache.js';

export interface Limits {
  perSec: number;
  burst: number;
}

/**
 * Where buckets live. take() refills the bucket and, if it holds a whole token, removes `cost` tokens
 * (1, or 0 to only look); `ok` says whether it held one, `tokens` what is left either way.
 */
export interface BucketStore {
  take(key: string, limits: Limits, cost?: number): Promise<{ ok: boolean; tokens: number }>;
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

  async take(key: string, limits: Limits, cost = 1) {
    // A look at a bucket nobody has used is a full bucket, without making one (which could evict another).
    const b = cost === 0 ? this.buckets.peek(key) : this.buckets.get(key, limits);
    if (!b) return { ok: true, tokens: limits.burst };
    b.drip();
    const ok = b.content >= 1;
    if (ok) b.content -= cost;
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

  /** The account's limits (its own or the server's defaults). */
  limitsOf(accountId: string): Promise<Limits> {
    return this.limitsFor(accountId);
  }

  /** Takes `cost` tokens from the bucket `key`; a store that fails lets it through, loudly. */
  async bucket(key: string, limits: Limits, cost: number): Promise<{ ok: boolean; tokens: number }> {
    try {
      return await this.store.take(key, limits, cost);
    } catch (err) {
      this.log.error({ err }, 'rate limiter store unavailable; batch rows allowed');
      return { ok: true, tokens: limits.burst };
    }
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

/**
 * The pace of batch rows (src/batches/). Each account has a bucket of its own per environment, with the
 * account's limits (CONTRACT §12: batch rows never spend the tokens of the keys' interactive calls, and
 * never go faster than one key may). Live rows also share one bucket per operation across every account
 * (`live`: NPCI forbids turning files into high-rate calls, and partners rate-limit), and one per partner
 * where the partner routed first sets its own pace (`partnerPace`, shared by its operations). Rows are granted
 * before they are taken, never on credit: a worker runs only as many rows as the buckets hold.
 */
export class BatchPacer {
  constructor(
    private limiter: KeyRateLimiter,
    private live: Limits,
    /** The partner a live row of an operation goes to first, and its own pace (rows a second), where it sets one. */
    private partnerPace: (operation: string) => { partner: string; perSec: number } | null = () => null,
  ) {}

  /**
   * Up to `max` rows of one batch, now: how many may start (at least 1), or how many milliseconds to
   * wait before asking again.
   */
  async grant(b: { accountId: string; environment: string; operation: string }, max: number): Promise<{ rows: number; waitMs: number }> {
    const account = await this.limiter.limitsOf(b.accountId);
    const buckets: Array<[string, Limits]> = [[`batch:${b.accountId}:${b.environment}:${account.perSec}:${account.burst}`, account]];
    if (b.environment === 'live') {
      buckets.push([`batch-live:${b.operation}:${this.live.perSec}:${this.live.burst}`, this.live]);
      const pace = this.partnerPace(b.operation);
      if (pace) buckets.push([`batch-partner:${pace.partner}:${pace.perSec}`, { perSec: pace.perSec, burst: Math.max(1, Math.ceil(pace.perSec)) }]);
    }
    let rows = max;
    let waitMs = 0;
    for (const [key, limits] of buckets) {
      const { tokens } = await this.limiter.bucket(key, limits, 0);
      rows = Math.min(rows, Math.floor(tokens));
      if (tokens < 1) waitMs = Math.max(waitMs, Math.ceil(((1 - tokens) / limits.perSec) * 1000));
    }
    if (rows < 1) return { rows: 0, waitMs: Math.max(1, waitMs) };
    for (const [key, limits] of buckets) await this.limiter.bucket(key, limits, rows);
    return { rows, waitMs: 0 };
  }
}

/** Failed attempts of one kind ("auth" per client IP, "console" per address and email), `perMinute` of them. */
export class AuthFailureThrottle {
  private limits: Limits;

  constructor(
    private kind: string,
    perMinute: number,
    private store: BucketStore,
    private log: FastifyBaseLogger,
  ) {
    this.limits = { perSec: perMinute / 60, burst: perMinute };
  }

  /**
   * Throws 429 while `who` has used up its failed attempts. The console's password sign-in checks
   * before trying (a guessed password must not succeed while throttled); API keys are too long to
   * guess, so the API counts and refuses only failed attempts (fail()).
   */
  async check(who: string): Promise<void> {
    const r = await this.take(who, 0);
    if (!r.ok) throw this.limited(r.tokens);
  }

  /** Counts one failed attempt by `who`; throws 429 once it has used up its failed attempts. */
  async fail(who: string): Promise<void> {
    const r = await this.take(who, 1);
    if (!r.ok) throw this.limited(r.tokens);
  }

  private async take(who: string, cost: number): Promise<{ ok: boolean; tokens: number }> {
    try {
      return await this.store.take(`${this.kind}:${who}`, this.limits, cost);
    } catch (err) {
      this.log.error({ err }, 'rate limiter store unavailable; attempt not throttled');
      return { ok: true, tokens: this.limits.burst };
    }
  }

  private limited(tokens: number): ApiError {
    const retryAfter = Math.max(1, Math.ceil((1 - tokens) / this.limits.perSec));
    return new ApiError('rate_limited', `Too many failed authentication attempts from this address; retry after ${retryAfter} s`, {
      headers: { 'retry-after': String(retryAfter) },
    });
  }
}

/**
 * One kind of action that costs Sangam something whoever asks, limited per subject: reads of the public
 * receipt key per client IP (no key to count against), console test events per endpoint and per
 * account. `burst` at once, then `perMinute`; a 429 with Retry-After past that.
 */
export class ActionLimit {
  private limits: Limits;

  constructor(
    private kind: string,
    limits: { burst: number; perMinute: number },
    private store: BucketStore,
    private log: FastifyBaseLogger,
    /** What the 429 says was too frequent, such as "Test events to this endpoint". */
    private what: string,
  ) {
    this.limits = { perSec: limits.perMinute / 60, burst: limits.burst };
  }

  /** Takes one token for `who`; throws 429 (rate_limited, Retry-After) when none is left. */
  async take(who: string): Promise<void> {
    let r: { ok: boolean; tokens: number };
    try {
      r = await this.store.take(`${this.kind}:${who}`, this.limits);
    } catch (err) {
      this.log.error({ err, kind: this.kind }, 'rate limiter store unavailable; action allowed');
      return;
    }
    if (r.ok) return;
    const retryAfter = Math.max(1, Math.ceil((1 - r.tokens) / this.limits.perSec));
    throw new ApiError('rate_limited', `${this.what}: at most ${this.limits.burst} at once, then ${Math.round(this.limits.perSec * 60)} a minute; retry after ${retryAfter} s`, {
      headers: { 'retry-after': String(retryAfter) },
    });
  }
}
