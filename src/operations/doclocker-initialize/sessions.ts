// Owns document-locker sessions: the client id issued by initialize, the user's decision on the
// consent page, and what a download may do with a given client id.
import type { Db } from '../../db/client.js';
import type { Environment } from '../../db/schema.js';
import type { TransactionStore } from '../../transactions/store.js';

export type SessionState = 'unknown' | 'pending' | 'authorized' | 'denied' | 'expired';

export async function sessionState(db: Db, accountId: string, environment: Environment, clientId: string): Promise<SessionState> {
  const row = await db
    .selectFrom('doclocker_sessions')
    .select(['status', 'expires_at'])
    .where('client_id', '=', clientId)
    .where('account_id', '=', accountId)
    .where('environment', '=', environment)
    .executeTakeFirst();
  if (!row) return 'unknown';
  if (row.status === 'pending' && row.expires_at.getTime() <= Date.now()) return 'expired';
  return row.status;
}

export async function findSession(db: Db, clientId: string) {
  return db.selectFrom('doclocker_sessions').selectAll().where('client_id', '=', clientId).executeTakeFirst();
}

/**
 * Records the user's decision, once, and settles the initialize transaction in the same database
 * transaction. Returns false when the session is unknown, expired or already decided.
 */
export async function decide(db: Db, transactions: TransactionStore, clientId: string, allow: boolean): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('doclocker_sessions')
      .set({ status: allow ? 'authorized' : 'denied', decided_at: new Date() })
      .where('client_id', '=', clientId)
      .where('status', '=', 'pending')
      .where('expires_at', '>', new Date())
      .returning('txn_id')
      .executeTakeFirst();
    if (!row) return false;
    await transactions.settle(trx, row.txn_id, {
      status: allow ? 'success' : 'failed',
      message: allow ? 'The user authorized the document-locker request' : 'The user denied the document-locker request',
      fields: {},
    });
    return true;
  });
}
