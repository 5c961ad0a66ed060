// Owns a pending live transaction's notes (migration 0031): what its end will need from the request
// when that end comes later, from a partner callback or a status enquiry (the caller's `name`, to
// compare with the partner's name_at_bank). Written with the recovery point, sealed (db/sealed.ts,
// the transaction id as associated data), and taken (read and deleted in one statement) when the
// transaction becomes final: a note never outlives its pending.
import type { Transaction } from 'kysely';
import type { Sealer } from '../db/sealed.js';
import type { DB } from '../db/schema.js';

export interface PendingNote {
  accountId: string;
  note: string;
}

export class PendingNotes {
  constructor(private sealer: Sealer) {}

  async put(trx: Transaction<DB>, txnId: string, accountId: string, note: string): Promise<void> {
    await trx.insertInto('pending_notes').values({ txn_id: txnId, account_id: accountId, sealed: this.sealer.seal(txnId, note) }).execute();
  }

  /**
   * The notes of these transactions, deleted as they are read; a transaction without one is absent, and
   * so is one that cannot be opened (sealed under a secret since replaced): an end is never held up by
   * what it would only have added to.
   */
  async take(trx: Transaction<DB>, txnIds: string[]): Promise<Map<string, PendingNote>> {
    if (txnIds.length === 0) return new Map();
    const rows = await trx.deleteFrom('pending_notes').where('txn_id', 'in', txnIds).returning(['txn_id', 'account_id', 'sealed']).execute();
    return new Map(rows.flatMap((r) => (this.opened(r.txn_id, r.sealed) ?? []).map((note) => [r.txn_id, { accountId: r.account_id, note }] as const)));
  }

  private opened(txnId: string, sealed: string): [string] | null {
    try {
      return [this.sealer.open<string>(txnId, sealed)];
    } catch {
      return null;
    }
  }
}
