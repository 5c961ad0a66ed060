// Owns the allow-list actions. Adding an entry already there changes nothing and succeeds; removing
// one that is not there is not_found, whoever asks.
import type { Db } from '../../db/client.js';
import type { Environment } from '../../db/schema.js';
import type { Trx } from '../../db/transaction.js';
import { requireAccount } from '../../accounts/store.js';
import { addEntry, AllowlistEntryError, listEntries, parseEntry, removeEntry } from '../../access/allowlist.js';
import { ApiError } from '../../errors.js';
import { adminAction, type Actor } from './run.js';

export interface AllowlistChange {
  accountId: string;
  environment: Environment;
  entry: string;
}

/** The entry's canonical text. Errors: validation (field `entry`). */
function canonical(entry: string): string {
  try {
    return parseEntry(entry).canonical;
  } catch (err) {
    if (err instanceof AllowlistEntryError) throw ApiError.validation([{ field: 'entry', message: err.message }]);
    throw err;
  }
}

async function result(trx: Trx, c: AllowlistChange) {
  return { account: c.accountId, environment: c.environment, entries: await listEntries(trx, c.accountId, c.environment) };
}

/** Errors: validation (entry), not_found (account). Returns the list after the change. */
export function add(db: Db, actor: Actor, c: AllowlistChange) {
  return adminAction(db, actor, async (trx) => {
    const entry = canonical(c.entry);
    await requireAccount(trx, c.accountId);
    await addEntry(trx, c.accountId, c.environment, entry);
    return { result: await result(trx, c), event: { accountId: c.accountId, environment: c.environment, action: 'allowlist add', detail: { entry } } };
  });
}

/** Errors: validation (entry), not_found (account, or the entry is not on the list). */
export function remove(db: Db, actor: Actor, c: AllowlistChange) {
  return adminAction(db, actor, async (trx) => {
    const entry = canonical(c.entry);
    await requireAccount(trx, c.accountId);
    if (!(await removeEntry(trx, c.accountId, c.environment, entry))) throw new ApiError('not_found', `${entry} is not on the allow-list`);
    return { result: await result(trx, c), event: { accountId: c.accountId, environment: c.environment, action: 'allowlist remove', detail: { entry } } };
  });
}

/** Errors: not_found (account). */
export async function list(db: Db, accountId: string, environment: Environment) {
  await requireAccount(db, accountId);
  return { account: accountId, environment, entries: await listEntries(db, accountId, environment) };
}
