// Owns the float actions (src/float/; docs/RELIABILITY.md, "Float reconciliation"), for the console
// and the CLI: recording a partner's opening balance and each funding (an operator's word about money
// Sangam itself sent to the partner: one step, audited, like a wallet top-up), and resolving a drift
// item of the "Needs attention" queue:
//   - `reversal` of a named candidate: proposed as that transaction's reversal through the existing
//     resolution path (admin/actions/attention.ts): a different admin approves it, settlement posts it
//     exactly once, and the next float check finds the drift gone and closes the item;
//   - `adjustment` (a signed amount booked into the float, for a drift no transaction explains: a fee,
//     a top-up recorded wrong): maker-checker here, applied on approval with the item closed;
//   - `dismiss` with a reason: moves no money, applied at once; the same drift does not reopen.
// Every step is an ADMIN audit row (`float opening`, `float fund`, `float propose`, `float approve`,
// `float reject`, `float apply`).
//
// Lock order: the drift row, then the resolution row, then the movement, the audit chain last.
import type { Db } from '../../db/client.js';
import type { Trx } from '../../db/transaction.js';
import type { AdminEvent } from '../../audit/admin-events.js';
import { ApiError } from '../../errors.js';
import { paiseToInr } from '../../money.js';
import * as floats from '../../float/store.js';
import { floatResolutionView } from '../../attention/float.js';
import { adminAction, type Actor } from './run.js';
import { assertChecker, boundedText, checkerFacts, requireAdminPerson } from './people.js';
import { propose as proposeForTransaction, type AttentionDeps } from './attention.js';

const PARTNER = /^[a-z0-9]{1,32}$/;
const MEMO_MAX = 500;
const REASON_MAX = 1000;
const EVIDENCE_MAX = 2000;
export const FLOAT_ACTIONS = ['reversal', 'adjustment', 'dismiss'] as const;

const event = (action: string, detail: Record<string, unknown>): AdminEvent => ({ accountId: null, environment: 'live', action: `float ${action}`, detail });

function partnerOf(v: string | undefined): string {
  const p = (v ?? '').trim().toLowerCase();
  if (!PARTNER.test(p)) throw ApiError.validation([{ field: 'partner', message: 'partner must be a configured partner name (letters and digits)' }]);
  return p;
}

/** Records a movement the operator vouches for. Errors: validation (partner, amount, memo). */
function record(db: Db, actor: Actor, kind: 'opening' | 'funding', input: { partner?: string; amountPaise: number; memo?: string }) {
  const partner = partnerOf(input.partner);
  const ok = Number.isSafeInteger(input.amountPaise) && (kind === 'opening' ? input.amountPaise >= 0 : input.amountPaise > 0);
  if (!ok) throw ApiError.validation([{ field: 'amount', message: kind === 'opening' ? 'amount must be 0 or more' : 'amount must be greater than 0' }]);
  const memo = boundedText('memo', input.memo, MEMO_MAX, false);
  return adminAction(db, actor, async (trx) => {
    const m = await floats.recordMovement(trx, { partner, kind, amountPaise: input.amountPaise, memo, by: actor });
    const result = { id: m.id, partner, kind, amount: paiseToInr(m.amount_paise), amount_paise: m.amount_paise, memo, at: m.at.toISOString() };
    return { result, event: event(kind === 'opening' ? 'opening' : 'fund', { movement_id: m.id, partner, amount_paise: m.amount_paise, memo }) };
  });
}

/** The partner's balance as the operator read it at the partner: every later movement counts from it. */
export const opening = (db: Db, actor: Actor, input: { partner?: string; amountPaise: number; memo?: string }) => record(db, actor, 'opening', input);

/** Money Sangam sent to the partner's float (a top-up of the prepaid wallet). */
export const fund = (db: Db, actor: Actor, input: { partner?: string; amountPaise: number; memo?: string }) => record(db, actor, 'funding', input);

/** Errors: not_found, validation (`id`: the item is closed). */
async function lockOpen(trx: Trx, id: string): Promise<floats.Drift> {
  const d = await floats.lockDrift(trx, id);
  if (!d) throw new ApiError('not_found', `No float drift ${id}`);
  if (d.state !== 'open') throw ApiError.validation([{ field: 'id', message: `float drift ${id} is already ${d.state}` }]);
  return d;
}

export interface FloatProposal {
  driftId: string;
  action: string;
  txnId?: string;
  amountPaise?: number;
  reason?: string;
  evidence?: string;
}

/**
 * Resolves a drift item: a candidate's reversal (proposed on the transaction, for a second admin),
 * an adjustment (proposed here, for a second admin) or a dismissal (applied now). Errors: validation
 * (action, txn not a candidate, amount, reason, evidence, a proposal already open, the item closed),
 * not_found (item, transaction), forbidden (not a named admin).
 */
