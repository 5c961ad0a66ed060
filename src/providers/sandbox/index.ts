// Owns what the sandbox's deterministic answers (CONTRACT §7) are made of: made-up people and accounts
// (shared/people.ts), portraits, the token-sort name score, account comparison, and a pending outcome
// that carries its own settlement (`settle`, which the core stores and the finalizer applies after
// SANGAM_SANDBOX_PENDING_MS).
// Each operation declares its own sandbox answer from these (operations/<slug>/sandbox.ts); nothing here
// touches a wallet or a network.
import { distance } from 'fastest-levenshtein';
import { commissionPaise, type Operator } from '../../catalog/operators.js';
import { paiseToInr } from '../../money.js';
import { randomDigits } from '../../ids.js';
import type { FinalOutcome, Outcome } from '../connector.js';
import { portraitPng } from './png.js';

/** Normalised token-sort similarity, 0 to 100. */
export function nameMatchScore(a: string, b: string): number {
  const norm = (s: string) => s.toUpperCase().replace(/[^A-Z ]/g, ' ').split(/\s+/).filter(Boolean).sort().join(' ');
  const x = norm(a);
  const y = norm(b);
  const longest = Math.max(x.length, y.length);
  return longest === 0 ? 0 : Math.round(100 * (1 - distance(x, y) / longest));
}

/**
 * How the account and IFSC the client holds compare with the linked account: each flag only when that
 * field was given (an IFSC matches only as the exact branch code), and `account_match`, kept for
 * clients of the first version, true when every given field matches.
 */
export function accountMatches(acc: { account_number: string; ifsc: string }, given: { accountNumber?: string; ifsc?: string }) {
  const m: { account_number_match?: boolean; ifsc_match?: boolean; account_match?: boolean } = {};
  if (given.accountNumber !== undefined) m.account_number_match = given.accountNumber === acc.account_number;
  if (given.ifsc !== undefined) m.ifsc_match = given.ifsc === acc.ifsc;
  if (given.accountNumber !== undefined || given.ifsc !== undefined) m.account_match = m.account_number_match !== false && m.ifsc_match !== false;
  return m;
}

export const sandboxPhoto = (seed: string) => portraitPng(seed).toString('base64');

/** A pending outcome whose end is known: it becomes `final` after `pendingMs`. */
export const sandboxPending = (message: string, fields: Record<string, unknown>, final: FinalOutcome, pendingMs: number): Outcome => ({
  status: 'pending',
  message,
  fields,
  settle: { after_ms: pendingMs, final },
});

/** A recharge (mobile or DTH) in the sandbox: a number ending 0001 is declined, 0002 pending, others succeed. */
export function sandboxRecharge(r: { txnId: string; number: string; operator: string; amountPaise: number }, list: readonly Operator[], pendingMs: number): Outcome {
  const base = { txn_id: r.txnId, amount: paiseToInr(r.amountPaise), operator: r.operator };
  const commission = paiseToInr(commissionPaise(list, r.operator, r.amountPaise));
  const success: FinalOutcome = { status: 'success', message: 'Recharge successful', fields: { ...base, utr: `${r.operator}${randomDigits(10)}`, commission } };
  if (r.number.endsWith('0001')) {
    return { status: 'failed', message: 'Recharge declined by the operator', fields: { ...base, utr: null, commission: 0 } };
  }
  if (r.number.endsWith('0002')) {
    return sandboxPending('Recharge submitted; awaiting operator confirmation', { ...base, utr: null, commission }, success, pendingMs);
  }
  return success;
}
