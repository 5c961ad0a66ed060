// Owns the translation between our terms and RazorpayX Payouts (PARTNERS.md §2): the create-payout
// request in its own field names (composite form: the VPA fund account and its contact inline), the
// payout, error and webhook shapes it answers with, its status mapping (CONTRACT §9), and the mapping
// of a payout to our PartnerOutcome and typed result (our txn id, the amount in paise, the payout's UTR);
// the fund account validation request (a VPA or a bank account) and the mapping of a validation to the
// name check's VpaHolder or to a payee verification's PartnerOutcome (PARTNERS.md §9.1).
import type { MoneyResult, Outcome, PartnerEvent, PartnerOutcome, PartnerReport, PayeeResult, Reversal, VpaHolder } from '../connector.js';

// ---- RazorpayX's shapes, in its names ------------------------------------------------------------

/** The documented statuses [P §2.7]; anything else is a status we do not know. */
export type RzpPayoutStatus = 'queued' | 'pending' | 'scheduled' | 'processing' | 'processed' | 'reversed' | 'cancelled' | 'rejected' | 'failed' | (string & {});

export interface RzpStatusDetails {
  description?: string | null;
  source?: string | null;
  reason?: string | null;
}

/** A payout entity (create answer, GET /v1/payouts/{id}, a webhook's payload.payout.entity) [P §2.4]. */
export interface RzpPayout {
  id: string;
  entity: 'payout';
  fund_account_id?: string;
  amount: number;
  currency?: string;
  status: RzpPayoutStatus;
  /** Set once the bank gives it; null before. */
  utr?: string | null;
  mode?: string;
  purpose?: string;
  reference_id?: string | null;
  narration?: string | null;
  status_details?: RzpStatusDetails | null;
  fees?: number;
  tax?: number;
  created_at?: number;
}

/** The composite create-payout body: `fund_account` inline instead of `fund_account_id` [P §2.4]. */
export interface RzpCreatePayoutRequest {
  account_number: string;
  amount: number;
  currency: 'INR';
  mode: 'UPI';
  purpose: 'payout';
  queue_if_low_balance: boolean;
  reference_id: string;
  fund_account: {
    account_type: 'vpa';
    vpa: { address: string };
    contact: { name: string };
  };
}

/** Every error answer [P §2.8]. */
export interface RzpErrorBody {
  error?: { code?: string; description?: string; source?: string; step?: string | null; reason?: string | null; field?: string | null };
}

/** A webhook envelope [P §2.9, §9.1]. */
export interface RzpWebhookEvent {
  entity: 'event';
  account_id?: string;
  event: string;
  contains?: string[];
  payload?: { payout?: { entity?: RzpPayout }; 'fund_account.validation'?: { entity?: RzpValidation } };
  /** Unix seconds. */
  created_at?: number;
}

// ---- Our choices for the request -----------------------------------------------------------------

/**
 * The contact every payout's fund account hangs on. Sangam is not told the payee's name, and the
 * documented rules (3–50 of `a-z A-Z 0-9 space ’ - _ / ( ) .`, not ending in a special character
 * other than `.`) rule out using the VPA as the name (`_`, `@`, a trailing `-`). A fixed name is
 * deduplicated by RazorpayX into one contact with one fund account per VPA.
 */
export const CONTACT_NAME = 'Sangam UPI Payee';

/** [P] the smallest payout: 100 paise. */
export const MIN_AMOUNT_PAISE = 100;
/** [P] vpa.address: 3–100 of `a-z A-Z 0-9 . -` and one `@`. */
const VPA = /^[a-zA-Z0-9.-]+@[a-zA-Z0-9.-]+$/;

/** Why RazorpayX would refuse this payout before executing it, or null; checked before anything is sent. */
export function refusalOf(vpa: string, amountPaise: number): string | null {
  if (!Number.isInteger(amountPaise) || amountPaise < MIN_AMOUNT_PAISE) return 'RazorpayX pays at least ₹1.00 per UPI payout';
  if (vpa.length < 3 || vpa.length > 100 || !VPA.test(vpa)) return 'RazorpayX takes a VPA of 3 to 100 letters, digits, dots and hyphens around one @';
  return null;
}

