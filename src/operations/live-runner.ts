// Owns a live call from start to finish, with its idempotency key from claim to completion: the money
// path in Stripe's "atomic phases":
//   1. recovery point, one database transaction: the pending transaction row, the hold on the wallet
//      (402 if the balance is short) and the idempotency key claimed and bound to the transaction,
//      group-committed with concurrent requests (recorder.ts);
//   2. the partner call, alone, outside any database transaction;
//   3. the outcome, its ledger effect (post or void the hold), the stored response and the audit row,
//      group-committed with concurrent requests: a batch in one database transaction, and a lone
//      outcome (every call on a quiet server) in one statement with no transaction around it.
// A crash between phases leaves a pending transaction with its hold, bound to the idempotency key. A
// retry with that key never sends it again (a different partner might execute it twice): it answers
// the transaction as it stands, and reconciliation asks the partners what became of it.
// The state change and its money effect are settlement's (settlement/settlement.ts), the one place a
// pending live transaction becomes final, here and from partner callbacks and status enquiries.
import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Db } from '../db/client.js';
import { GroupCommit } from '../db/group-commit.js';
import { preparedIf } from '../db/prepared.js';
import { chainedCtes, insertChained, prepareChained, type AuditRow } from '../audit/chain.js';
import { answeredRow } from '../audit/row.js';
import type { DB } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { resultEnvelope } from '../http/envelope.js';
import type { BoundAnswer, IdemScope } from '../idempotency/store.js';
import { moneyFields } from '../providers/answer.js';
import { PartnerError, type FinalOutcome, type Outcome } from '../providers/connector.js';
import type { PendingUpdate, RecoveryPoint, TransactionStore, TxRow } from '../transactions/store.js';
import type { Settle, Settlement } from '../settlement/settlement.js';
import type { Pricing } from '../ledger/pricing.js';
import type { RoutedOutcome } from '../providers/router.js';
import { executeOperation, type OperationConnector, type OperationContext, type OperationDef } from './operation.js';
import type { Recording } from './recorder.js';
import { recordClaimed, replayed, type Answer, type Call, type ClaimDeps, type Runner } from './runner.js';
import * as partnerHistory from '../transactions/partner-events.js';
import type { PendingNotes } from '../transactions/notes.js';

/** What the live path reads and writes beyond the call itself. */
export interface LiveDeps extends ClaimDeps {
  db: Db;
  transactions: TransactionStore;
  settlement: Settlement;
  pricing: Pricing;
  /** The live partners, or null when this server has none configured. */
  partners: (OperationConnector & { polling(partner: string): { firstS: number } | null }) | null;
  /** What a pending's later end needs from its request, kept sealed from the recovery point. */
  notes: PendingNotes;
  /** The reconciler's first enquiry after the recovery point, in seconds. */
  firstCheckS: number;
  /** True when SANGAM_RECONCILE_SCHEDULE was set: it then overrides each partner's polling etiquette. */
  scheduleExplicit: boolean;
}

export interface LiveOutcome {
  def: OperationDef;
  ctx: Pick<OperationContext, 'txnId' | 'requestId' | 'withAnswer'>;
  scope: IdemScope | null;
  outcome: Outcome;
  /** The request's audit row, made from the answer, stored in the same transaction. */
  audit: (body: string) => AuditRow;
  /**
   * The transaction as the recovery point recorded it, and its result as stored (what the lone path
   * checks the row against); null when not known (the outcome takes its transaction's path).
   */
  before: RecoveryPoint | null;
}
export interface LiveAnswer {
  row: TxRow;
  message: string;
  body: string;
}

/** The answer a client gets for a live transaction as it now stands. */
function currentAnswer(row: TxRow, requestId: string) {
  const message = String(row.result.message ?? '');
  return { row, message, body: JSON.stringify(resultEnvelope(row.status, message, row.result, requestId)) };
}

