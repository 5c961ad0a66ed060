// Owns the translation between our terms and Cashfree's Mobile Penny Drop (PARTNERS.md §5.1): the
// request in its own field names (the user_consent block filled from our `consent: true`), the answer
// and error shapes, its status mapping, and the mapping of an answer to our mobile-to-bank-account result
// (AccountResult: the account found, its number masked to its last 4 digits, and the account number and
// IFSC the client gave compared with it here). Cashfree returns `bank_account` in full: it never leaves
// this module unmasked.
import { createHash } from 'node:crypto';
import { bankNameOf } from '../../../shared/ifsc.js';
import type { AccountResult, PartnerOutcome } from '../connector.js';

// ---- Cashfree's shapes, in its names ---------------------------------------------------------------

/** [P] VALID is the only status the docs show; PENDING and INVALID are [G]; anything else is unknown. */
export type CfPennyDropStatus = 'VALID' | 'INVALID' | 'PENDING' | (string & {});

export interface CfUserConsent {
  obtained: true;
  type: 'EXPLICIT';
  /** ISO 8601, seconds, UTC, as in the docs' sample (`2025-10-27T09:24:36Z`). */
  timestamp: string;
  purpose: string;
}

/** `POST /verification/mobile/penny-drop` [P §5.1]. `name` is optional and we have none to send. */
export interface CfPennyDropRequest {
  verification_id: string;
  /**
   * A number, as Cashfree's only sample request sends it (`"mobile_number": 999999999`; its answer echoes a
   * string). The schema's type is not retrievable (PARTNER.md): we follow the sample. Ours are 10 digits, a safe integer.
   */
  mobile_number: number;
  user_consent: CfUserConsent;
}

export interface CfIfscDetails {
  bank?: string | null;
  branch?: string | null;
  address?: string | null;
  city?: string | null;
  state?: string | null;
  [k: string]: unknown;
}

/** The answer of the create call and (same body [G]) of the status call. */
export interface CfPennyDropResponse {
  verification_id?: string;
  reference_id?: number | string;
  status: CfPennyDropStatus;
  ifsc?: string | null;
  vpa?: string | null;
  mobile_number?: string | null;
  account_type?: string | null;
  name_at_bank?: string | null;
  utr?: string | null;
  /** The full account number, unmasked. */
  bank_account?: string | null;
  name_match_score?: string | null;
  name_match_result?: string | null;
  ifsc_details?: CfIfscDetails | null;
}

/** Cashfree V2 errors `{type, code, message}` [G for this API: presumed from §3.5]. */
export interface CfErrorBody {
  type?: string;
  code?: string;
  message?: string;
}

// ---- Our choices for the request -------------------------------------------------------------------

/**
 * What the consent was given for, sent as user_consent.purpose. Sangam's request carries `consent: true`
 * (required by its schema, so no request reaches a partner without it); the purpose states what that
 * consent covered: finding the account by a one-rupee UPI credit to the mobile's VPA.
 */
export const CONSENT_PURPOSE =
  'The account holder consented to the lookup of the bank account linked to this mobile number by a one rupee UPI penny drop, for account verification by a Sangam client';

/** [G] Cashfree-like verification ids: at most 50 of letters, digits, `.`, `-`, `_`. Ours (`txn_` + 20 base62) fit. */
const VERIFICATION_ID = /^[A-Za-z0-9._-]{1,50}$/;

/** The verification_id of a transaction: our transaction id itself, so a status call needs nothing stored. */
export function verificationIdOf(txnId: string): string {
  if (!VERIFICATION_ID.test(txnId)) throw new Error(`transaction id ${txnId} cannot be a Cashfree verification_id`);
  return txnId;
}

/**
 * The create body. `user_consent` comes from the request's `consent: true`: obtained, EXPLICIT (the
 * end user said yes to this very lookup), timestamped when Sangam forwards the request (`at`, moments after it arrived).
 */
export function pennyDropBody(txnId: string, mobile: string, at: Date): CfPennyDropRequest {
  return {
    verification_id: verificationIdOf(txnId),
    mobile_number: Number(mobile),
    user_consent: { obtained: true, type: 'EXPLICIT', timestamp: at.toISOString().replace(/\.\d{3}Z$/, 'Z'), purpose: CONSENT_PURPOSE },
  };
}

// ---- Mapping answers to ours -----------------------------------------------------------------------

/** VALID → success, INVALID (no account linked) → failed, PENDING and anything unknown → pending. */
export function statusOf(s: CfPennyDropStatus): PartnerOutcome['status'] {
  if (s === 'VALID') return 'success';
  if (s === 'INVALID') return 'failed';
  return 'pending';
}

