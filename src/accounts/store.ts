// Owns accounts, API keys and the wallet row: creation, lookup by key hash, top-ups.
// Keys are stored only as SHA-256 hashes (they carry 238 bits of randomness, so a slow hash adds
// nothing); the plaintext is returned once, at creation.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/client.js';
import type { Environment } from '../db/schema.js';
import { newId, randomBase62 } from '../ids.js';
import { ApiError } from '../errors.js';

export const KEY_PREFIX: Record<Environment, string> = { sandbox: 'sk_test_', live: 'sk_live_' };
export const KEY_PATTERN = /^sk_(test|live)_[0-9A-Za-z]{32,128}$/;
const KEY_RANDOM_LENGTH = 40;

export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

export async function createAccount(db: Db, name: string): Promise<{ id: string }> {
  const id = newId('acct', 16);
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('accounts').values({ id, name }).execute();
    await trx.insertInto('wallets').values({ account_id: id }).execute();
  });
  return { id };
}

export async function requireAccount(db: Db, accountId: string): Promise<void> {
  const row = await db.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
  if (!row) throw new ApiError('not_found', `account ${accountId} does not exist`);
}

export async function createKey(db: Db, accountId: string, environment: Environment): Promise<{ id: string; key: string }> {
  await requireAccount(db, accountId);
  const key = KEY_PREFIX[environment] + randomBase62(KEY_RANDOM_LENGTH);
  const id = newId('key', 16);
  await db
    .insertInto('api_keys')
    .values({ id, account_id: accountId, environment, key_hash: hashKey(key), prefix: KEY_PREFIX[environment], last4: key.slice(-4) })
    .execute();
  return { id, key };
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
  return db.selectFrom('wallets').select(['balance_paise', 'held_paise']).where('account_id', '=', accountId).executeTakeFirstOrThrow();
}

/** Credits the wallet and writes the entry in one transaction; returns the new balance in paise. */
export async function topUp(db: Db, accountId: string, amountPaise: number, memo: string | null = null): Promise<number> {
  if (!Number.isSafeInteger(amountPaise) || amountPaise <= 0) throw new ApiError('validation', 'amount must be greater than 0');
  await requireAccount(db, accountId);
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('wallets')
      .set({ balance_paise: sql`balance_paise + ${amountPaise}`, updated_at: sql`now()` })
      .where('account_id', '=', accountId)
      .returning('balance_paise')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('wallet_entries')
      .values({ account_id: accountId, kind: 'topup', amount_paise: amountPaise, balance_after: row.balance_paise, memo })
      .execute();
    return row.balance_paise;
  });
}