/** The fields of an outcome its operation derived itself (OperationDef.own), as stored. */
function ownFields({ def, outcome }: LiveOutcome): Record<string, unknown> {
  const own = Object.fromEntries((def.own ?? []).flatMap((f) => (outcome.fields[f] === undefined ? [] : [[f, outcome.fields[f]]])));
  return def.unstored ? def.unstored.strip(own) : own;
}

/** The partner that answered an outcome and its own id for the transaction (only with a partner). */
function routedOf(outcome: Outcome): { partner?: string; partnerRef?: string } {
  const partner = (outcome as RoutedOutcome).partner;
  return { partner, partnerRef: partner ? outcome.partnerRef : undefined };
}

/** A final outcome as settlement settles it, with its partner's reference. */
const settleOf = ({ def, ctx, outcome }: LiveOutcome): Settle => ({ operation: def.slug, txnId: ctx.txnId, final: outcome as FinalOutcome, ...routedOf(outcome) });

export class LiveRunner implements Runner {
  /**
   * Phase 3, group-committed: the outcomes of concurrent live requests (state changes, money effects,
   * stored responses) and their audit rows, in one database transaction and a fixed number of
   * statements.
   */
  readonly outcomes: GroupCommit<LiveOutcome, LiveAnswer>;

  constructor(private deps: LiveDeps) {
    this.outcomes = new GroupCommit(async (items) => {
      const lone = items.length === 1 ? await this.alone(items[0]!) : null;
      if (lone) return [lone];
      return deps.db.transaction().execute(async (trx) => {
        const { answers, writes } = await this.applyOutcomes(trx, items);
        // The partner history and the stored answers go in with the audit rows: one statement.
        await insertChained(trx, items.map((item, i) => item.audit(answers[i]!.body)), writes);
        return answers;
      });
    });
  }

  connector(def: OperationDef): OperationConnector {
    const { partners } = this.deps;
    if (partners) return partners;
    return {
      execute: () =>
        Promise.reject(new ApiError('partner_failed', `No live partner network is configured on this server for ${def.slug}; nothing was executed or debited`)),
    };
  }

  async run(call: Call): Promise<Answer> {
    const recording = await this.recoveryPoint(call);
    const t0 = performance.now();
    const recorded = await recordClaimed(this.deps, call, recording);
    call.ctx.timing?.add('record', performance.now() - t0);
    if (recorded.kind === 'replay') return replayed(call, recorded);
    if (recorded.kind === 'claimed') {
      call.ctx.txnId = recorded.txnId!; // a crashed attempt's transaction: answer it, never start a second one
      return { status: 200, body: await this.resume(call), replayed: false, audited: false };
    }
    const answer = await this.send(call, { row: recorded.row, stored: recorded.stored });
    // No outcome: the partner's own end came first and its refusal is not believed (send).
    if (!answer) return { status: 200, body: await this.resume(call), replayed: false, audited: false };
    return { status: 200, body: answer.body, replayed: false, audited: true };
  }

