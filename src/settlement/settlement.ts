// Owns the one place a pending live transaction becomes final, and a final success is reversed:
// the state change, its money effect (post or void the hold; a correcting posting for a reversal), the
// outbox event and the stored response of the idempotency key bound to it, in the caller's database
// transaction, exactly once. The live route (phase 3), partner callbacks, the reconciler and the
// reversal watch all call it; it depends on stores only — an operation's money rule and a partner's
// reversal-watch schedule come in as policies.
//
// Every path decides on the transaction row as it is after taking its lock, and takes its locks in one
// order: the transaction rows (by id), then holds and wallets (by account), then idempotency keys, the
// outbox and the audit chain (docs/RELIABILITY.md, "Lock order"). So a reversal is posted exactly once
// whichever of a webhook, an enquiry or the request path sees it first, a callback that repeats the
// final outcome is not a conflict, and the settlement paths cannot deadlock one another.
//
// Errors: none of its own; a store error aborts the caller's transaction.
import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Db } from '../db/client.js';
import type { DB } from '../db/schema.js';
import { resultEnvelope } from '../http/envelope.js';
import type { IdempotencyStore } from '../idempotency/store.js';
import { post, resolvedCtes, reverse, voidHold } from '../ledger/ledger.js';
import type { FinalOutcome, PartnerReport, Reversal } from '../providers/connector.js';
import type { LockedTx, RecoveryPoint, SettleItem, TransactionStore, TxRow } from '../transactions/store.js';
import { notesDeletion, type PendingNotes } from '../transactions/notes.js';
import { enqueueReversal } from '../webhooks/store.js';
import * as partnerHistory from '../transactions/partner-events.js';

export interface SettlementPolicy {
  /**
   * When a live call is paid for: 'completion' (verifications: the check was done, whatever it found)
   * or 'success' (payments and recharges: a failed one costs nothing).
   */
  charge: 'completion' | 'success';
  /** Removes what the client sees but the store must not keep (identity photos). */
  strip?: (data: Record<string, unknown>) => Record<string, unknown>;
  /**
   * What the operation adds to its partner's final outcome from the note its recovery point kept
   * (transactions/notes.ts): the name match of a verification whose end came after its answer left.
   * It reads through `trx` only (the embedded store has one connection, held by this transaction). It
   * adds nothing to an outcome the operation's own execute made final (that one compared already), so
   * the request path's lone outcome only deletes the note (settleCtes).
   */
  finish?: (trx: Transaction<DB>, final: FinalOutcome, note: string, accountId: string) => Promise<FinalOutcome>;
}

export interface Settle {
  txnId: string;
  operation: string;
  final: FinalOutcome;
  /** The partner that answered, recorded on the transaction. */
  partner?: string;
  /** Its own id for the transaction, recorded when none is yet. */
  partnerRef?: string;
}

export type ReportResult = 'settled' | 'reversed' | 'duplicate' | 'not_final' | 'already_final' | 'conflict' | 'mismatch' | 'unknown_transaction';

/**
 * When to ask a partner again about a success it can still undo: seconds after the success, one
 * enquiry each; null when the partner's status cannot show a reversal (or it holds nothing undoable).
 */
export type WatchPolicy = (partner: string | undefined, operation: string) => readonly number[] | null;

export class Settlement {
  constructor(
    private db: Db,
    private transactions: TransactionStore,
    private idempotency: IdempotencyStore,
    private policy: (operation: string) => SettlementPolicy,
    readonly watch: WatchPolicy = () => null,
    private notes: PendingNotes | null = null,
  ) {}

  /**
   * Moves pending live transactions to their final states with their money effects, in a fixed number
   * of statements however many there are. Answers the settled rows by id; a transaction that was
   * already final is absent (nothing about it changes).
   */
  async settleMany(trx: Transaction<DB>, given: Settle[]): Promise<Map<string, TxRow>> {
    const items = await this.finished(trx, given);
    const rows = await this.transactions.settleMany(trx, items.map((s) => this.item(s)));
    const settled = items.filter((s) => rows.has(s.txnId));
    await post(trx, ...settled.filter((s) => this.pays(s)).map((s) => s.txnId));
    await voidHold(trx, ...settled.filter((s) => !this.pays(s)).map((s) => s.txnId));
    return rows;
  }

