// Owns a live operation's money path, in Stripe's "atomic phases":
//   1. recovery point, one database transaction: the pending transaction row, the hold on the wallet
//      (402 if the balance is short) and the idempotency key claimed and bound to the transaction,
//      group-committed with concurrent requests (recorder.ts);
//   2. the partner call, alone, outside any database transaction;
//   3. one database transaction: the outcome, its ledger effect (post or void the hold), the stored
//      response and the audit row, group-committed with concurrent requests (liveOutcomes).
// A crash between phases leaves a pending transaction with its hold, bound to the idempotency key. A
// retry with that key never sends it again (a different partner might execute it twice): it answers
// the transaction as it stands, and reconciliation asks the partners what became of it.
// The state change and its money effect are settlement's (settlement/settlement.ts), the one place a
// pending live transaction becomes final, here and from partner callbacks and status enquiries.
import type { Transaction } from 'kysely';
import type { Db } from '../db/client.js';
import { GroupCommit } from '../db/group-commit.js';
import { insertChained, type AuditRow } from '../audit/chain.js';
import type { DB } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { resultEnvelope } from '../http/envelope.js';
import type { IdemScope } from '../http/idempotency.js';
import { PartnerError, type FinalOutcome, type Outcome } from '../providers/connector.js';
import { paiseToInr } from '../money.js';
import type { Services } from '../services.js';
import type { TxRow } from '../transactions/store.js';
import type { OperationContext, OperationDef } from './operation.js';
import type { RoutedOutcome } from '../providers/router.js';
import type { Recording } from './recorder.js';
import * as partnerHistory from '../attention/history.js';

type Input = Record<string, unknown> & { reference_id: string };

/** The answer a client gets for a live transaction as it now stands. */
function currentAnswer(row: TxRow, requestId: string) {
  const message = String(row.result.message ?? '');
  return { row, message, body: JSON.stringify(resultEnvelope(row.status, message, row.result, requestId)) };
}

/**
 * Phase 1, the recovery point, as a Recording for the group commit (recorder.ts): the pending
 * transaction, its hold on the wallet (402 if the balance is short) and the idempotency key in flight,
 * bound to the transaction.
 */
export async function liveRecording(def: OperationDef, input: Input, ctx: OperationContext, key: { scope: IdemScope; hash: string } | null): Promise<Recording> {
  const { services } = ctx;
  const principalPaise = def.amountPaise?.(input) ?? 0;
  const commissionPaise = def.commissionPaise?.(input) ?? 0;
  const feePaise = await services.pricing.fee(def.slug);
  return {
    tx: {
      id: ctx.txnId,
      accountId: ctx.accountId,
      environment: 'live',
      operation: def.slug,
      referenceId: input.reference_id,
      amountPaise: principalPaise || null,
      // Payments and recharges show their txn_id and amount from the recovery point on, so a retry that
      // finds the transaction still with the partner answers them too.
      outcome: { status: 'pending', message: 'Submitted to the partner network', fields: principalPaise ? { txn_id: ctx.txnId, amount: paiseToInr(principalPaise) } : {} },
      nextCheckAt: new Date(Date.now() + services.config.reconcile.scheduleS[0]! * 1000),
    },
    key,
    hold: { txnId: ctx.txnId, accountId: ctx.accountId, principalPaise, feePaise, commissionPaise },
    afterRecord: [],
  };
}

/**
 * A retry of a request whose first attempt was interrupted after its recovery point: the transaction
 * is answered as it stands, never sent again.
 */
export async function resumeLive(ctx: OperationContext, scope: IdemScope): Promise<{ body: string }> {
  const { db, transactions, idempotency } = ctx.services;
  const row = (await transactions.get(db, ctx.txnId))!;
  const answer = currentAnswer(row, ctx.requestId);
  if (row.status !== 'pending') await db.transaction().execute((trx) => idempotency.complete(trx, scope, 200, answer.body));
  return answer;
}

