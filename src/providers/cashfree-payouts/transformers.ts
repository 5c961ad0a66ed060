// Owns the translation between our terms and Cashfree Payouts V2 (PARTNERS.md §3): the Standard
// Transfer V2 request in its own field names (a UPI transfer to a VPA given inline), the transfer,
// error and Webhooks V2 shapes it answers with, its status mapping (§3.4), the exact conversion between
// our integer paise and its rupee amounts, and the mapping of a transfer to our PartnerOutcome and
// typed result (our txn id, the amount in paise, the transfer's UTR).
import type { MoneyResult, Outcome, PartnerEvent, PartnerOutcome, PartnerReport, Reversal, VpaHolder } from '../connector.js';

// ---- Cashfree's shapes, in its names ------------------------------------------------------------

/** The documented statuses [P §3.4]; anything else is a status we do not know. */
export type CfTransferStatus =
  | 'RECEIVED'
  | 'APPROVAL_PENDING'
  | 'QUEUED'
  | 'PENDING'
  | 'SUCCESS'
  | 'FAILED'
  | 'REJECTED'
  | 'REVERSED'
  | 'MANUALLY_REJECTED'
  | (string & {});

/** A transfer (create answer, GET /transfers, a webhook's `data`) [P §3.2, §3.3, §3.7]. */
export interface CfTransfer {
  transfer_id: string;
  cf_transfer_id?: string;
  status: CfTransferStatus;
  status_code?: string;
  status_description?: string;
  beneficiary_details?: { beneficiary_id?: string; beneficiary_instrument_details?: { vpa?: string } };
  /** Rupees, a double. */
  transfer_amount?: number;
  transfer_service_charge?: number;
  transfer_service_tax?: number;
  transfer_mode?: string;
  /** Set once the bank gives it. */
  transfer_utr?: string;
  fundsource_id?: string;
  /** ISO 8601, UTC (`2021-11-24T13:39:25Z`). */
  added_on?: string;
  updated_on?: string;
}

/** Standard Transfer V2 with the beneficiary inline (no pre-created beneficiary_id) [P §3.2]. */
export interface CfTransferRequest {
  transfer_id: string;
  /** Rupees; built exactly from paise (rupeesOf). */
  transfer_amount: number;
  transfer_currency: 'INR';
  transfer_mode: 'upi';
  beneficiary_details: {
    beneficiary_name: string;
    beneficiary_instrument_details: { vpa: string };
  };
  transfer_remarks: string;
}

/** Every error answer [P §3.5]. */
export interface CfErrorBody {
  type?: string;
  code?: string;
  message?: string;
}

/** A Webhooks V2 body [P-org §3.7]. */
export interface CfWebhookEvent {
  type: string;
  /** India time without a zone (`2024-07-25T17:43:37`) [G: the zone]. */
  event_time?: string;
  data?: CfTransfer;
}

// ---- Our choices for the request -----------------------------------------------------------------

/**
 * The beneficiary name every transfer carries. Sangam is not told the payee's name; the field is
 * required when no beneficiary_id is sent and takes letters and spaces only [P], so the VPA cannot
 * stand in for it.
 */
export const BENEFICIARY_NAME = 'Sangam UPI Payee';
/** [P] ≤ 70 letters, digits and spaces. */
export const REMARKS = 'Sangam UPI payout';
/** [P] transfer_amount ≥ 1.00. */
export const MIN_AMOUNT_PAISE = 100;
/** [P] `[A-Za-z0-9._-]` and one `@`, `-` only before the `@`. */
const VPA = /^[A-Za-z0-9._-]+@[A-Za-z0-9._]+$/;
/** [P] transfer_id: ≤ 40 of letters, digits and `_`. Our transaction ids (`txn_` + 20) fit as they are. */
const TRANSFER_ID = /^[A-Za-z0-9_]{1,40}$/;

/** Why Cashfree would refuse this transfer before executing it, or null; checked before anything is sent. */
export function refusalOf(transferId: string, vpa: string, amountPaise: number): string | null {
  if (!Number.isSafeInteger(amountPaise) || amountPaise < MIN_AMOUNT_PAISE) return 'Cashfree pays at least ₹1.00 per transfer';
  if (vpa.length > 100 || !VPA.test(vpa)) return 'Cashfree takes a VPA of letters, digits, dots, underscores and hyphens (hyphens only before the @) around one @';
  if (!TRANSFER_ID.test(transferId)) return 'the transaction id is not a valid Cashfree transfer_id';
  return null;
}

