// Owns what the sandbox's deterministic answers (CONTRACT §7) are made of: made-up people and accounts
// (shared/people.ts), portraits, the token-sort name score, account comparison, and a pending outcome
// that carries its own settlement (`settle`, which the core stores and the finalizer applies after
// SANGAM_SANDBOX_PENDING_MS).
// Each operation declares its own sandbox answer from these (operations/<slug>/sandbox.ts); nothing here
// touches a wallet or a network.
import { distance } from 'fastest-levenshtein';
import { commissionPaise, type Operator } from '../../catalog/operators.js';
import { randomDigits } from '../../ids.js';
import type { AccountResult, PartnerFinal, PartnerOutcome, PartnerResult } from '../connector.js';
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
 * field was given (an IFSC matches only as the exact branch code), and `all` (the public
 * `account_match`, kept for clients of the first version), true when every given field matches.
 */
export function accountMatches(acc: { account_number: string; ifsc: string }, given: { accountNumber?: string; ifsc?: string }) {
  const m: Omit<AccountResult, 'account'> = {};
  if (given.accountNumber !== undefined) m.accountNumberMatch = given.accountNumber === acc.account_number;
  if (given.ifsc !== undefined) m.ifscMatch = given.ifsc === acc.ifsc;
  if (given.accountNumber !== undefined || given.ifsc !== undefined) m.all = m.accountNumberMatch !== false && m.ifscMatch !== false;
  return m;
}

export const sandboxPhoto = (seed: string) => portraitPng(seed).toString('base64');

/** A pending outcome whose end is known: it becomes `final` after `pendingMs`. */
export const sandboxPending = (message: string, result: PartnerResult, final: PartnerFinal, pendingMs: number): PartnerOutcome => ({
  status: 'pending',
  message,
  ...result,
  settle: { after_ms: pendingMs, final },
});

/** A recharge (mobile or DTH) in the sandbox: a number ending 0001 is declined, 0002 pending, others succeed. */
export function sandboxRecharge(r: { txnId: string; number: string; operator: string; amountPaise: number }, list: readonly Operator[], pendingMs: number): PartnerOutcome {
  const base = { txnId: r.txnId, amountPaise: r.amountPaise, operator: r.operator };
  const commission = commissionPaise(list, r.operator, r.amountPaise);
  const success: PartnerFinal = { status: 'success', message: 'Recharge successful', money: { ...base, utr: `${r.operator}${randomDigits(10)}`, commissionPaise: commission } };
  if (r.number.endsWith('0001')) {
    return { status: 'failed', message: 'Recharge declined by the operator', money: { ...base, utr: null, commissionPaise: 0 } };
  }
  if (r.number.endsWith('0002')) {
    return sandboxPending('Recharge submitted; awaiting operator confirmation', { money: { ...base, utr: null, commissionPaise: commission } }, success, pendingMs);
  }
  return success;
}
