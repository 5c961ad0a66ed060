// Owns erasing one reference's personal content everywhere Sangam keeps a copy, while every proof
// stays intact: a data principal's erasure request, passed on by the tenant (POST /api/v1/erasures)
// or by an operator (`sangam audit erase`). In one database transaction:
// - audit rows with that reference: content (client IP, bodies) and salt emptied, erased_at stamped;
//   the content commitment stays in the chain, so `audit verify` still passes (audit/hashing.ts);
// - the transaction's stored result, the stored idempotent answer and the webhook events: the
//   operation's own fields dropped, the money facts kept (status, amounts, UTR, reversal), so the
//   ledger, statements and reconciliation still add up;
// - partner state kept for the transaction (encrypted bodies for a safe replay), and its pending notes:
//   deleted, except the records a partner's later refund is matched and credited against (a Setu
//   recharge's or DTH payment's, providers/registry.ts KEPT_FOR_REFUNDS): without them the refund of a
//   recharge would never reach the wallet. They stay encrypted, and expire a week after they were written;
// - batch rows with that reference that have run: their input dropped, their answer scrubbed alike;
// - one ADMIN audit row saying who erased what, and how many rows.
// A transaction still pending is refused: its stored request may yet be needed to learn its outcome.
// Rows from before content commitments cannot lose content without breaking their hash: they are
// counted, not touched, and leave with metadata retention. It sits with the admin actions, above the
// rooms whose rows it rewrites (audit, transactions, idempotency, webhooks, partner sessions).
import { sql } from 'kysely';
import type { Db } from '../db/client.js';
import type { Environment } from '../db/schema.js';
import { inTransaction, type Trx } from '../db/transaction.js';
import { ApiError } from '../errors.js';
import { appendAdminEvent, type Actor } from '../audit/admin-events.js';
import { ERASED } from '../audit/retention.js';
import { KEPT_FOR_REFUNDS } from '../providers/registry.js';
import { TransactionStore } from './store.js';

/** What survives an erasure in a stored result or event: the outcome and the money, never the person. */
export const KEPT: ReadonlySet<string> = new Set([
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

type Who = { accountId: string; environment: Environment; referenceId: string };

/**
 * Erases one reference's content, in one database transaction (see the module header). Errors:
 * validation (`reference_id`: a transaction of it is still pending).
 */
export function eraseReference(db: Db, who: Who, actor: Actor): Promise<Erasure> {
  const transactions = new TransactionStore(db);
  return inTransaction(db, async (trx) => {
    const txns = await transactions.lockByReference(trx, who);
    if (txns.some((t) => t.status === 'pending')) {
      throw ApiError.validation([{ field: 'reference_id', message: `the transaction for ${who.referenceId} is still pending: erase it once it is final` }]);
    }
    const erasedAt = new Date();
    const at = erasedAt.toISOString();
    const audit = await eraseAuditContent(trx, who, erasedAt);
    for (const t of txns) await transactions.replaceResult(trx, t.id, scrub(JSON.parse(t.result), at));
    const events = await scrubCopies(trx, who, txns.map((t) => t.id), at);
    await scrubBatchRows(trx, who, at);
    const result: Erasure = {
      reference_id: who.referenceId,
      erased_at: at,
      audit_rows_erased: audit.erased,
      audit_rows_kept_legacy: audit.legacy,
      transactions_scrubbed: txns.length,
      webhook_events_scrubbed: events,
    };
    await appendAdminEvent(trx, actor, { accountId: who.accountId, environment: who.environment, action: 'audit erase', detail: { ...result } });
    return result;
  });
}

/** Empties the content of the reference's audit rows (commitments stay); counts the legacy rows it cannot. */
async function eraseAuditContent(trx: Trx, who: Who, erasedAt: Date): Promise<{ erased: number; legacy: number }> {
  const erased = await trx
    .updateTable('audit_logs')
    .set({ ...ERASED, erased_at: erasedAt })
    .where('account_id', '=', who.accountId)
    .where('environment', '=', who.environment)
    .where('reference_id', '=', who.referenceId)
    .where('content_hash', 'is not', null)
    .where('erased_at', 'is', null)
    .executeTakeFirst();
  const legacy = await trx
    .selectFrom('audit_logs')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', who.accountId)
    .where('environment', '=', who.environment)
    .where('reference_id', '=', who.referenceId)
    .where('content_hash', 'is', null)
    .executeTakeFirstOrThrow();
  return { erased: Number(erased.numUpdatedRows), legacy: Number(legacy.n) };
}

/**
 * The other copies of the transactions' content: their stored idempotent answers and webhook events
 * scrubbed, the connectors' stored state deleted. Returns how many webhook events were scrubbed.
 */
async function scrubCopies(trx: Trx, who: Who, ids: string[], at: string): Promise<number> {
  if (ids.length === 0) return 0;
  const answers = await trx.selectFrom('idempotency_keys').select(['key', 'operation', 'response_body']).where('txn_id', 'in', ids).execute();
  for (const a of answers) {
    if (a.response_body == null) continue;
    await trx
      .updateTable('idempotency_keys')
      .set({ response_body: scrubDocument(a.response_body, at) })
      .where('account_id', '=', who.accountId)
      .where('environment', '=', who.environment)
      .where('operation', '=', a.operation)
      .where('key', '=', a.key)
      .execute();
  }
  const events = await trx.selectFrom('webhook_events').select(['id', 'payload']).where('txn_id', 'in', ids).execute();
  for (const e of events) await trx.updateTable('webhook_events').set({ payload: scrubDocument(e.payload, at) }).where('id', '=', e.id).execute();
  // Keyed `<purpose>:<txn id>` by each connector; what a refund needs stays (see the module header).
  await trx
    .deleteFrom('partner_sessions')
    .where(sql<string>`split_part(key, ':', 2)`, 'in', ids)
    .where(sql<string>`split_part(key, ':', 1)`, 'not in', [...KEPT_FOR_REFUNDS])
    .execute();
  // A pending's kept name (transactions/notes.ts): its later end then carries no name match.
  await trx.deleteFrom('pending_notes').where('txn_id', 'in', ids).execute();
  return events.length;
}

/**
 * A batch row with this reference (src/batches/) keeps its input to run it and its answer for the
 * results file: once it has run, the input goes and the answer is scrubbed like the transaction's.
 */
async function scrubBatchRows(trx: Trx, who: Who, at: string): Promise<void> {
  const rows = await trx
    .selectFrom('batch_items as i')
    .innerJoin('batches as b', 'b.id', 'i.batch_id')
    .select(['i.batch_id', 'i.row_no', 'i.result'])
    .where('b.account_id', '=', who.accountId)
    .where('b.environment', '=', who.environment)
    .where('i.reference_id', '=', who.referenceId)
    .where('i.status', '<>', 'queued')
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
