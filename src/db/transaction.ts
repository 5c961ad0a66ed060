// Owns joining a caller's transaction: store functions that need several statements to be atomic run
// inside the caller's transaction when given one (so an admin action can hold the change and its audit
// row together), and open their own otherwise. Kysely refuses to nest transactions.
import type { Transaction } from 'kysely';
import type { Db } from './client.js';
import type { DB } from './schema.js';

export type Trx = Transaction<DB>;

export function inTransaction<T>(db: Db, fn: (trx: Trx) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db as Trx) : db.transaction().execute(fn);
}
