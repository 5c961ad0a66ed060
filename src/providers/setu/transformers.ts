// Owns what both Setu products' translations share (PARTNERS.md §4): the answer envelope and error shape,
// the payment reference derived from our transaction id (the idempotency key of a recharge and of a BBPS
// payment alike), the IST timestamp the requests carry, and our typed result (our txn id, the amount
// and commission in paise, the operator's or biller's reference). Each product's own shapes, codes and
// status mapping stay in its folder's transformers.ts.
import type { MoneyResult, Outcome, PartnerOutcome } from '../connector.js';

/** [P] §4.4 `{code: "ERRnnn", failureReason: "<slug>", message}`; BBPS's `{code, message}` is the same without the slug. */
export interface SetuError {
  code?: string;
  failureReason?: string;
  message?: string;
}

/** [P] every answer: `{success, data, trace_id}` (BBPS: `traceId`), or `{success: false, error, …}`. */
export interface SetuEnvelope<T> {
  success?: boolean;
  data?: T;
  /** An object; Setu's prepaid `/recharge/status` types a `data.error` as a string (docs/partners/setu-recharge/). */
  error?: SetuError | string | null;
  trace_id?: string;
  traceId?: string;
}

/** The data of an answer when it is an object; null otherwise. */
export function dataOf<T>(v: unknown): T | null {
  const d = (v as SetuEnvelope<T> | null)?.data;
  return d && typeof d === 'object' ? d : null;
}

/** The error of an answer, if it has one as an object (with a code to match). */
export function errorOf(json: unknown): SetuError | null {
  const e = (json as SetuEnvelope<unknown> | null)?.error;
  return e && typeof e === 'object' ? e : null;
}

/** A short text from Setu (trimmed, at most 200 characters), or null. */
export const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim().slice(0, 200) : null);

/**
 * Setu's own words for an error: its message, else its slug, else its code; or the error itself when Setu
 * gives it as a string (the prepaid `/recharge/status` answer types `data.error` as `string|null`, its
 * `/recharge/request` as `object|null`: both are read).
 */
export const errorText = (e: SetuError | string | null | undefined): string | null =>
  typeof e === 'string' ? text(e) : text(e?.message) ?? text(e?.failureReason) ?? text(e?.code);

const TXN_ID = /^txn_([0-9A-Za-z]{1,26})$/;
const PAYMENT_REF = /^txn([0-9A-Za-z]{1,26})$/;

/**
 * The payment reference of one of our transactions: our id without its underscore (Setu takes 6–30
 * letters and digits). The same transaction always has the same one — the idempotency key — and it
 * maps back to our id.
 */
export function paymentRefIdOf(txnId: string): string {
  const m = TXN_ID.exec(txnId);
  if (!m) throw new Error(`not a Sangam transaction id: ${txnId}`);
  return `txn${m[1]}`;
}

export function txnIdOfPaymentRef(ref: unknown): string | null {
  const m = typeof ref === 'string' ? PAYMENT_REF.exec(ref) : null;
  return m ? `txn_${m[1]}` : null;
}

/** [P] ISO 8601 with its offset, in India's time as the samples are: `2024-02-07T13:54:00+05:30`. */
export function istTimestamp(at = new Date()): string {
  return `${new Date(at.getTime() + 5.5 * 3_600_000).toISOString().slice(0, 19)}+05:30`;
}

/** What a result needs beyond Setu's answer: our id and amounts (a webhook-triggered enquiry has them stored). */
export interface Known {
  txnId: string;
  amountPaise: number | null;
  commissionPaise: number;
}

/** Our result: our txn id, the amount in paise, the reference (only on a success), the commission in paise (0 when failed). */
export function moneyResult(status: Outcome['status'], utr: string | null, k: Known): MoneyResult {
  return {
    txnId: k.txnId,
    ...(k.amountPaise !== null ? { amountPaise: k.amountPaise } : {}),
    utr: status === 'success' ? utr : null,
    commissionPaise: status === 'failed' ? 0 : k.commissionPaise,
  };
}

/**
 * Our outcome of a Setu payment answer. The message says `what` succeeded, failed `failedAt` with Setu's
 * reason `why`, or is still `partnerStatus` at Setu (a pending outcome follows by webhook or enquiry).
 */
export function setuOutcome(o: { status: Outcome['status']; what: string; failedAt: string; partnerStatus: unknown; why: string | null; money: MoneyResult; partnerRef: unknown }): PartnerOutcome {
  const message =
    o.status === 'success'
      ? `${o.what} successful`
      : o.status === 'failed'
        ? `${o.what} failed ${o.failedAt}${o.why ? `: ${o.why}` : ''}`
        : `${o.what} ${typeof o.partnerStatus === 'string' ? o.partnerStatus : 'in progress'} at Setu; the outcome will follow`;
  const partnerRef = text(o.partnerRef);
  return { status: o.status, message, money: o.money, ...(partnerRef ? { partnerRef } : {}) };
}