export async function propose(deps: AttentionDeps, actor: Actor, input: FloatProposal) {
  if (!(FLOAT_ACTIONS as readonly string[]).includes(input.action)) throw ApiError.validation([{ field: 'action', message: `action must be one of ${FLOAT_ACTIONS.join(', ')}` }]);
  const reason = boundedText('reason', input.reason, REASON_MAX, true);
  const evidence = boundedText('evidence', input.evidence, EVIDENCE_MAX, input.action !== 'dismiss');
  if (input.action === 'reversal') return proposeReversal(deps, actor, input, reason, evidence);
  if (input.action === 'adjustment' && !(Number.isSafeInteger(input.amountPaise) && input.amountPaise !== 0)) {
    throw ApiError.validation([{ field: 'amount', message: 'an adjustment needs a non-zero amount (signed: + when the partner holds more than the books)' }]);
  }
  return adminAction(deps.db, actor, async (trx) => {
    const d = await lockOpen(trx, input.driftId);
    const maker = await requireAdminPerson(trx, actor, 'A float resolution');
    const waiting = await floats.openFloatResolution(trx, d.id);
    if (waiting) throw ApiError.validation([{ field: 'id', message: `resolution ${waiting.id} (${waiting.action}) is already waiting for approval: approve or reject it first` }]);
    const action = input.action as 'adjustment' | 'dismiss';
    let r = await floats.insertFloatResolution(trx, { driftId: d.id, action, amountPaise: action === 'adjustment' ? input.amountPaise! : null, reason, evidence, by: maker });
    const proposed = event('propose', { drift_id: d.id, partner: d.partner, resolution_id: r.id, action, amount_paise: r.amount_paise, drift_paise: d.drift_paise, reason, evidence, maker: maker.email });
    if (action === 'adjustment') return { result: { kind: 'float', resolution: floatResolutionView(r) }, event: proposed };
    await floats.closeDrift(trx, d.id, { state: 'dismissed', by: maker.email, reason });
    r = await floats.decideFloatResolution(trx, r.id, { state: 'applied', by: maker.email });
    return { result: { kind: 'float', resolution: floatResolutionView(r) }, event: [proposed, event('apply', { drift_id: d.id, partner: d.partner, resolution_id: r.id, action })] };
  });
}

/** The reversal of one of the item's candidates, proposed on that transaction (attention.propose). */
async function proposeReversal(deps: AttentionDeps, actor: Actor, input: FloatProposal, reason: string, evidence: string) {
  const d = await floats.getDrift(deps.db, input.driftId);
  if (!d) throw new ApiError('not_found', `No float drift ${input.driftId}`);
  if (d.state !== 'open') throw ApiError.validation([{ field: 'id', message: `float drift ${d.id} is already ${d.state}` }]);
  const candidate = d.candidates.transactions.find((t) => t.txn_id === input.txnId);
  if (!candidate) throw ApiError.validation([{ field: 'txn_id', message: `txn_id must be one of the drift's candidates: ${d.candidates.transactions.map((t) => t.txn_id).join(', ') || 'it has none'}` }]);
  const because = `${evidence} [float drift ${d.id}: ${d.partner} holds ${paiseToInr(d.drift_paise)} INR more than Sangam's books]`;
  const resolution = await proposeForTransaction(deps, actor, { txnId: candidate.txn_id, action: 'reversal', reason, evidence: because.slice(0, EVIDENCE_MAX) });
  return { kind: 'transaction', resolution };
}

/** Errors: not_found, validation (already decided, the item closed meanwhile). */
async function lockProposal(trx: Trx, id: string): Promise<{ d: floats.Drift; r: floats.FloatResolution }> {
  const found = await floats.getFloatResolution(trx, id);
  if (!found) throw new ApiError('not_found', `No float resolution ${id}`);
  const d = await floats.lockDrift(trx, found.drift_id);
  const r = (await floats.getFloatResolution(trx, id, true))!;
  if (r.state !== 'proposed') throw ApiError.validation([{ field: 'id', message: `resolution ${id} is already ${r.state}` }]);
  if (!d || d.state !== 'open') throw ApiError.validation([{ field: 'id', message: `the float drift is already ${d?.state ?? 'gone'}: reject this resolution` }]);
  return { d, r };
}

/** A second admin approves an adjustment: booked into the float once, the item closed. Errors: as lockProposal, forbidden (the maker). */
export function approve(db: Db, actor: Actor, input: { id: string }) {
  return adminAction(db, actor, async (trx) => {
    const { d, r } = await lockProposal(trx, input.id);
    const checker = await requireAdminPerson(trx, actor, 'A float resolution');
    assertChecker(checker, { id: r.proposed_by_user, email: r.proposed_by }, r.proposed_at, `float resolution ${r.id}`);
    const m = await floats.recordMovement(trx, { partner: d.partner, kind: 'adjustment', amountPaise: r.amount_paise!, memo: `${r.reason} (drift ${d.id}, resolution ${r.id})`, by: `${r.proposed_by} + ${checker.email}` });
    await floats.closeDrift(trx, d.id, { state: 'adjusted', by: checker.email, reason: r.reason });
    const done = await floats.decideFloatResolution(trx, r.id, { state: 'applied', by: checker.email });
    const detail = { drift_id: d.id, partner: d.partner, resolution_id: r.id, action: r.action, amount_paise: r.amount_paise, movement_id: m.id, maker: r.proposed_by, ...checkerFacts(checker) };
    return { result: floatResolutionView(done), event: [event('approve', detail), event('apply', detail)] };
  });
}

/** Rejects an adjustment with a reason; nothing moves. Errors: not_found, forbidden, validation. */
export function reject(db: Db, actor: Actor, input: { id: string; reason?: string }) {
  const reason = boundedText('reason', input.reason, REASON_MAX, true);
  return adminAction(db, actor, async (trx) => {
    const found = await floats.getFloatResolution(trx, input.id);
    if (!found) throw new ApiError('not_found', `No float resolution ${input.id}`);
    await floats.lockDrift(trx, found.drift_id);
    const r = (await floats.getFloatResolution(trx, input.id, true))!;
    if (r.state !== 'proposed') throw ApiError.validation([{ field: 'id', message: `resolution ${input.id} is already ${r.state}` }]);
    const by = await requireAdminPerson(trx, actor, 'A float resolution');
    const done = await floats.decideFloatResolution(trx, r.id, { state: 'rejected', by: by.email, reason });
    return { result: floatResolutionView(done), event: event('reject', { drift_id: r.drift_id, resolution_id: r.id, maker: r.proposed_by, reason }) };
  });
}
