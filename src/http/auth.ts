// Owns API-key authentication: Bearer parsing, lookup by hash with a short in-process cache, and the
// 401 messages that tell unknown, revoked and expired keys apart. The cache lifetime
// (SANGAM_AUTH_CACHE_MS, at most 1 s) bounds how long a revoked key can still be used.
import { timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/client.js';
import type { Environment } from '../db/schema.js';
import { findKeyByHash, hashKey, KEY_PATTERN, type KeyRecord } from '../accounts/store.js';
import { ApiError } from '../errors.js';

export interface AuthContext {
  accountId: string;
  keyId: string;
  environment: Environment;
}

const MAX_CACHED = 10_000;

export class Authenticator {
  private cache = new Map<string, { rec: KeyRecord; at: number }>();

  constructor(
    private db: Db,
    private cacheMs: number,
  ) {}

  /** Throws ApiError('unauthenticated') with a message saying what is wrong with the key. */
  async authenticate(header: string | undefined): Promise<AuthContext> {
    if (!header) throw new ApiError('unauthenticated', 'Missing API key: send the header "Authorization: Bearer <key>"');
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw new ApiError('unauthenticated', 'Malformed Authorization header: expected "Bearer <key>"');
    const key = m[1]!;
    if (!KEY_PATTERN.test(key)) throw new ApiError('unauthenticated', 'Invalid API key: keys look like sk_test_… or sk_live_…');
    const hash = hashKey(key);
    const rec = await this.lookup(hash);
    if (!rec || !timingSafeEqual(Buffer.from(rec.key_hash), Buffer.from(hash))) {
      throw new ApiError('unauthenticated', 'Invalid API key: no such key');
    }
    const now = Date.now();
    if (rec.revoked_at && rec.revoked_at.getTime() <= now) throw new ApiError('unauthenticated', 'API key has been revoked');
    if (rec.expires_at && rec.expires_at.getTime() <= now) throw new ApiError('unauthenticated', 'API key has expired');
    return { accountId: rec.account_id, keyId: rec.id, environment: rec.environment };
  }

  private async lookup(hash: string): Promise<KeyRecord | undefined> {
    const now = Date.now();
    const hit = this.cache.get(hash);
    if (hit && now - hit.at < this.cacheMs) return hit.rec;
    const rec = await findKeyByHash(this.db, hash);
    if (rec && this.cacheMs > 0) {
      if (this.cache.size >= MAX_CACHED) this.cache.clear();
      this.cache.set(hash, { rec, at: now });
    } else this.cache.delete(hash);
    return rec;
  }
}
