// Owns a pending live transaction's notes (migration 0031): what its end will need from the request
// when that end comes later, from a partner callback or a status enquiry (the caller's `name`, to
// compare with the partner's name_at_bank). Written with the recovery point, sealed (db/sealed.ts,
// the transaction id as associated data), and taken (read and deleted in one statement) when the
// transaction becomes final: a note never outlives its pending.
import { sql, type RawBuilder, type Transaction } from 'kysely';
import { insertRows, type ColumnTypes } from '../db/recordset.js';
import type { Sealer } from '../db/sealed.js';
import type { DB } from '../db/schema.js';

export interface PendingNote {
  accountId: string;
  note: string;
}

/** A note as stored: sealed for its transaction (PendingNotes.sealed). */
export type SealedNote = {
  txn_id: string;
  account_id: string;
  sealed: string;
};
const NOTE_COLUMNS: ColumnTypes<'pending_notes'> = { txn_id: 'text', account_id: 'text', sealed: 'text' };

/**
 * The INSERT of sealed notes whose transactions pass `kept` (it reads a note's `v.txn_id`), for a
 * statement of the caller's: the recovery point's (operations/recorder.ts).
 */
export const notesInsertion = (notes: SealedNote[], kept: RawBuilder<unknown> = sql`TRUE`): RawBuilder<unknown> => insertRows('pending_notes', NOTE_COLUMNS, notes, kept);

/**
 * The DELETE of the notes of the transactions in `ended` (a set with column `id`), for a statement of
 * the caller's: a lone live outcome made final (operations/live-runner.ts), whose outcome already
 * carries what its note would have added.
 */
export const notesDeletion = (ended: RawBuilder<unknown>): RawBuilder<unknown> => sql`DELETE FROM pending_notes WHERE txn_id IN (SELECT id FROM ${ended})`;

export class PendingNotes {
  constructor(private sealer: Sealer) {}

  /** A note sealed for its transaction, to be written with the recovery point. */
  sealed(txnId: string, accountId: string, note: string): SealedNote {
    return { txn_id: txnId, account_id: accountId, sealed: this.sealer.seal(txnId, note) };
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