/**
 * The create-payout body. A pure function of the transaction and the business account, so the same
 * transaction always sends the same bytes (a replay under the same X-Payout-Idempotency must carry the
 * same body). `queue_if_low_balance` is false: a business account too low to pay is refused at once
 * (nothing executed; the client is told and charged nothing) rather than queued for an unknown time
 * with the client's funds held.
 */
export function createPayoutBody(req: { txnId: string; vpa: string; amountPaise: number }, accountNumber: string): RzpCreatePayoutRequest {
  return {
    account_number: accountNumber,
    amount: req.amountPaise,
    currency: 'INR',
    mode: 'UPI',
    purpose: 'payout',
    queue_if_low_balance: false,
    reference_id: req.txnId,
    fund_account: { account_type: 'vpa', vpa: { address: req.vpa }, contact: { name: CONTACT_NAME } },
  };
}

// ---- Mapping answers to ours ---------------------------------------------------------------------

/** CONTRACT §9 [firm]; `reversed` is a success undone (see reversalOf). Unknown → pending, never success. */
export function statusOf(s: RzpPayoutStatus): Outcome['status'] {
  switch (s) {
    case 'processed':
    case 'reversed':
      return 'success';
    case 'failed':
    case 'rejected':
    case 'cancelled':
      return 'failed';
    default: // queued, pending, scheduled, processing, and anything not documented
      return 'pending';
  }
}

/** Our transaction ids (`txn_…`); a payout made elsewhere (the Dashboard) carries someone else's reference. */
export const ourTxnId = (ref: unknown): string | null => (typeof ref === 'string' && /^txn_[0-9A-Za-z]{1,40}$/.test(ref) ? ref : null);

/** A parsed body that is a payout we can read (an id and a status), or null. */
export function asPayout(v: unknown): RzpPayout | null {
  const p = v as Partial<RzpPayout> | null;
  if (!p || typeof p !== 'object' || typeof p.id !== 'string' || !p.id || typeof p.status !== 'string') return null;
  return p as RzpPayout;
}