/** Phases 2 and 3, once the recovery point is recorded. */
export async function runLive(
  def: OperationDef,
  input: Input,
  ctx: OperationContext,
  scope: IdemScope | null,
  audit: (body: string) => AuditRow,
): Promise<LiveAnswer> {
  const { services } = ctx;
  const { db } = services;
  let outcome: Outcome;
  try {
    outcome = await def.execute(input, ctx);
  } catch (err) {
    if (!(err instanceof PartnerError) && !(err instanceof ApiError)) throw err; // unknown: stays pending, reconciled
    // Nothing happened at the partner: the transaction fails, its hold is released, and the key is
    // freed so that the client may retry it.
    // In the lock order: the transaction row and its hold first, the idempotency key last.
    await db.transaction().execute(async (trx) => {
      await services.settlement.failUnsent(trx, ctx.txnId, def.slug, err.message, false);
      if (scope) await services.idempotency.release(scope, trx);
    });
    if (err instanceof ApiError) throw err;
    throw new ApiError(err.kind === 'timeout' ? 'partner_timeout' : 'partner_failed', err.message);
  }

  return services.outcomes.submit({ def, ctx, scope, outcome, audit });
}

export interface LiveOutcome {
  def: OperationDef;
  ctx: OperationContext;
  scope: IdemScope | null;
  outcome: Outcome;
  /** The request's audit row, made from the answer, stored in the same transaction. */
  audit: (body: string) => AuditRow;
}
export interface LiveAnswer {
  row: TxRow;
  message: string;
  body: string;
}

/**
 * Phase 3, group-committed: the outcomes of concurrent live requests (state changes, money effects,
 * stored responses) and their audit rows, in one database transaction and a fixed number of
 * statements. Locks are taken in settlement's order: the transaction rows, wallets, keys, then the
 * audit chain.
 */
export const liveOutcomes = (db: Db) =>
  new GroupCommit<LiveOutcome, LiveAnswer>((items) =>
    db.transaction().execute(async (trx) => {
      const answers = await applyOutcomes(trx, items);
      await insertChained(trx, items.map((item, i) => item.audit(answers[i]!.body)));
      return answers;
    }),
  );

async function applyOutcomes(trx: Transaction<DB>, items: LiveOutcome[]): Promise<LiveAnswer[]> {
  const { services } = items[0]!.ctx;
  // Every transaction row of the batch first, in id order: a callback or enquiry settling one of them
  // at the same moment locks it before its wallet too, so neither can hold what the other waits for.
  await services.transactions.lockMany(trx, items.map((i) => i.ctx.txnId));
  const finals = items.filter((i) => i.outcome.status !== 'pending');
  const settled = await services.settlement.settleMany(
    trx,
    finals.map((i) => ({ operation: i.def.slug, txnId: i.ctx.txnId, final: i.outcome as FinalOutcome, partner: (i.outcome as RoutedOutcome).partner })),
  );
  const answers: LiveAnswer[] = [];
  const keys: Array<{ txnId: string; body: string; force: boolean }> = [];
  for (const { def, ctx, scope, outcome } of items) {
    const strip = def.unstored?.strip;
    let row = settled.get(ctx.txnId);
    const partner = (outcome as RoutedOutcome).partner;
    if (!row && outcome.status === 'pending') row = await services.transactions.updatePending(trx, ctx.txnId, outcome, strip, partner);
    if (partner && outcome.partnerRef) await services.transactions.setPartnerRef(trx, ctx.txnId, partner, outcome.partnerRef);
    // Once the partner is known, its polling etiquette decides the first status enquiry.
    const polling = partner && outcome.status === 'pending' && !services.config.reconcile.explicit ? services.partners?.polling(partner) : null;
    if (polling && row) await services.transactions.setNextCheck(trx, ctx.txnId, new Date(row.created_at.getTime() + polling.firstS * 1000));
    // Unchanged: a callback or status enquiry made it final while the partner call was out.
    row ??= (await services.transactions.get(trx, ctx.txnId))!;
    // The client sees the partner's full answer once (a live photo included); the store keeps the stripped form.
    const shown = row.status === outcome.status ? { ...row.result, ...outcome.fields } : row.result;
    const message = String(row.result.message ?? outcome.message);
    if (scope) keys.push({ txnId: ctx.txnId, body: JSON.stringify(resultEnvelope(row.status, message, strip ? strip(shown) : shown, ctx.requestId)), force: true });
    answers.push({ row: { ...row, result: shown }, message, body: JSON.stringify(resultEnvelope(row.status, message, shown, ctx.requestId)) });
    // What the operation writes beside its record (a document-locker session binding its client id to
    // the caller) commits with the answer that reveals it.
    for (const write of ctx.afterRecord) await write(trx);
  }
  await partnerHistory.record(trx, items.flatMap((i) => partnerHistory.exchange(i.ctx.txnId, i.def.slug, i.outcome))); // the partner history (src/attention/)
  await services.idempotency.completeBound(trx, keys);
  return answers;
}
