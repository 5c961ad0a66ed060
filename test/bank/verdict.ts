// The bank test's verdict: every operation as the partner's books, Sangam and the client each saw it,
// and what must hold between them — the partner and Sangam agree on the outcome and on a reversal; no
// UPI payout was made at both partners; no client answer contradicts the final state; and the wallet
// is the top-up less what the partners paid plus what they gave back, to the paisa.
import type { Outcome, PartnerView } from './partners.js';
import type { Answer, Op } from './workload.js';

/** Sangam's transaction as GET /api/v1/transactions/{reference} shows it. */
export interface SangamView {
  status: Outcome | 'missing';
  txnId: string | null;
  reversed: boolean;
}

export interface Row {
  op: Op;
  answer: Answer | undefined;
  sangam: SangamView;
  partner: PartnerView;
}

/** Why Sangam and the partner disagree about `r`, or null when they agree. */
export function disagreement(r: Row): string | null {
  const { sangam: s, partner: p } = r;
  if (s.status === 'missing') return 'Sangam has no transaction';
  if (s.status === 'pending') return 'still pending in Sangam';
  if (p.moving) return 'still moving at the partner';
  const expected = p.outcome === 'none' ? 'failed' : p.outcome;
  if (s.status !== expected) return `Sangam says ${s.status}, ${p.at === 'none' ? 'no partner has it' : `${p.at} says ${p.outcome}`}`;
  if (p.reversed && !p.unobservable && !s.reversed) return `${p.at} reversed it; Sangam shows no reversal`;
  if (s.reversed && !p.reversed) return `Sangam shows a reversal ${p.at} never made`;
  return null;
}

/** Why the client's answer contradicts the final state, or null. Pending promises nothing. */
export function contradiction(r: Row): string | null {
  const a = r.answer;
  if (!a) return 'never answered';
  const final = r.sangam.status;
  if (a.status === 'success' && final !== 'success') return `answered success, final ${final}`;
  if ((a.status === 'failed' || a.status === 'unsent') && final !== 'failed') return `answered ${a.status}, final ${final}`;
  if (a.txnId && r.sangam.txnId && a.txnId !== r.sangam.txnId) return `answered ${a.txnId}, final transaction ${r.sangam.txnId}`;
  return null;
}

/**
 * The wallet the partners' books imply: `start` less each operation they paid (its amount net of the
 * operator's commission, plus the fee), plus each one they reversed in a way Sangam can learn of.
 * `by` picks whose view counts: the partners' (the truth) or Sangam's own (its ledger's consistency).
 */
export function expectedWallet(rows: Row[], start: number, fee: (op: Op) => number, by: 'partner' | 'sangam'): number {
  let w = start;
  for (const r of rows) {
    const paid = by === 'partner' ? r.partner.outcome === 'success' : r.sangam.status === 'success';
    const back = by === 'partner' ? r.partner.reversed && !r.partner.unobservable : r.sangam.reversed;
    const debit = r.op.netPaise + fee(r.op);
    if (paid) w -= debit;
    if (paid && back) w += debit;
  }
  return w;
}

export interface Tally {
  operations: number;
  byKind: Record<string, number>;
  /** How the partners ended: success, failed, never reached, reversed. */
  partnerOutcomes: Record<string, number>;
  disagreements: Array<{ reference: string; txnId: string | null; why: string; partner: string; sangam: string }>;
  contradictions: Array<{ reference: string; why: string }>;
  madeAtBoth: string[];
  unobservable: Array<{ reference: string; deliveries: string }>;
}

export function tally(rows: Row[]): Tally {
  const t: Tally = { operations: rows.length, byKind: {}, partnerOutcomes: {}, disagreements: [], contradictions: [], madeAtBoth: [], unobservable: [] };
  const bump = (o: Record<string, number>, k: string) => (o[k] = (o[k] ?? 0) + 1);
  for (const r of rows) {
    bump(t.byKind, r.op.kind);
    bump(t.partnerOutcomes, `${r.op.kind} ${r.partner.at === 'none' ? 'never reached a partner' : `${r.partner.outcome}${r.partner.reversed ? ' then reversed' : ''}`}`);
    const why = disagreement(r);
    const p = r.partner;
    if (why) t.disagreements.push({ reference: r.op.reference, txnId: r.sangam.txnId, why, partner: `${p.at} ${p.outcome}${p.reversed ? ' reversed' : ''}`, sangam: `${r.sangam.status}${r.sangam.reversed ? ' reversed' : ''}` });
    const c = contradiction(r);
    if (c) t.contradictions.push({ reference: r.op.reference, why: c });
    if (p.atBoth) t.madeAtBoth.push(r.op.reference);
    if (p.unobservable) t.unobservable.push({ reference: r.op.reference, deliveries: p.unobservable });
  }
  return t;
}
