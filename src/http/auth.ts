// Owns API-key authentication: Bearer parsing, lookup by hash through a short in-process cache, and the
// 401 messages that tell unknown, revoked and expired keys apart. The cache lifetime
// (SANGAM_AUTH_CACHE_MS, at most 1 s) bounds how long a revoked key can still be used. last_used_at is
// collected in memory and written in batches (flushLastUsed), not on every request.
import { timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/client.js';
import type { Environment } from '../db/schema.js';
import { findKeyByHash, hashKey, KEY_PATTERN, touchKeys, type KeyRecord } from '../accounts/store.js';
import { TtlCache } from '../access/ttl-cache.js';
import { ApiError } from '../errors.js';

export interface AuthContext {
  accountId: string;
  keyId: string;
  environment: Environment;
}

export class Authenticator {
  private cache: TtlCache<KeyRecord | undefined>;
  private used = new Map<string, Date>();

  constructor(
    private db: Db,
    cacheMs: number,
  ) {
    this.cache = new TtlCache(cacheMs);
  }

  /** Throws ApiError('unauthenticated') with a message saying what is wrong with the key. */
  async authenticate(header: string | undefined): Promise<AuthContext> {
    if (!header) throw new ApiError('unauthenticated', 'Missing API key: send the header "Authorization: Bearer <key>"');
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw new ApiError('unauthenticated', 'Malformed Authorization header: expected "Bearer <key>"');
    const key = m[1]!;
    if (!KEY_PATTERN.test(key)) throw new ApiError('unauthenticated', 'Invalid API key: keys look like sk_test_… or sk_live_…');
    const hash = hashKey(key);
    const rec = await this.cache.get(hash, () => findKeyByHash(this.db, hash));
    if (!rec || !timingSafeEqual(Buffer.from(rec.key_hash), Buffer.from(hash))) {
      throw new ApiError('unauthenticated', 'Invalid API key: no such key');
    }
    const now = Date.now();
    if (rec.revoked_at && rec.revoked_at.getTime() <= now) throw new ApiError('unauthenticated', 'API key has been revoked');
    if (rec.expires_at && rec.expires_at.getTime() <= now) throw new ApiError('unauthenticated', 'API key has expired');
    this.used.set(rec.id, new Date(now));
    return { accountId: rec.account_id, keyId: rec.id, environment: rec.environment };
  }

  async flushLastUsed(): Promise<void> {
    if (this.used.size === 0) return;
    const batch = this.used;
    this.used = new Map();
    await touchKeys(this.db, batch);
  }
}