  /**
   * Phase 1, the recovery point, as a Recording for the group commit (recorder.ts): the pending
   * transaction, its hold on the wallet (402 if the balance is short) and the idempotency key in flight,
   * bound to the transaction.
   */
  private async recoveryPoint({ def, input, ctx, key, reserve }: Call): Promise<Recording> {
    const principalPaise = def.amountPaise?.(input) ?? 0;
    const commissionPaise = def.commissionPaise?.(input) ?? 0;
    const feePaise = await this.deps.pricing.fee(def.slug);
    const note = def.later?.keep(input) ?? null;
    // A batch row's reserve is taken over by its hold in this same transaction (recorder: before the holds).
    // The operation's own writes with its record follow (a consent's use: consents/gate.ts).
    const afterRecord = [...(reserve ? [(trx: Transaction<DB>) => reserve.take(trx)] : []), ...ctx.afterRecord];
    return {
      tx: {
        id: ctx.txnId,
        accountId: ctx.accountId,
        environment: 'live',
        operation: def.slug,
        referenceId: input.reference_id,
        amountPaise: principalPaise || null,
        // Payments and recharges show their txn_id, amount and commission from the recovery point on, so
        // a retry that finds the transaction still with the partner answers them too, and so does an end
        // that a callback brings before the partner's first answer is written (a failed end makes the
        // commission 0: transactions/store.ts settling).
        outcome: {
          status: 'pending',
          message: 'Submitted to the partner network',
          fields: { ...(principalPaise ? moneyFields({ txnId: ctx.txnId, amountPaise: principalPaise, ...(def.commissionPaise && { commissionPaise }) }) : {}), ...def.recorded?.(input) },
        },
        nextCheckAt: new Date(Date.now() + this.deps.firstCheckS * 1000),
      },
      key,
      hold: { txnId: ctx.txnId, accountId: ctx.accountId, principalPaise, feePaise, commissionPaise, reservedPaise: reserve?.paise ?? 0 },
      // Written before the partner is asked: its callback may settle the transaction before phase 3.
      note: note === null ? undefined : this.deps.notes.sealed(ctx.txnId, ctx.accountId, note),
      afterRecord,
      lane: ctx.lane,
    };
  }

  /**
   * A retry of a request whose first attempt was interrupted after its recovery point: the transaction
   * is answered as it stands, never sent again; a final one completes the key.
   */
  private async resume({ ctx, key }: Call): Promise<string> {
    const { db, transactions, idempotency } = this.deps;
    const row = (await transactions.get(db, ctx.txnId))!;
    const answer = currentAnswer(row, ctx.requestId);
    if (row.status !== 'pending' && key) await db.transaction().execute((trx) => idempotency.complete(trx, key.scope, 200, answer.body));
    return answer.body;
  }

  /**
   * Phases 2 and 3, once the recovery point is recorded. Null when the partner refused the call as not
   * executed after its own end of it had come: the transaction is then answered as that end left it.
   */
  private async send(call: Call, before: NonNullable<LiveOutcome['before']>): Promise<LiveAnswer | null> {
    const { def, input, ctx, key, audit } = call;
    let outcome: Outcome;
    const t0 = performance.now();
    try {
      outcome = await executeOperation(def, input, ctx).finally(() => ctx.timing?.add('partner', performance.now() - t0));
    } catch (err) {
      if (!(err instanceof PartnerError) && !(err instanceof ApiError)) throw err; // unknown: stays pending, reconciled
      // Nothing happened at the partner: the transaction fails, its hold is released, and the key and
      // the reference are freed so that the client may retry the same request. In the lock order: the
      // transaction row and its hold first, the idempotency key last. This is the one place a live key
      // (or a reference, CONTRACT §5) is released.
      const freed = await this.deps.db.transaction().execute(async (trx) => {
        if (!(await this.deps.settlement.failUnsent(trx, ctx.txnId, def.slug, err.message, false))) {
          // Made final meanwhile by the partner's own end (a callback, an enquiry): it had the request
          // after all. Nothing is freed (a retry would execute again); an end other than a failure
          // contradicts the refusal, for a person to look at (a final state never changes: read after).
          const ended = await this.deps.transactions.get(trx, ctx.txnId);
          if (ended?.status !== 'failed') await this.deps.transactions.flag(trx, ctx.txnId, `the partner answered that nothing was executed (${err.message}) after it had ended the transaction (${ended?.status})`);
          return false;
        }
        await this.deps.transactions.releaseReference(trx, ctx.txnId);
        if (key) await this.deps.idempotency.release(key.scope, trx);
        return true;
      });
      if (freed) throw err instanceof ApiError ? err : new ApiError(err.kind === 'timeout' ? 'partner_timeout' : 'partner_failed', err.message);
      return null;
    }
    const t1 = performance.now();
    const answer = await this.outcomes.submit({ def, ctx, scope: key?.scope ?? null, outcome, audit: (body) => answeredRow(audit, 200, JSON.parse(body) as Record<string, unknown>), before }, ctx.lane);
    ctx.timing?.add('outcome', performance.now() - t1);
    return answer;
  }

