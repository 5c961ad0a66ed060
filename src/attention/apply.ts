// Owns applying a resolution to its transaction, inside the caller's database transaction, after the
// caller has locked the transaction row (TransactionStore.lockFacts): a pending is settled through
// settlement (the hold posted or released, the outbox event, the client's stored answer), a success is
// reversed through settlement (the correcting posting, `transaction.reversed`), and the flag and the
// manual review are cleared. The history gets a `resolution` entry.
//
// Errors: none of its own (the caller checked the action fits the locked row); a store error aborts
// the caller's transaction.
import type { Trx } from '../db/transaction.js';
import type { Settlement } from '../settlement/settlement.js';
import { record } from '../transactions/partner-events.js';
import type { TransactionStore, TxFacts } from '../transactions/store.js';
import type { Resolution } from './resolutions.js';

/** What the client sees of a resolution by hand (data.message, data.reversal_reason): no internal notes. */
export const CLIENT_MESSAGES = {
  success: 'Confirmed with the partner by Sangam operations',
  failed: 'Failed: confirmed with the partner by Sangam operations',
  reversal: 'Reversed: confirmed with the partner by Sangam operations',
} as const;

export interface Effect {
  /** The transaction's status after the resolution. */
  status: TxFacts['status'];
  reversed: boolean;
}

export async function applyResolution(trx: Trx, deps: { settlement: Settlement; transactions: TransactionStore }, tx: TxFacts, r: Resolution, approvedBy: string): Promise<Effect> {
  const { settlement } = deps;
  let effect: Effect = { status: tx.status, reversed: tx.reversed };
  if (r.action === 'success' || r.action === 'failed') {
    const final = { status: r.action, message: CLIENT_MESSAGES[r.action], fields: {} };
    await settlement.settle(trx, { txnId: tx.id, operation: tx.operation, final, partner: tx.partner ?? undefined });
    effect = { ...effect, status: r.action };
  } else if (r.action === 'reversal') {
    await settlement.reverse(trx, tx.id, { reason: CLIENT_MESSAGES.reversal, at: new Date() });
    effect = { ...effect, reversed: true };
  }
  await deps.transactions.clearAttention(trx, tx.id, effect.status === 'pending');
  await record(trx, [
    {
      txnId: tx.id,
      partner: tx.partner,
      kind: 'resolution',
      status: effect.status,
      detail: { resolution_id: r.id, action: r.action, proposed_by: r.proposed_by, approved_by: approvedBy, reversed: effect.reversed || undefined },
    },
  ]);
  return effect;
}
