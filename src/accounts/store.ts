// Owns accounts, API keys and the wallet row: creation, lookup by key hash, top-ups.
// Keys are stored only as SHA-256 hashes (they carry 238 bits of randomness, so a slow hash adds
// nothing); the plaintext is returned once, at creation.
import { createHash } from 'node:crypto';
import type { Db } from '../db/client.js';
import type { Environment } from '../db/schema.js';
import { newId, randomBase62 } from '../ids.js';
import { ApiError } from '../errors.js';
import { inTransaction } from '../db/transaction.js';

export const KEY_PREFIX: Record<Environment, string> = { sandbox: 'sk_test_', live: 'sk_live_' };
export const KEY_PATTERN = /^sk_(test|live)_[0-9A-Za-z]{32,128}$/;
const KEY_RANDOM_LENGTH = 40;

export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

export async function createAccount(db: Db, name: string): Promise<{ id: string }> {
  const id = newId('acct', 16);
  await inTransaction(db, async (trx) => {
    await trx.insertInto('accounts').values({ id, name }).execute();
    await trx.insertInto('wallets').values({ account_id: id }).execute();
  });
  return { id };
}

export async function requireAccount(db: Db, accountId: string): Promise<void> {
  const row = await db.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
  if (!row) throw new ApiError('not_found', `account ${accountId} does not exist`);
}

/** A new key, shown once; `name` is the client's label for it (a rolled key keeps its predecessor's). */
export async function createKey(db: Db, accountId: string, environment: Environment, name: string | null = null): Promise<{ id: string; key: string; name: string | null }> {
  await requireAccount(db, accountId);
  const key = KEY_PREFIX[environment] + randomBase62(KEY_RANDOM_LENGTH);
  const id = newId('key', 16);
  await db
    .insertInto('api_keys')
    .values({ id, account_id: accountId, environment, key_hash: hashKey(key), prefix: KEY_PREFIX[environment], last4: key.slice(-4), name })
    .execute();
  return { id, key, name };
}

export interface KeyRecord {
  id: string;
  account_id: string;
  environment: Environment;
  key_hash: string;
  expires_at: Date | null;
  revoked_at: Date | null;
}

export async function findKeyByHash(db: Db, keyHash: string): Promise<KeyRecord | undefined> {
  return db
    .selectFrom('api_keys')
    .select(['id', 'account_id', 'environment', 'key_hash', 'expires_at', 'revoked_at'])
    .where('key_hash', '=', keyHash)
    .executeTakeFirst();
}

export async function getWallet(db: Db, accountId: string) {
  return db.selectFrom('wallet_balances').select(['balance_paise', 'held_paise']).where('account_id', '=', accountId).executeTakeFirstOrThrow();
}

export interface KeyView {
  id: string;
  name: string | null;
  environment: Environment;
  /** e.g. "sk_test_…Ab3d": the prefix and the last 4 characters, never the secret. */
  display: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  rolled_to: string | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export async function listKeys(db: Db, accountId: string): Promise<KeyView[]> {
  await requireAccount(db, accountId);
  const rows = await db
    .selectFrom('api_keys')
    .select(['id', 'name', 'environment', 'prefix', 'last4', 'created_at', 'expires_at', 'revoked_at', 'last_used_at', 'rolled_to'])
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    environment: r.environment,
    display: `${r.prefix}…${r.last4}`,
    created_at: r.created_at.toISOString(),
    expires_at: iso(r.expires_at),
    revoked_at: iso(r.revoked_at),
    last_used_at: iso(r.last_used_at),
    rolled_to: r.rolled_to,
  }));
}

async function activeKey(db: Db, keyId: string) {
  const row = await db.selectFrom('api_keys').select(['id', 'account_id', 'environment', 'name', 'expires_at', 'revoked_at']).where('id', '=', keyId).executeTakeFirst();
  const now = Date.now();
  if (!row || (row.revoked_at && row.revoked_at.getTime() <= now) || (row.expires_at && row.expires_at.getTime() <= now)) {
    throw new ApiError('not_found', `no active key ${keyId}`);
  }
  return row;
}

/**
 * Issues a new key for the same account and environment; the old one keeps working for `graceS`
 * seconds (0 = stops now). Returns the new key, shown once.
 */
export async function rollKey(db: Db, keyId: string, graceS: number): Promise<{ id: string; key: string; name: string | null; old_key_expires_at: string }> {
  const old = await activeKey(db, keyId);
  const fresh = await createKey(db, old.account_id, old.environment, old.name);
  const until = new Date(Date.now() + graceS * 1000);
  const expires = old.expires_at && old.expires_at < until ? old.expires_at : until;
  await db.updateTable('api_keys').set({ expires_at: expires, rolled_to: fresh.id }).where('id', '=', keyId).execute();
  return { ...fresh, old_key_expires_at: expires.toISOString() };
}

export async function revokeKey(db: Db, keyId: string): Promise<{ id: string; revoked_at: string }> {
  await activeKey(db, keyId);
  const row = await db.updateTable('api_keys').set({ revoked_at: new Date() }).where('id', '=', keyId).returning(['id', 'revoked_at']).executeTakeFirstOrThrow();
  return { id: row.id, revoked_at: row.revoked_at!.toISOString() };
}

export async function keyAccount(db: Db, keyId: string): Promise<{ account_id: string; environment: Environment } | undefined> {
  return db.selectFrom('api_keys').select(['account_id', 'environment']).where('id', '=', keyId).executeTakeFirst();
}

export async function setLimits(db: Db, accountId: string, perSec: number | null, burst: number | null): Promise<void> {
  await requireAccount(db, accountId);
  await db.updateTable('accounts').set({ rate_limit_per_sec: perSec, rate_limit_burst: burst }).where('id', '=', accountId).execute();
}

/** Batch-writes last_used_at: one UPDATE per key per flush instead of a write per request. */
export async function touchKeys(db: Db, used: Map<string, Date>): Promise<void> {
  for (const [id, at] of used) {
    await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)])).execute();
  }
}