  /**
   * A lone outcome (every call on a quiet server) in one statement with no transaction around it: one
   * round trip and one commit instead of a transaction's five. The transaction row is settled, or its
   * pending answer merged (`outcome_row`: settlement.settleCtes, transactions.pendingCtes), only while it
   * is as its recovery point left it; its money, event, partner history, stored answer and audit row
   * go in only with it. The CTEs read one another so that the statement takes its locks in
   * settlement's order (the row, the wallet, the key, the audit chain). Answers null, having written
   * nothing, when the operation writes beside its record, or when a callback, an enquiry or a person
   * changed the row meanwhile: the outcome then takes its transaction's path.
   */
  private async alone(item: LiveOutcome): Promise<LiveAnswer | null> {
    const { def, ctx, scope, outcome, before } = item;
    if (!before || ctx.withAnswer.length > 0) return null;
    const { transactions, settlement, idempotency, db } = this.deps;
    const written = outcome.status === 'pending' ? transactions.pendingCtes(before, this.pendingUpdate(item)) : settlement.settleCtes(before, settleOf(item));
    const { answer, key } = this.answerOf(item, written.row);
    // Each write waits for the ones before it in the lock order: reading a CTE to its end runs it first.
    const settled = sql`EXISTS (SELECT 1 FROM outcome_row)`;
    const paid = outcome.status === 'pending' ? settled : sql`${settled} AND (SELECT count(*) FROM hold_settled) >= 0`;
    const completion = key ? idempotency.completion([key], paid) : null;
    const stored = completion ? sql`${paid} AND (SELECT count(*) FROM outcome_key) >= 0` : paid;
    const history = partnerHistory.insertion(partnerHistory.exchange(ctx.txnId, def.slug, outcome), settled);
    const audit = prepareChained([item.audit(answer.body)]);
    const statement = sql<{ n: number }>`
      WITH ${written.ctes},
      ${completion ? sql`outcome_key AS (${completion}),` : sql``}
      ${history ? sql`outcome_history AS (${history}),` : sql``}
      ${chainedCtes(audit, stored)}
      SELECT count(*)::int AS n FROM outcome_row`;
    const { rows } = await preparedIf(true, statement).execute(db);
    return rows[0]!.n === 1 ? answer : null;
  }

  /**
   * Locks are taken in settlement's order: the transaction rows, wallets, keys, then the audit chain
   * (the keys' answers go in the audit chain's statement: they are bound to rows this batch holds, so
   * nothing waiting for a chain head can hold one; docs/RELIABILITY.md).
   */
  private async applyOutcomes(trx: Transaction<DB>, items: LiveOutcome[]): Promise<{ answers: LiveAnswer[]; writes: RawBuilder<unknown>[] }> {
    const { transactions, settlement, idempotency } = this.deps;
    // Every transaction row of the batch first, in id order: a callback or enquiry settling one of them
    // at the same moment locks it before its wallet too, so neither can hold what the other waits for.
    // A batch of one (every call on a quiet server) needs no statement for it: its first write, the
    // settling UPDATE or the partner reference's, locks its one row before anything else, unless its
    // operation keeps a note (taken before that UPDATE: transactions/notes.ts).
    if (items.length > 1 || items[0]!.def.later) await transactions.lockMany(trx, items.map((i) => i.ctx.txnId));
    const finals = items.filter((i) => i.outcome.status !== 'pending');
    // A final outcome's partner reference goes in with its settlement.
    const settled = await settlement.settleMany(trx, finals.map(settleOf));
    // Which partner holds each of the others (pending, or made final by a callback meanwhile), under
    // what id of its own: one statement for the batch, none when every outcome was settled here.
    await transactions.setPartnerRefs(
      trx,
      items.flatMap(({ ctx, outcome }) => {
        const partner = (outcome as RoutedOutcome).partner;
        return partner && outcome.partnerRef && !settled.has(ctx.txnId) ? [{ id: ctx.txnId, partner, partnerRef: outcome.partnerRef }] : [];
      }),
    );
    // The pending ones' answers merged in, with their partner and first status enquiry: one statement.
    const pending = await transactions.updatePendingMany(
      trx,
      items.flatMap((i) => (i.outcome.status === 'pending' ? [{ id: i.ctx.txnId, ...this.pendingUpdate(i) }] : [])),
    );
    const answers: LiveAnswer[] = [];
    const keys: BoundAnswer[] = [];
    for (const item of items) {
      const { answer, key } = await this.applyOne(trx, item, settled.get(item.ctx.txnId) ?? pending.get(item.ctx.txnId));
      answers.push(answer);
      if (key) keys.push(key);
    }
    // Left to the caller's audit statement: the partner history (src/attention/) and the stored answers.
    const writes = [partnerHistory.insertion(items.flatMap((i) => partnerHistory.exchange(i.ctx.txnId, i.def.slug, i.outcome))), idempotency.completion(keys)];
    return { answers, writes: writes.filter((w) => w !== null) };
  }