/**
 * Integer paise as the rupee number Cashfree takes. Built from the decimal text (`12345` → `123.45`), so
 * the number on the wire is the one whose shortest form is exactly those digits; no float arithmetic.
 */
export function rupeesOf(paise: number): number {
  if (!Number.isSafeInteger(paise) || paise < 0) throw new RangeError(`not an amount in paise: ${paise}`);
  return Number(`${Math.trunc(paise / 100)}.${String(paise % 100).padStart(2, '0')}`);
}

/**
 * A rupee amount from Cashfree as integer paise, read from its shortest decimal form (`100.5` → 10050),
 * or null when it is not an amount with at most 2 decimals.
 */
export function paiseOf(rupees: unknown): number | null {
  if (typeof rupees !== 'number' || !Number.isFinite(rupees) || rupees < 0) return null;
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(String(rupees));
  if (!m) return null;
  const paise = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(paise) ? paise : null;
}

/**
 * The Standard Transfer V2 body. A pure function of the transaction, so every attempt of one
 * transaction sends the same body under the same transfer_id (a replay must not differ).
 */
export function transferBody(req: { txnId: string; vpa: string; amountPaise: number }): CfTransferRequest {
  return {
    transfer_id: req.txnId,
    transfer_amount: rupeesOf(req.amountPaise),
    transfer_currency: 'INR',
    transfer_mode: 'upi',
    beneficiary_details: { beneficiary_name: BENEFICIARY_NAME, beneficiary_instrument_details: { vpa: req.vpa } },
    transfer_remarks: REMARKS,
  };
}

// ---- Mapping answers to ours ---------------------------------------------------------------------

/** [P §3.4]; `REVERSED` is a success undone (see reversalOf). Unknown → pending, never success. */
export function statusOf(s: CfTransferStatus): Outcome['status'] {
  switch (s) {
    case 'SUCCESS':
    case 'REVERSED':
      return 'success';
    case 'FAILED':
    case 'REJECTED':
    case 'MANUALLY_REJECTED':
      return 'failed';
    default: // RECEIVED, APPROVAL_PENDING, QUEUED, PENDING, and anything not documented
      return 'pending';
  }
}

/** Our transaction ids (`txn_…`); a transfer made elsewhere (the Dashboard) carries someone else's id. */
export const ourTxnId = (id: unknown): string | null => (typeof id === 'string' && /^txn_[0-9A-Za-z]{1,36}$/.test(id) ? id : null);

