// Owns the resolution actions on what needs attention (src/attention/), for the console and the CLI:
// propose, approve, reject. A money action (success, failed, reversal) is maker-checker: it stays
// `proposed` until a different admin approves it — then it is applied through settlement in the same
// database transaction — or rejects it with a reason (the maker may withdraw their own). `dismiss`
// moves no money and is applied when it is recorded. Every step is an ADMIN audit row (who, why, the
// evidence): `attention propose`, `attention approve`, `attention reject`, `attention apply`.
// Admins are people: a console user (`console:<email>`) or the CLI naming one (`cli:<email>`, --as),
// compared by console user id; the checker's admin rights must predate the proposal (people.ts).
//
// Lock order: the transaction row first (SELECT … FOR UPDATE), then the resolution row, then wallets
// (through settlement), the audit chain last.
import type { Db } from '../../db/client.js';
import type { Trx } from '../../db/transaction.js';
import type { ResolutionAction } from '../../db/schema.js';
import type { AdminEvent } from '../../audit/admin-events.js';
import type { Settlement } from '../../settlement/settlement.js';
import { ApiError } from '../../errors.js';
import { applyResolution } from '../../attention/apply.js';
import { resolutionView } from '../../attention/queue.js';
import {
  ACTIONS,
  MONEY_ACTIONS,
  decide,
  getResolution,
  insertResolution,
  lockResolution,
  openResolution,
  unfit,
  type Resolution,
} from '../../attention/resolutions.js';
import type { TransactionStore, TxFacts } from '../../transactions/store.js';
import { adminAction, type Actor } from './run.js';
import { assertChecker, boundedText, checkerFacts, requireAdminPerson } from './people.js';

export interface AttentionDeps {
  db: Db;
  settlement: Settlement;
  transactions: TransactionStore;
}

const REASON_MAX = 1000;
const EVIDENCE_MAX = 2000;

const admin = (trx: Trx, actor: Actor) => requireAdminPerson(trx, actor, 'A resolution');
const text = boundedText;

/** Errors: not_found (no such transaction), validation (`txn_id`: not live). */
async function lockLive(deps: AttentionDeps, trx: Trx, txnId: string): Promise<TxFacts> {
  const tx = await deps.transactions.lockFacts(trx, txnId);
  if (!tx) throw new ApiError('not_found', `No transaction ${txnId}`);
  if (tx.environment !== 'live') throw ApiError.validation([{ field: 'txn_id', message: 'only live transactions are resolved by hand (a sandbox pending settles by itself)' }]);
  return tx;
}

/** Errors: validation (`action` does not fit the transaction as it stands). */
function fits(action: ResolutionAction, tx: TxFacts): void {
  const why = unfit(action, tx);
  if (why) throw ApiError.validation([{ field: 'action', message: `${action} cannot apply: ${why}` }]);
}

const event = (tx: TxFacts, action: string, detail: Record<string, unknown>): AdminEvent => ({ accountId: tx.account_id, environment: 'live', action: `attention ${action}`, detail: { txn_id: tx.id, ...detail } });

/**
 * Records a resolution: a money action is proposed for a second admin; `dismiss` is applied at once.
 * Errors: validation (action unknown or unfit, reason empty, evidence missing for money, a proposal
 * already open), not_found (transaction), forbidden (not a named admin).
 */
export function propose(deps: AttentionDeps, actor: Actor, input: { txnId: string; action: string; reason?: string; evidence?: string }) {
  const action = input.action as ResolutionAction;
  if (!ACTIONS.includes(action)) throw ApiError.validation([{ field: 'action', message: `action must be one of ${ACTIONS.join(', ')}` }]);
  const money = MONEY_ACTIONS.includes(action);
  const reason = text('reason', input.reason, REASON_MAX, true);
  const evidence = text('evidence', input.evidence, EVIDENCE_MAX, money);
  return adminAction(deps.db, actor, async (trx) => {
    const tx = await lockLive(deps, trx, input.txnId);
    const maker = await admin(trx, actor);
    fits(action, tx);
    const open = await openResolution(trx, tx.id);
    if (open) throw ApiError.validation([{ field: 'txn_id', message: `resolution ${open.id} (${open.action}) is already waiting for approval: approve or reject it first` }]);
    let r = await insertResolution(trx, { txnId: tx.id, action, reason, evidence, by: maker.email, byUser: maker.id });
    const proposed = event(tx, 'propose', { resolution_id: r.id, action, reason, evidence, maker: maker.email, maker_user: maker.id });
    if (money) return { result: resolutionView(r), event: proposed };
    const effect = await applyResolution(trx, deps, tx, r, maker.email);
    r = await decide(trx, r.id, { state: 'applied', by: maker.email, byUser: maker.id });
    return { result: resolutionView(r), event: [proposed, event(tx, 'apply', { resolution_id: r.id, action, effect })] };
  });
}

/** The proposal and its transaction, locked in order. Errors: not_found, validation (`id`: already decided). */
async function lockProposal(deps: AttentionDeps, trx: Trx, id: string): Promise<{ tx: TxFacts; r: Resolution }> {
  const found = await getResolution(trx, id);
  if (!found) throw new ApiError('not_found', `No resolution ${id}`);
  const tx = await lockLive(deps, trx, found.txn_id);
  const r = (await lockResolution(trx, id))!;
  if (r.state !== 'proposed') throw ApiError.validation([{ field: 'id', message: `resolution ${id} is already ${r.state}` }]);
  return { tx, r };
}

/**
 * A second admin approves a proposal: it is applied through settlement now, once. Errors: not_found,
 * forbidden (the maker; not a named admin in effect; an admin since after the proposal), validation (already decided; the transaction changed
 * meanwhile — a callback settled it — so the action no longer fits: reject it).
 */
export function approve(deps: AttentionDeps, actor: Actor, input: { id: string }) {
  return adminAction(deps.db, actor, async (trx) => {
    const { tx, r } = await lockProposal(deps, trx, input.id);
    const checker = await admin(trx, actor);
    assertChecker(checker, { id: r.proposed_by_user, email: r.proposed_by }, r.proposed_at, `resolution ${r.id}`);
    fits(r.action, tx);
    const effect = await applyResolution(trx, deps, tx, r, checker.email);
    const done = await decide(trx, r.id, { state: 'applied', by: checker.email, byUser: checker.id });
    const detail = { resolution_id: r.id, action: r.action, reason: r.reason, evidence: r.evidence, maker: r.proposed_by, maker_user: r.proposed_by_user, ...checkerFacts(checker) };
    return { result: { ...resolutionView(done), effect }, event: [event(tx, 'approve', detail), event(tx, 'apply', { ...detail, effect })] };
  });
}

/** Rejects a proposal with a reason; nothing moves. Errors: not_found, forbidden, validation (reason, already decided). */
export function reject(deps: AttentionDeps, actor: Actor, input: { id: string; reason?: string }) {
  const reason = text('reason', input.reason, REASON_MAX, true);
  return adminAction(deps.db, actor, async (trx) => {
    const { tx, r } = await lockProposal(deps, trx, input.id);
    const by = await admin(trx, actor);
    const done = await decide(trx, r.id, { state: 'rejected', by: by.email, byUser: by.id, reason });
    return { result: resolutionView(done), event: event(tx, 'reject', { resolution_id: r.id, action: r.action, maker: r.proposed_by, maker_user: r.proposed_by_user, rejected_by: by.email, rejected_by_user: by.id, reason }) };
  });
}