  /** What the transaction store settles for `s`: the operation's strip, the partner's first reversal watch. */
  private item(s: Settle): SettleItem {
    return { id: s.txnId, final: s.final, strip: this.policy(s.operation).strip, partner: s.partner, partnerRef: s.partnerRef, watchFirstS: this.watch(s.partner, s.operation)?.[0] };
  }

  /** Whether its hold is posted (paid for) or voided, by the operation's charging rule. */
  private pays(s: Settle): boolean {
    return s.final.status === 'success' || this.policy(s.operation).charge === 'completion';
  }

  /**
   * settleMany() for one live outcome of the request path, as CTEs of a statement that runs alone
   * (operations/live-runner.ts): the settling UPDATE (`outcome_row`, empty unless the row is still as its
   * recovery point left it: transactions/store.ts settledCtes), its event, its hold posted or voided,
   * and its note deleted (the operation's own execute already added what `finish` would). Answers the
   * row as the statement leaves it.
   */
  settleCtes(before: RecoveryPoint, s: Settle): { row: TxRow; ctes: RawBuilder<unknown> } {
    const { row, ctes } = this.transactions.settledCtes(before, this.item(s));
    const notes = this.policy(s.operation).finish ? sql`, notes_taken AS (${notesDeletion(sql`outcome_row`)})` : sql``;
    // The hold by its key (a plan that cannot turn into a scan of every hold), and only with the row.
    const hold = sql`txn_id = ${s.txnId} AND EXISTS (SELECT 1 FROM outcome_row)`;
    return { row, ctes: sql`${ctes}, ${resolvedCtes(this.pays(s) ? 'posted' : 'voided', hold)}${notes}` };
  }

  /**
   * The items with what their operations add from their notes (taken: a note ends with its pending).
   * Only operations that keep notes cost a statement.
   */
  private async finished(trx: Transaction<DB>, items: Settle[]): Promise<Settle[]> {
    const finishing = items.filter((s) => this.policy(s.operation).finish);
    if (!this.notes || finishing.length === 0) return items;
    const notes = await this.notes.take(trx, finishing.map((s) => s.txnId));
    if (notes.size === 0) return items;
    return Promise.all(
      items.map(async (s) => {
        const kept = notes.get(s.txnId);
        return kept ? { ...s, final: await this.policy(s.operation).finish!(trx, s.final, kept.note, kept.accountId) } : s;
      }),
    );
  }

  /**
   * settleMany() for one transaction, and the idempotency key bound to it completed with the final
   * answer. Returns the settled row, or undefined when it was already final.
   */
  async settle(trx: Transaction<DB>, s: Settle): Promise<TxRow | undefined> {
    const row = (await this.settleMany(trx, [s])).get(s.txnId);
    if (row) await this.idempotency.completeBound(trx, [{ txnId: s.txnId, body: JSON.stringify(resultEnvelope(row.status, s.final.message, row.result, s.txnId)), force: false }]);
    return row;
  }

  /**
   * A failure before any outcome (the partner refused or was never reached): failed, hold released,
   * never charged whatever the operation's charging rule. The key bound to it answers the failure from
   * now on, unless `answerKey` is false (the request path frees its key for a retry instead).
   */
  async failUnsent(trx: Transaction<DB>, txnId: string, operation: string, message: string, answerKey = true): Promise<TxRow | undefined> {
    const rows = await this.transactions.settleMany(trx, [{ id: txnId, final: { status: 'failed', message, fields: {} }, strip: this.policy(operation).strip }]);
    await this.notes?.take(trx, [txnId]);
    const row = rows.get(txnId);
    if (row) {
      await voidHold(trx, txnId);
      if (answerKey) await this.idempotency.completeBound(trx, [{ txnId, body: JSON.stringify(resultEnvelope(row.status, message, row.result, txnId)), force: false }]);
    }
    return row;
  }

  /**
   * A success undone after the fact (a processed payout reversed, a recharge refunded): a correcting
   * posting that returns the debit (and takes back the commission), the reversal shown on the
   * transaction, and a `transaction.reversed` event. The status stays success — a final state never
   * changes (CONTRACT §6) — and `data.reversed_at` / `data.reversal_reason` say what happened. Once only.
   */
  async reverse(trx: Transaction<DB>, txnId: string, reversal: Reversal): Promise<boolean> {
    const row = await this.transactions.markReversed(trx, txnId, reversal);
    if (!row) return false;
    await reverse(trx, txnId, reversal.reason);
    await enqueueReversal(trx, row);
    return true;
  }

