// Owns the resolutions table and the rules of a resolution by hand: which action fits a transaction
// as it stands (its facts: TransactionStore.facts / lockFacts), and the resolution rows an approval
// decides on, locked in the one lock order every settlement path keeps — the transaction row first
// (SELECT … FOR UPDATE), then everything else (the resolution row, then wallets through settlement,
// the audit chain last).
//
// Actions: `success` / `failed` settle a live pending (its hold posted or released); `reversal` undoes
// a live success (a correcting posting returns the debit); `dismiss` clears a conflict flag or a manual
// review and moves no money. A failed transaction is never turned into a success: a final state never
// changes (CONTRACT §6); a partner that paid after all is settled with it outside Sangam.
import { SUCCESS_CARRIES_PARTNER_DATA } from '../contract/partner-read.js';
import type { Selectable } from 'kysely';
import type { Db } from '../db/client.js';
import type { Trx } from '../db/transaction.js';
import type { ResolutionAction, ResolutionsTable } from '../db/schema.js';
import type { TxFacts } from '../transactions/store.js';
import { newId } from '../ids.js';

export const ACTIONS: readonly ResolutionAction[] = ['success', 'failed', 'reversal', 'dismiss'];
/** Actions that move money: each waits for a second admin (maker-checker). */
export const MONEY_ACTIONS: readonly ResolutionAction[] = ['success', 'failed', 'reversal'];

export type Resolution = Selectable<ResolutionsTable>;

/** Why `action` cannot apply to the transaction as it now stands; null when it can. */
export function unfit(action: ResolutionAction, tx: TxFacts): string | null {
  switch (action) {
    case 'success':
      if (SUCCESS_CARRIES_PARTNER_DATA.has(tx.operation) && tx.status === 'pending') {
        return `a ${tx.operation} success carries what the partner read, which a person cannot supply: wait for the partner's answer, or mark it failed (a verification still pays its fee) and the client asks again`;
      }
      return unfit('failed', tx);
    case 'failed':
      return tx.status === 'pending' ? null : `the transaction is already ${tx.status}: a final state never changes${tx.status === 'success' ? ' (a reversal undoes a success)' : ''}`;
    case 'reversal':
      if (tx.status !== 'success') return `only a success can be reversed; the transaction is ${tx.status}`;
      return tx.reversed ? 'the transaction is already reversed' : null;
    case 'dismiss':
      return tx.flagged || (tx.status === 'pending' && tx.review_reason) ? null : 'the transaction has no flag and is not in manual review: there is nothing to dismiss';
  }
}

/** The actions that fit the transaction as it stands (what the console offers). */
export const fitting = (tx: TxFacts) => ACTIONS.filter((a) => unfit(a, tx) === null);

export async function openResolution(db: Db, txnId: string): Promise<Resolution | undefined> {
  return db.selectFrom('resolutions').selectAll().where('txn_id', '=', txnId).where('state', '=', 'proposed').executeTakeFirst();
}

export async function getResolution(db: Db, id: string): Promise<Resolution | undefined> {
  return db.selectFrom('resolutions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The resolution row, locked; take the transaction's lock first. */
export async function lockResolution(trx: Trx, id: string): Promise<Resolution | undefined> {
  return trx.selectFrom('resolutions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function resolutionsOf(db: Db, txnId: string): Promise<Resolution[]> {
  return db.selectFrom('resolutions').selectAll().where('txn_id', '=', txnId).orderBy('proposed_at').orderBy('id').execute();
}

/** `by`: the maker's e-mail (what people read); `byUser`: their console user id (what maker-checker compares). */
export async function insertResolution(trx: Trx, r: { txnId: string; action: ResolutionAction; reason: string; evidence: string; by: string; byUser: string }): Promise<Resolution> {
  return trx
    .insertInto('resolutions')
    .values({ id: newId('res', 20), txn_id: r.txnId, action: r.action, reason: r.reason, evidence: r.evidence, state: 'proposed', proposed_by: r.by, proposed_by_user: r.byUser })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Closes a proposal: applied or rejected, by whom, and why (a rejection's reason). */
export async function decide(trx: Trx, id: string, d: { state: 'applied' | 'rejected'; by: string; byUser: string; reason?: string }): Promise<Resolution> {
  return trx
    .updateTable('resolutions')
    .set({ state: d.state, decided_by: d.by, decided_by_user: d.byUser, decided_at: new Date(), decision_reason: d.reason ?? null })
    .where('id', '=', id)
    .where('state', '=', 'proposed')
    .returningAll()
    .executeTakeFirstOrThrow();
}
