// Owns erasing one reference's personal content everywhere Sangam keeps a copy, while every proof
// stays intact: a data principal's erasure request, passed on by the tenant (POST /api/v1/erasures)
// or by an operator (`sangam audit erase`). In one database transaction:
// - audit rows with that reference: content (client IP, bodies) and salt emptied, erased_at stamped;
//   the content commitment stays in the chain, so `audit verify` still passes (hashing.ts);
// - the transaction's stored result, the stored idempotent answer and the webhook events: the
//   operation's own fields dropped, the money facts kept (status, amounts, UTR, reversal), so the
//   ledger, statements and reconciliation still add up;
// - partner state kept for the transaction (encrypted bodies for a safe replay): deleted;
// - one ADMIN audit row saying who erased what, and how many rows.
// A transaction still pending is refused: its stored request may yet be needed to learn its outcome.
// Rows from before content commitments cannot lose content without breaking their hash: they are
// counted, not touched, and leave with metadata retention.
import { sql } from 'kysely';
import type { Db } from '../db/client.js';
import type { Environment } from '../db/schema.js';
import { inTransaction, type Trx } from '../db/transaction.js';
import { ApiError } from '../errors.js';
import { appendAdminEvent, type Actor } from './admin-events.js';
import { ERASED } from './retention.js';

/** What survives an erasure in a stored result or event: the outcome and the money, never the person. */
const KEPT = new Set([
  'status', 'reference_id', 'verified_at', 'message', 'txn_id', 'utr', 'amount', 'amount_paise', 'fee', 'fee_paise',
  'commission', 'commission_paise', 'operation', 'environment', 'reversed_at', 'reversal_reason', 'Errorcode', 'Status', 'request_id',
]);

export const scrub = (data: unknown, erasedAt: string): Record<string, unknown> => ({
  ...Object.fromEntries(Object.entries(data && typeof data === 'object' ? data : {}).filter(([k]) => KEPT.has(k))),
  erased_at: erasedAt,
});

/** A stored JSON document (an envelope or an event) with its `data` scrubbed. */
function scrubDocument(text: string, erasedAt: string): string {
  try {
    const doc = JSON.parse(text) as Record<string, unknown>;
    return JSON.stringify({ ...doc, data: scrub(doc.data, erasedAt) });
  } catch {
    return JSON.stringify({ data: { erased_at: erasedAt } });
  }
}

export interface Erasure {
  reference_id: string;
  erased_at: string;
  audit_rows_erased: number;
  audit_rows_kept_legacy: number;
  transactions_scrubbed: number;
  webhook_events_scrubbed: number;
}

export function eraseReference(db: Db, who: { accountId: string; environment: Environment; referenceId: string }, actor: Actor): Promise<Erasure> {
  const { accountId, environment, referenceId } = who;
  return inTransaction(db, async (trx) => {
    const txns = await trx
      .selectFrom('transactions')
      .select(['id', 'status', sql<string>`result::text`.as('result')])
      .where('account_id', '=', accountId)
      .where('environment', '=', environment)
      .where('reference_id', '=', referenceId)
      .forUpdate()
      .execute();
    if (txns.some((t) => t.status === 'pending')) {
      throw ApiError.validation([{ field: 'reference_id', message: `the transaction for ${referenceId} is still pending: erase it once it is final` }]);
    }
    const erasedAt = new Date();
    const at = erasedAt.toISOString();
    const audit = await trx
      .updateTable('audit_logs')
      .set({ ...ERASED, erased_at: erasedAt })
      .where('account_id', '=', accountId)
      .where('environment', '=', environment)
      .where('reference_id', '=', referenceId)
      .where('content_hash', 'is not', null)
      .where('erased_at', 'is', null)
      .executeTakeFirst();
    const legacy = await trx
      .selectFrom('audit_logs')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('account_id', '=', accountId)
      .where('environment', '=', environment)
      .where('reference_id', '=', referenceId)
      .where('content_hash', 'is', null)
      .executeTakeFirstOrThrow();

    let events = 0;
    const ids = txns.map((t) => t.id);
    for (const t of txns) {
      await trx
        .updateTable('transactions')
        .set({ result: JSON.stringify(scrub(JSON.parse(t.result), at)), final_result: null })
        .where('id', '=', t.id)
        .execute();
    }
    if (ids.length > 0) {
      const answers = await trx.selectFrom('idempotency_keys').select(['key', 'operation', 'response_body']).where('txn_id', 'in', ids).execute();
      for (const a of answers) {
        if (a.response_body == null) continue;
        await trx
          .updateTable('idempotency_keys')
          .set({ response_body: scrubDocument(a.response_body, at) })
          .where('account_id', '=', accountId)
          .where('environment', '=', environment)
          .where('operation', '=', a.operation)
          .where('key', '=', a.key)
          .execute();
      }
      const evs = await trx.selectFrom('webhook_events').select(['id', 'payload']).where('txn_id', 'in', ids).execute();
      for (const e of evs) await trx.updateTable('webhook_events').set({ payload: scrubDocument(e.payload, at) }).where('id', '=', e.id).execute();
      events = evs.length;
      // Keyed `<purpose>:<txn id>` by each connector.
      await trx.deleteFrom('partner_sessions').where(sql<string>`split_part(key, ':', 2)`, 'in', ids).execute();
    }
    await scrubBatchRows(trx, { accountId, environment, referenceId }, at);
    const result: Erasure = {
      reference_id: referenceId,
      erased_at: at,
      audit_rows_erased: Number(audit.numUpdatedRows),
      audit_rows_kept_legacy: Number(legacy.n),
      transactions_scrubbed: txns.length,
      webhook_events_scrubbed: events,
    };
    await appendAdminEvent(trx, actor, { accountId, environment, action: 'audit erase', detail: { ...result } });
    return result;
  });
}

/**
 * A batch row with this reference (src/batches/) keeps its input to run it and its answer for the
 * results file: once it has run, the input goes and the answer is scrubbed like the transaction's.
 */
async function scrubBatchRows(trx: Trx, s: { accountId: string; environment: Environment; referenceId: string }, at: string): Promise<void> {
  const rows = await trx
    .selectFrom('batch_items as i')
    .innerJoin('batches as b', 'b.id', 'i.batch_id')
    .select(['i.batch_id', 'i.row_no', 'i.result'])
    .where('b.account_id', '=', s.accountId)
    .where('b.environment', '=', s.environment)
    .where('i.reference_id', '=', s.referenceId)
    .where('i.status', 'not in', ['queued', 'running'])
    .execute();
  for (const r of rows) {
    await trx
      .updateTable('batch_items')
      .set({ input: null, result: r.result ? JSON.stringify(scrub(r.result, at)) : null })
      .where('batch_id', '=', r.batch_id)
      .where('row_no', '=', r.row_no)
      .execute();
  }
}