  /**
   * Applies what a partner reported (a callback, or a status enquiry when `eventId` is null): finds
   * the transaction (our id, or the partner's reference at that partner), then settles, reverses, or
   * records a disagreement with a final state as a flag for review (the state never changes). A repeated
   * event id is dropped.
   */
  async apply(report: PartnerReport, partner: string, eventId: string | null): Promise<ReportResult> {
    return this.db.transaction().execute(async (trx) => {
      const webhookId = eventId === null ? null : `${partner}:${eventId}`;
      if (webhookId) {
        const fresh = await trx
          .insertInto('partner_callbacks')
          .values({ webhook_id: webhookId, txn_id: report.txnId, status: report.outcome.status, outcome: 'received' })
          .onConflict((oc) => oc.doNothing())
          .returning('webhook_id')
          .executeTakeFirst();
        if (!fresh) {
          // A redelivery: acknowledged and dropped, unless the first was refused — it still is.
          const first = await trx.selectFrom('partner_callbacks').select('outcome').where('webhook_id', '=', webhookId).executeTakeFirst();
          return first?.outcome === 'mismatch' ? 'mismatch' : 'duplicate';
        }
      }
      const result = await this.applyIn(trx, report, partner);
      if (webhookId) await partnerHistory.record(trx, [partnerHistory.callback(report, partner, webhookId, result)]); // the partner history (transactions/partner-events.ts)
      if (webhookId) await trx.updateTable('partner_callbacks').set({ outcome: result }).where('webhook_id', '=', webhookId).execute();
      return result;
    });
  }

  private async applyIn(trx: Transaction<DB>, report: PartnerReport, partner: string): Promise<ReportResult> {
    const tx = await this.transactions.lockFor(trx, { txnId: report.txnId, partner, partnerRef: report.partnerRef });
    if (!tx || tx.environment !== 'live') return 'unknown_transaction';
    const mismatch = await this.mismatch(trx, tx, report, partner);
    if (mismatch) {
      await this.transactions.flag(trx, tx.id, mismatch);
      return 'mismatch';
    }
    if (report.partnerRef && !tx.partner_ref) await this.transactions.setPartnerRef(trx, tx.id, partner, report.partnerRef);
    const { outcome } = report;
    if (outcome.status === 'pending') return 'not_final';
    const final = outcome as FinalOutcome;
    if (tx.status === 'pending') {
      await this.settle(trx, { txnId: tx.id, operation: tx.operation, final, partner });
      if (report.reversal && final.status === 'success') await this.reverse(trx, tx.id, report.reversal);
      return 'settled';
    }
    if (report.reversal) {
      // A reversal of a success undoes it; of a failure there is nothing left to return.
      if (tx.status === 'success') return (await this.reverse(trx, tx.id, report.reversal)) ? 'reversed' : 'already_final';
      return 'already_final';
    }
    if (tx.status === final.status) return 'already_final';
    await this.transactions.flag(trx, tx.id, `partner ${partner} reported ${final.status} after the transaction was final (${tx.status})`);
    return 'conflict';
  }

  /**
   * Why a report cannot be about this transaction, or null: an event is matched by the partner's own
   * id at the partner that holds the transaction. A transaction another partner holds, a partner id
   * other than the one it recorded, or a partner id that already belongs to another transaction, is
   * refused (and flagged), never applied.
   */
  private async mismatch(trx: Transaction<DB>, tx: LockedTx, report: PartnerReport, partner: string): Promise<string | null> {
    const says = `partner ${partner} sent a report for ${report.partnerRef ?? 'no id of its own'} naming this transaction`;
    if (tx.partner && tx.partner !== partner) return `${says}, which ${tx.partner} holds: refused`;
    if (!report.partnerRef) return null;
    if (tx.partner_ref && tx.partner_ref !== report.partnerRef) return `${says}, whose own id there is ${tx.partner_ref}: refused`;
    const holder = tx.partner_ref ? undefined : await this.transactions.holderOf(trx, partner, report.partnerRef, tx.id);
    return holder ? `${says}, but that id belongs to ${holder}: refused` : null;
  }
}