/** A parsed body that is a penny-drop answer (it has a status), or null. */
export function asPennyDrop(v: unknown): CfPennyDropResponse | null {
  const p = v as Partial<CfPennyDropResponse> | null;
  if (!p || typeof p !== 'object' || Array.isArray(p) || typeof p.status !== 'string' || !p.status) return null;
  return p as CfPennyDropResponse;
}

/** Cashfree's reference for a penny drop, as a string, or undefined. */
export const referenceOf = (p: CfPennyDropResponse): string | undefined =>
  (typeof p.reference_id === 'number' && Number.isFinite(p.reference_id)) || (typeof p.reference_id === 'string' && p.reference_id) ? String(p.reference_id) : undefined;

/** Only the last 4 digits stay: `XXXXXXXX3210`. */
export const maskAccount = (n: string): string => 'X'.repeat(Math.max(0, n.length - 4)) + n.slice(-4);

/**
 * What the client gave to compare, kept between a pending answer and its status call: the account
 * number only as a digest bound to the transaction (the store never holds it), the IFSC as given.
 */
export interface GivenAccount {
  accountDigest?: string;
  ifsc?: string;
}

export const accountDigest = (txnId: string, accountNumber: string): string => createHash('sha256').update(`${txnId}\n${accountNumber}`).digest('hex');

export function givenOf(txnId: string, given: { accountNumber?: string; ifsc?: string }): GivenAccount {
  return {
    ...(given.accountNumber !== undefined ? { accountDigest: accountDigest(txnId, given.accountNumber) } : {}),
    ...(given.ifsc !== undefined ? { ifsc: given.ifsc } : {}),
  };
}

/** Each flag only when that field was given; account_match (deprecated) when any was: every given one matches. */
export function matchesOf(txnId: string, acc: { bankAccount: string; ifsc: string }, given: GivenAccount) {
  const m: Omit<AccountResult, 'account'> = {};
  if (given.accountDigest !== undefined) m.accountNumberMatch = accountDigest(txnId, acc.bankAccount) === given.accountDigest;
  if (given.ifsc !== undefined) m.ifscMatch = given.ifsc.toUpperCase() === acc.ifsc;
  if (m.accountNumberMatch !== undefined || m.ifscMatch !== undefined) m.all = m.accountNumberMatch !== false && m.ifscMatch !== false;
  return m;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

export const NO_ACCOUNT_MESSAGE = 'No bank account is linked to this mobile number';
export const FOUND_MESSAGE = 'Bank account found';
export const PENDING_MESSAGE = 'Penny drop in progress at Cashfree; the outcome will follow';

/**
 * Our outcome for a penny-drop answer; null when Cashfree says VALID but leaves out the account number,
 * IFSC or holder name — an answer we cannot use, which the caller keeps pending (never a success
 * without an account).
 */
export function outcomeOf(p: CfPennyDropResponse, txnId: string, given: GivenAccount): PartnerOutcome | null {
  const status = statusOf(p.status);
  const partnerRef = referenceOf(p);
  const ref = partnerRef ? { partnerRef } : {};
  if (status === 'failed') return { status, message: NO_ACCOUNT_MESSAGE, account: {}, ...ref };
  if (status === 'pending') return { status, message: PENDING_MESSAGE, account: {}, ...ref };
  const bankAccount = text(p.bank_account)?.replace(/\s+/g, '');
  const ifsc = text(p.ifsc)?.toUpperCase();
  const holder = text(p.name_at_bank);
  if (!bankAccount || !/^[0-9A-Za-z]{4,40}$/.test(bankAccount) || !ifsc || !holder) return null;
  // The directory names the bank that operates a code (a leased branch included), as the sandbox does;
  // Cashfree's own name stands in for a code the directory does not know.
  const bankName = bankNameOf(ifsc) ?? text(p.ifsc_details?.bank);
  return {
    status,
    message: FOUND_MESSAGE,
    account: {
      account: { holderName: holder, maskedNumber: maskAccount(bankAccount), ifsc, bankName, branch: text(p.ifsc_details?.branch) },
      ...matchesOf(txnId, { bankAccount, ifsc }, given),
    },
    ...ref,
  };
}

/** Cashfree's own words for a refusal, trimmed; never anything of ours. */
export function errorText(body: unknown): string | null {
  const b = body as CfErrorBody | null;
  const msg = text(b?.message);
  const code = text(b?.code);
  if (!msg && !code) return null;
  return [code, msg].filter(Boolean).join(': ').slice(0, 200);
}