  /**
   * A pending outcome as the transaction store merges it: its fields (stripped of what is not stored),
   * the partner holding it under its own id, and, once the partner is known, the first status enquiry
   * its polling etiquette asks for (unless SANGAM_RECONCILE_SCHEDULE overrides every partner's).
   */
  private pendingUpdate({ def, outcome }: LiveOutcome): PendingUpdate {
    const { partner, partnerRef } = routedOf(outcome);
    const polling = partner && !this.deps.scheduleExplicit ? this.deps.partners?.polling(partner) : null;
    return { outcome, strip: def.unstored?.strip, partner, partnerRef, firstCheckS: polling?.firstS };
  }

  /** One outcome of the batch and its answer, from its row as settled or updated (`current`). */
  private async applyOne(trx: Transaction<DB>, item: LiveOutcome, current: TxRow | undefined) {
    // Not updated: a callback or status enquiry made it final while the partner call was out. What the
    // operation derived itself is added to that end.
    const row = current ?? (await this.deps.transactions.addMissing(trx, item.ctx.txnId, ownFields(item)))!;
    // An answer that contradicts that end is for a person to look at, as a callback contradicting a
    // final state is (settlement.ts): the end stands, nothing moves.
    if (!current && item.outcome.status !== 'pending' && item.outcome.status !== row.status) {
      const partner = routedOf(item.outcome).partner ?? 'the partner';
      await this.deps.transactions.flag(trx, row.id, `partner ${partner} answered ${item.outcome.status} after the transaction was made final (${row.status})`);
    }
    // What the operation writes beside its record (a document-locker session binding its client id to
    // the caller) commits with the answer that reveals it.
    for (const write of item.ctx.withAnswer) await write(trx);
    return this.answerOf(item, row);
  }

  /** An outcome's answer from its row as now stored, and the answer its idempotency key stores. */
  private answerOf({ def, ctx, scope, outcome }: LiveOutcome, row: TxRow): { answer: LiveAnswer; key: BoundAnswer | null } {
    const strip = def.unstored?.strip;
    // The client sees the partner's full answer once (a live photo included); the store keeps the stripped form.
    const shown = row.status === outcome.status ? { ...row.result, ...outcome.fields } : row.result;
    const message = String(row.result.message ?? outcome.message);
    const key = scope ? { txnId: ctx.txnId, body: JSON.stringify(resultEnvelope(row.status, message, strip ? strip(shown) : shown, ctx.requestId)), force: true } : null;
    return { answer: { row: { ...row, result: shown }, message, body: JSON.stringify(resultEnvelope(row.status, message, shown, ctx.requestId)) }, key };
  }
}
