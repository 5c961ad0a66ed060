// Owns document-locker sessions: the client id issued by initialize, bound to the account AND
// environment that initialized it; the user's decision on the sandbox consent page; and what a
// download may do with a given client id.
// The client id travels through the end user's browser (it is in authorization_url), so it is not a
// secret: holding it proves nothing. Only the binding stored here decides who may download with it.
// In live the row binds a partner-issued id to its owner; the partner keeps the consent state itself,
// so a live row's status stays as written.
import type { Transaction } from 'kysely';
import type { Db } from '../../db/client.js';
import type { DB, Environment } from '../../db/schema.js';
import type { TransactionStore } from '../../transactions/store.js';

/** Where the sandbox's authorization_url points: the sandbox consent page (src/routes/sandbox/doclocker/authorize.ts). */
export const CONSENT_PATH = '/sandbox/doclocker/authorize/';

export type SessionState = 'unknown' | 'pending' | 'authorized' | 'denied' | 'expired';

export interface NewSession {
  clientId: string;
  accountId: string;
  environment: Environment;
  referenceId: string;
  txnId: string;
  redirectUrl: string | null;
  expiresAt: Date;
}

/**
 * Binds a client id to its owner, inside the transaction that records the initialize answer. An id
 * already bound (a partner repeating one) keeps its first owner: anyone else is refused on download.
 */
export async function recordSession(trx: Transaction<DB>, s: NewSession): Promise<void> {
  await trx
    .insertInto('doclocker_sessions')
    .values({
      client_id: s.clientId,
      account_id: s.accountId,
      environment: s.environment,
      reference_id: s.referenceId,
      txn_id: s.txnId,
      status: 'pending',
      redirect_url: s.redirectUrl,
      expires_at: s.expiresAt,
    })
    .onConflict((oc) => oc.column('client_id').doNothing())
    .execute();
}

/**
 * Who may use a client id: 'mine' (issued to this account in this environment), 'foreign' (issued by
 * initialize to another account, or to this account's other environment) or 'unknown' (issued by
 * nobody here).
 */
export async function clientIdOwner(db: Db, accountId: string, environment: Environment, clientId: string): Promise<'mine' | 'foreign' | 'unknown'> {
  const row = await db.selectFrom('doclocker_sessions').select(['account_id', 'environment']).where('client_id', '=', clientId).executeTakeFirst();
  if (!row) return 'unknown';
  return row.account_id === accountId && row.environment === environment ? 'mine' : 'foreign';
}

/** The consent state of the caller's own session; 'unknown' for an id it does not own. */
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
      .where('environment', '=', 'sandbox') // a live session's consent is the partner's
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