/** A parsed body that is a transfer we can read (its transfer_id and a status), or null. */
export function asTransfer(v: unknown): CfTransfer | null {
  const t = v as Partial<CfTransfer> | null;
  if (!t || typeof t !== 'object' || typeof t.transfer_id !== 'string' || !t.transfer_id || typeof t.status !== 'string' || !t.status) return null;
  return t as CfTransfer;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** Cashfree's own id, kept as our partner reference. */
const refOf = (t: CfTransfer): string | undefined => text(t.cf_transfer_id) ?? undefined;

/** Our result: our txn id (when known), the amount in paise, the transfer's UTR. */
export function moneyOf(t: { transfer_amount?: unknown; transfer_utr?: unknown }, txnId: string | null, fallbackPaise: number | null = null): MoneyResult {
  const paise = paiseOf(t.transfer_amount) ?? fallbackPaise;
  return {
    ...(txnId ? { txnId } : {}),
    ...(paise !== null ? { amountPaise: paise } : {}),
    utr: text(t.transfer_utr),
  };
}

/** `SENT_TO_BENEFICIARY` → `sent to beneficiary`, for messages. */
const words = (code: string | undefined) => (text(code) ?? '').toLowerCase().replace(/_/g, ' ');

export function outcomeOf(t: CfTransfer, txnId: string | null): PartnerOutcome {
  const status = statusOf(t.status);
  const code = words(t.status_code);
  const message =
    status === 'success'
      ? 'Transfer successful'
      : status === 'failed'
        ? `Transfer ${t.status.toLowerCase().replace(/_/g, ' ')} at Cashfree${code ? `: ${code}` : ''}`
        : `Transfer ${t.status.toLowerCase().replace(/_/g, ' ')} at Cashfree; the outcome will follow`;
  const partnerRef = refOf(t);
  return { status, message, money: moneyOf(t, txnId), ...(partnerRef ? { partnerRef } : {}) };
}

/** A `2024-07-25T17:43:37` event time (India, no zone [G]) as a Date, or null. */
export function eventTime(v: unknown): Date | null {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(v)) return null;
  const d = new Date(`${v}+05:30`);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A transfer's own ISO time (`updated_on`, with its zone) as a Date, or null. */
function isoTime(v: unknown): Date | null {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(v)) return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * The reversal of a `REVERSED` transfer: why (its description or status code) and when (its
 * `updated_on`, else the time the caller gives: the event's, or now).
 */
export function reversalOf(t: CfTransfer, at: Date): Reversal | undefined {
  if (t.status !== 'REVERSED') return undefined;
  const reason = text(t.status_description) ?? (text(t.status_code) ? `Transfer reversed by the bank: ${words(t.status_code)}` : 'Transfer reversed by Cashfree');
  return { reason, at: isoTime(t.updated_on) ?? at };
}

/** A status enquiry's answer. */
export function reportOf(t: CfTransfer, txnId: string | null, now = new Date()): PartnerReport<PartnerOutcome> {
  const ours = ourTxnId(t.transfer_id) ?? txnId;
  const reversal = reversalOf(t, now);
  return { txnId: ours, partnerRef: refOf(t) ?? null, outcome: outcomeOf(t, ours), ...(reversal ? { reversal } : {}) };
}

/**
 * The de-duplication key of a webhook. Cashfree documents no event id [G]: an event is identified by
 * what it says — its type, the transfer and the state it reports (PARTNERS.md §3.7 suggests
 * transfer_id, type, status_code). A redelivery carries a fresh timestamp and signature but says the
 * same, so it maps to the same key; a genuinely new state of the same transfer maps to a new one.
 */
export const eventIdOf = (type: string, t: CfTransfer): string => `${type}:${t.transfer_id}:${t.status}:${text(t.status_code) ?? '-'}`;

/**
 * A verified webhook as events: one for a `TRANSFER_*` event carrying a transfer, none for anything
 * else (LOW_BALANCE_ALERT, BENEFICIARY_INCIDENT, CREDIT_CONFIRMATION, BULK_TRANSFER_REJECTED) —
 * acknowledged, so Cashfree stops retrying. The transfer's status, not the event name, decides.
 */
export function eventsOf(ev: CfWebhookEvent): PartnerEvent<PartnerOutcome>[] {
  const t = asTransfer(ev?.data);
  if (!t || typeof ev.type !== 'string' || !ev.type.startsWith('TRANSFER_')) return [];
  const txnId = ourTxnId(t.transfer_id);
  const reversal = reversalOf(t, eventTime(ev.event_time) ?? new Date());
  return [{ eventId: eventIdOf(ev.type, t), txnId, partnerRef: refOf(t) ?? null, outcome: outcomeOf(t, txnId), ...(reversal ? { reversal } : {}) }];
}

/** Cashfree's own words for a refusal, trimmed; never anything of ours. */
export function errorDescription(body: unknown): string | null {
  const b = body as CfErrorBody | null;
  const m = text(b?.message);
  const c = text(b?.code);
  const d = m && c ? `${c}: ${m}` : (m ?? c);
  return d ? d.slice(0, 200) : null;
}

// ---- Validate Payout V2: the VPA's holder (the payout name check) ---------------------------------

/** [P] `POST /payout/validatePayout` (cashfree.com api-reference/payouts/v2/validate-payout-v2): transfer_id and exactly one of vpa | phone. */
export interface CfValidatePayoutRequest {
  transfer_id: string;
  vpa: string;
}

/** [P] `{transfer_token, vpa, account_status, name_at_bank}`; the token is "Empty string when account_status is INVALID". */
export interface CfValidatePayoutAnswer {
  transfer_token?: string;
  vpa?: string;
  account_status?: 'VALID' | 'INVALID' | (string & {});
  name_at_bank?: string | null;
}

/**
 * The validation's own transfer_id, never the payout's: the documented use of the answer's token is a
 * "Process Validated Payout" under the same transfer_id, and Sangam pays by a plain Standard Transfer
 * under its transaction id instead [G: whether a validation reserves its transfer_id is not documented,
 * so the two never share one]. `nc_` + 24 base62 fits ≤ 40 letters, digits and `_`.
 */
export const validationTransferId = (random: string): string => `nc_${random}`;

/**
 * The holder an answer gives: VALID exists (with its `name_at_bank`), INVALID does not; anything else is
 * no verdict, null (the caller makes it a PartnerError, never a guess).
 */
export function holderOfValidation(v: unknown): VpaHolder | null {
  const a = v as CfValidatePayoutAnswer | null;
  if (!a || typeof a !== 'object') return null;
  if (a.account_status === 'VALID') return { exists: true, name: text(a.name_at_bank) };
  if (a.account_status === 'INVALID') return { exists: false, name: null };
  return null;
}