/** [P §9.3] `{"entity": "collection", "count", "items": [payout…]}`; null when it is not one, or an item is unreadable. */
export function asPayoutList(v: unknown): RzpPayout[] | null {
  const c = v as { items?: unknown } | null;
  if (!c || typeof c !== 'object' || !Array.isArray(c.items)) return null;
  const items = c.items.map(asPayout);
  return items.every((p) => p !== null) ? (items as RzpPayout[]) : null;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** Our result: our txn id (when known), the amount in paise (when whole), the payout's UTR. */
export function moneyOf(p: { amount?: number | null; utr?: string | null }, txnId: string | null): MoneyResult {
  return {
    ...(txnId ? { txnId } : {}),
    ...(typeof p.amount === 'number' && Number.isInteger(p.amount) ? { amountPaise: p.amount } : {}),
    utr: text(p.utr),
  };
}

export function outcomeOf(p: RzpPayout, txnId: string | null): PartnerOutcome {
  const status = statusOf(p.status);
  const detail = text(p.status_details?.description);
  const message =
    status === 'success'
      ? (detail ?? 'Payout processed')
      : status === 'failed'
        ? (detail ?? `Payout ${p.status} at RazorpayX`)
        : `Payout ${p.status} at RazorpayX${detail ? `: ${detail}` : ''}; the outcome will follow`;
  return { status, message, money: moneyOf(p, txnId), partnerRef: p.id };
}

/** The reversal of a `reversed` payout: why (its status details) and when (`at`, as the caller knows it). */
export function reversalOf(p: RzpPayout, at: Date): Reversal | undefined {
  if (p.status !== 'reversed') return undefined;
  const reason = text(p.status_details?.description) ?? text(p.status_details?.reason) ?? 'Payout reversed by RazorpayX';
  return { reason, at };
}

/** A status enquiry's answer. A payout entity carries no reversal time: `now` (when we learnt it) stands in. */
export function reportOf(p: RzpPayout, txnId: string | null, now = new Date()): PartnerReport<PartnerOutcome> {
  const reversal = reversalOf(p, now);
  return { txnId: ourTxnId(p.reference_id) ?? txnId, partnerRef: p.id, outcome: outcomeOf(p, ourTxnId(p.reference_id) ?? txnId), ...(reversal ? { reversal } : {}) };
}

/**
 * A verified webhook as events: one for a `payout.*` event with a payout entity, one for a
 * `fund_account.validation.*` event of a payee verification (validationEventsOf), none for anything
 * else (payout.downtime.*, events we do not subscribe to) — acknowledged, so RazorpayX stops retrying.
 * The payout's status, not the event name, decides (payout.updated carries any status).
 */
export function eventsOf(ev: RzpWebhookEvent, eventId: string): PartnerEvent<PartnerOutcome>[] {
  if (typeof ev?.event === 'string' && ev.event.startsWith('fund_account.validation.')) return validationEventsOf(ev, eventId);
  const p = asPayout(ev?.payload?.payout?.entity);
  if (!p || typeof ev.event !== 'string' || !ev.event.startsWith('payout.')) return [];
  const txnId = ourTxnId(p.reference_id);
  const at = Number.isFinite(ev.created_at) ? new Date(ev.created_at! * 1000) : new Date();
  const reversal = reversalOf(p, at);
  return [{ eventId, txnId, partnerRef: p.id, outcome: outcomeOf(p, txnId), ...(reversal ? { reversal } : {}) }];
}

/** RazorpayX's own words for a refusal, trimmed; never anything of ours. */
export function errorDescription(body: RzpErrorBody | null): string | null {
  const d = text(body?.error?.description);
  return d ? d.slice(0, 200) : null;
}

// ---- Fund account validation of a VPA (the payout name check; PARTNERS.md §9.1) ----------------

/** [P §9.1] `created` awaits the bank, `completed` has results, `failed` is a technical failure (no verdict). */
export type RzpValidationStatus = 'created' | 'completed' | 'failed' | (string & {});

/** [P §9.1] the results object: `validation_results` in current create answers, `results` in fetch/webhook samples. */
export interface RzpValidationResults {
  /** `active` or `invalid`; `""` or null on a failed or unfinished validation. */
  account_status?: string | null;
  registered_name?: string | null;
  details?: string | null;
  name_match_score?: number | string | null;
  validated_account_type?: string | null;
  /** The account validated (behind a VPA: the account it resolves to). */
  bank_account?: { bank_routing_code?: string | null; ifsc?: string | null; account_number?: string | null; bank_name?: string | null; account_type?: string | null } | null;
}

/** A `fund_account.validation` entity (create answer, GET /v1/fund_accounts/validations/{id}) [P §9.1]. */
export interface RzpValidation {
  id: string;
  entity: 'fund_account.validation';
  status: RzpValidationStatus;
  validation_results?: RzpValidationResults | null;
  results?: RzpValidationResults | null;
  status_details?: RzpStatusDetails | null;
  reference_id?: string | null;
  fund_account?: { account_type?: string } | null;
  /** The penny drop's UTR once completed (null before, and for a VPA in the samples). */
  utr?: string | null;
}

/**
 * The current (composite) request shape [P §9.1 `api/x/account-validation/vpa.md`]: the fund account
 * inline, a VPA or a bank account (composite-account-validation.md: "Validate a Bank Account: Creates
 * and validates the contact's bank account"; its object as api/x/fund-accounts/create/bank-account.md).
 */
export interface RzpValidationRequest {
  source_account_number: string;
  validation_type: 'pennydrop';
  reference_id?: string;
  fund_account:
    | { account_type: 'vpa'; vpa: { address: string }; contact: { name: string } }
    | { account_type: 'bank_account'; bank_account: { name: string; ifsc: string; account_number: string }; contact: { name: string } };
}

/**
 * The validation body. `source_account_number` is the RazorpayX Lite customer identifier (FAV_ACCOUNT_NUMBER:
 * "Pass your customer identifier if you want money to be deducted from RazorpayX Lite"; validation "is
 * possible only for RazorpayX Lite", api/x/account-validation.md); the contact is the payouts' fixed one,
 * so RazorpayX keeps one fund account per VPA.
 */
export function validationBody(vpa: string, accountNumber: string): RzpValidationRequest {
  return {
    source_account_number: accountNumber,
    validation_type: 'pennydrop',
    fund_account: { account_type: 'vpa', vpa: { address: vpa }, contact: { name: CONTACT_NAME } },
  };
}

/** A parsed body that is a validation we can read (an id and a status), or null. */
export function asValidation(v: unknown): RzpValidation | null {
  const f = v as Partial<RzpValidation> | null;
  if (!f || typeof f !== 'object' || typeof f.id !== 'string' || !f.id || typeof f.status !== 'string') return null;
  return f as RzpValidation;
}

/** What a validation says so far: the holder, still waiting on the bank, or failed (no verdict on the VPA). */
export type ValidationState = { kind: 'holder'; holder: VpaHolder } | { kind: 'waiting' } | { kind: 'failed'; reason: string };

/**
 * [P §9.1] Only `completed` is a verdict, and then only `account_status` `active` is a VPA that exists
 * (FAQ 13: completed with a null status and name is invalid). `failed` is a technical failure, never
 * "the VPA does not exist". Anything else (`created`, an undocumented status) is still waiting.
 */
export function validationStateOf(f: RzpValidation): ValidationState {
  if (f.status === 'failed') return { kind: 'failed', reason: text(f.status_details?.description) ?? 'the validation failed at RazorpayX' };
  if (f.status !== 'completed') return { kind: 'waiting' };
  const r = f.validation_results ?? f.results ?? {};
  if (r.account_status !== 'active') return { kind: 'holder', holder: { exists: false, name: null } };
  return { kind: 'holder', holder: { exists: true, name: text(r.registered_name) } };
}

// ---- Fund account validation as a payee verification (account-verification, vpa-verification) ---

/**
 * [P api/x/fund-accounts/create/bank-account.md] `bank_account.name` is mandatory (3–120 characters).
 * The client's `name` is not sent: it may hold characters RazorpayX refuses (any Indian script), and
 * Sangam compares names itself (CONTRACT §11) with the bank's `registered_name`. One fixed name keeps
 * one fund account per account number and IFSC under the one contact.
 */
export const ACCOUNT_HOLDER_PLACEHOLDER = 'Sangam Payee';

/** [P] bank_account.account_number: 5–35 of a-z A-Z 0-9; ifsc: 11 characters. */
const ACCOUNT_NUMBER = /^[a-zA-Z0-9]{5,35}$/;

/** Why RazorpayX would refuse this bank account before validating it, or null; checked before anything is sent. */
export function bankRefusalOf(accountNumber: string, ifsc: string): string | null {
  if (!ACCOUNT_NUMBER.test(accountNumber)) return 'RazorpayX takes an account number of 5 to 35 letters and digits';
  if (ifsc.length !== 11) return 'RazorpayX takes an IFSC of 11 characters';
  return null;
}

export type PayeeRequest = { txnId: string } & ({ operation: 'account-verification'; accountNumber: string; ifsc: string } | { operation: 'vpa-verification'; vpa: string });

/**
 * The validation body of a payee verification: as the name check's, with `reference_id` = our
 * transaction id (documented, optional, ≤ 40), so a listing finds it when the create's answer was lost.
 * No idempotency header is documented for validations (PARTNERS.md §9.1).
 */
export function payeeValidationBody(req: PayeeRequest, accountNumber: string): RzpValidationRequest {
  const contact = { name: CONTACT_NAME };
  const fund_account: RzpValidationRequest['fund_account'] =
    req.operation === 'vpa-verification'
      ? { account_type: 'vpa', vpa: { address: req.vpa }, contact }
      : { account_type: 'bank_account', bank_account: { name: ACCOUNT_HOLDER_PLACEHOLDER, ifsc: req.ifsc, account_number: req.accountNumber }, contact };
  return { source_account_number: accountNumber, validation_type: 'pennydrop', reference_id: req.txnId, fund_account };
}

/** [P §9.1] `{"entity": "collection", "count", "items": [validation…]}`; null when it is not one, or an item is unreadable. */
export function asValidationList(v: unknown): RzpValidation[] | null {
  const c = v as { items?: unknown } | null;
  if (!c || typeof c !== 'object' || !Array.isArray(c.items)) return null;
  const items = c.items.map(asValidation);
  return items.every((f) => f !== null) ? (items as RzpValidation[]) : null;
}

export type PayeeKind = 'bankAccount' | 'vpa';

/** Which verification a validation answers: by its fund account's type (a bank account, or a VPA). */
export const payeeKindOf = (f: RzpValidation): PayeeKind => (f.fund_account?.account_type === 'bank_account' ? 'bankAccount' : 'vpa');

/** A verification's typed result under its kind's name. */
export const payeeResult = (kind: PayeeKind, p: PayeeResult): { bankAccount: PayeeResult } | { vpa: PayeeResult } => (kind === 'bankAccount' ? { bankAccount: p } : { vpa: p });

/** What a completed validation found, in our terms (only `active` is valid; FAQ 13: completed with nothing is invalid). */
function payeeFound(f: RzpValidation, kind: PayeeKind): PayeeResult {
  const r = f.validation_results ?? f.results ?? {};
  const valid = r.account_status === 'active';
  const found: PayeeResult = { status: valid ? 'valid' : 'invalid', nameAtBank: text(r.registered_name) };
  if (!valid) found.reason = text(r.details) ?? 'RazorpayX found the account invalid';
  if (kind === 'bankAccount') {
    found.method = 'penny_drop';
    const utr = text(f.utr);
    if (utr) found.utr = utr;
  } else if (valid) {
    const ifsc = text(r.bank_account?.bank_routing_code) ?? text(r.bank_account?.ifsc);
    const type = text(r.bank_account?.account_type);
    if (ifsc) found.ifsc = ifsc;
    if (type) found.accountType = type;
  }
  return found;
}

/**
 * A validation as a payee verification's outcome. `completed` is a finished check, whatever it found:
 * `success` with `valid` or `invalid` (the fee is paid either way). `failed` is RazorpayX unable to
 * check (a technical error; its charge is reversed): `failed` with `unknown`. Anything else is pending.
 */
export function payeeOutcomeOf(f: RzpValidation, kind: PayeeKind): PartnerOutcome {
  const what = kind === 'bankAccount' ? 'bank account' : 'VPA';
  const result = (p: PayeeResult) => payeeResult(kind, p);
  if (f.status === 'completed') {
    const found = payeeFound(f, kind);
    return { status: 'success', message: found.status === 'valid' ? `The ${what} is valid` : `The ${what} is invalid`, partnerRef: f.id, ...result(found) };
  }
  if (f.status === 'failed') {
    const reason = text(f.status_details?.description) ?? 'the validation failed at RazorpayX';
    return { status: 'failed', message: `RazorpayX could not validate the ${what}: ${reason}`, partnerRef: f.id, ...result({ status: 'unknown', reason, nameAtBank: null }) };
  }
  return { status: 'pending', message: `RazorpayX is validating the ${what}; the outcome will follow`, partnerRef: f.id, ...result({ status: 'unknown', nameAtBank: null }) };
}

/** A validation as a status enquiry's report; our txn id from its `reference_id` where it carries ours. */
export function payeeReportOf(f: RzpValidation, txnId: string | null): PartnerReport<PartnerOutcome> {
  return { txnId: ourTxnId(f.reference_id) ?? txnId, partnerRef: f.id, outcome: payeeOutcomeOf(f, payeeKindOf(f)) };
}

/**
 * A `fund_account.validation.*` webhook: an event for a payee verification's validation (its
 * `reference_id` is our transaction id); none for the payout name check's, which carry no reference and
 * are read by polling (validation.ts).
 */
function validationEventsOf(ev: RzpWebhookEvent, eventId: string): PartnerEvent<PartnerOutcome>[] {
  const f = asValidation(ev.payload?.['fund_account.validation']?.entity);
  const txnId = f ? ourTxnId(f.reference_id) : null;
  if (!f || !txnId) return [];
  return [{ eventId, ...payeeReportOf(f, txnId) }];
}
