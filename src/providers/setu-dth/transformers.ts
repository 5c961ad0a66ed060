// Owns the translation between our terms and Setu's BBPS BillPay v2 for DTH (PARTNERS.md §4.7): its
// billers, bill fetch and payment requests and answers in its own field names, the BILL_PAY webhook
// envelope, the mapping of its DTH billers to our operator codes (CONTRACT §3: AD DT SD TS VD) by their
// names — a biller we do not map is never guessed at —, the status mapping and the Outcome with our
// result fields (`txn_id`, `amount` and `commission` in INR, `utr` the biller's reference).
// §4.7 documents the endpoints, the async refId pattern, the webhook envelope and the BILL_PAY data;
// the biller, fetch and request field names beyond those are [G] (the emulator's, marked there too).
import { PartnerError, type DthSubscriber, type Outcome, type Reversal } from '../connector.js';
import { errorText, resultFields, setuOutcome, text, type Known, type SetuError } from '../setu/transformers.js';

// ---- Setu BBPS shapes, in its names --------------------------------------------------------------

/** [G] BBPS's `{code, message}`; its envelope is Setu's, with `traceId` (../setu/transformers.ts). */
export type BbpsError = SetuError;

/** [G] one customer parameter a biller asks for (its name, and the value's rule). */
export interface BbpsCustomerParam {
  name?: string;
  minLength?: number;
  maxLength?: number;
  regex?: string;
  optional?: boolean;
}

/** [P] GET /api/v2/bbps/billers (category DTH); [G] its fields. */
export interface BbpsBiller {
  id?: string;
  name?: string;
  categoryName?: string;
  status?: string;
  customerParams?: BbpsCustomerParam[];
}

export interface BbpsBillParameter {
  name: string;
  value: string;
}

/** POST /api/v2/bbps/bills/fetch/request [P path; G body]. */
export interface BbpsFetchRequest {
  biller: { id: string };
  customer: { mobile: string; billParameters: BbpsBillParameter[] };
}

/** POST …/fetch/response → data [G]: the subscriber as the biller knows them. */
export interface BbpsFetchResponse {
  refId?: string;
  status?: 'Processing' | 'Success' | 'Failure' | (string & {});
  billerId?: string;
  bills?: Array<{ amount?: number; customerName?: string; dueDate?: string; planId?: string; additionalInfo?: BbpsBillParameter[] }>;
  failureReason?: BbpsError;
}

/** POST /api/v2/bbps/bills/payment/request [P path; G body, after the documented BILL_PAY paymentDetails]. */
export interface BbpsPaymentRequest {
  refId: string;
  paymentDetails: { mode: string; paymentRefId: string; amount: number; timestamp: string };
}

/** [P] BILL_PAY statuses; [G] Processing while pending. */
/** What a status enquiry or a webhook needs later (kept in the partner sessions before paying): the fetch's refId, the body, our amounts. */
export interface StoredPayment {
  refId: string;
  body: BbpsPaymentRequest;
  amountPaise: number;
  commissionPaise: number;
}

export type BbpsPayStatus = 'Success' | 'Failure' | 'Credit_Adjustment' | 'Processing' | (string & {});

/** [P] the BILL_PAY data (also the answer of …/payment/response). */
export interface BbpsPayment {
  refId?: string;
  status?: BbpsPayStatus;
  billerRefId?: string;
  transactionId?: string;
  failureReason?: BbpsError;
  paymentDetails?: { mode?: string; paymentRefId?: string; amount?: number; timestamp?: string };
  billerId?: string;
}

/** [P] the webhook envelope. */
export interface BbpsWebhook {
  traceId?: string;
  timeStamp?: string;
  event?: 'BILL_FETCH' | 'BILL_PAY' | (string & {});
  data?: BbpsPayment;
  error?: BbpsError & { refId?: string };
}

/** [G] the payment modes (the prepaid API's documented list; BBPS adds others). */
export const PAYMENT_MODES = ['Internet Banking', 'UPI', 'Debit Card', 'Credit Card', 'Wallet', 'Prepaid Card', 'IMPS', 'NEFT', 'Account Transfer'] as const;

// ---- Billers ↔ our DTH codes ---------------------------------------------------------------------

const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Biller names (squashed) that are our operators: the brands as BBPS lists them, and their former names. */
const OUR_DTH: Readonly<Record<string, string>> = {
  airteldigitaltv: 'AD',
  airteldth: 'AD',
  dishtv: 'DT',
  sundirect: 'SD',
  sundirectdth: 'SD',
  tataplay: 'TS',
  tatasky: 'TS',
  videocond2h: 'VD',
  d2h: 'VD',
};

export const DTH_NAMES: Readonly<Record<string, string>> = { AD: 'Airtel Digital TV', DT: 'Dish TV', SD: 'Sun Direct', TS: 'Tata Play', VD: 'Videocon d2h' };

/** Our code of a biller; a biller we do not map is a PartnerError that names it. */
export function ourDthCode(b: BbpsBiller): string {
  const code = typeof b.name === 'string' ? OUR_DTH[squash(b.name)] : undefined;
  if (!code) throw new PartnerError('unavailable', `Setu's DTH biller "${String(b.name ?? b.id)}" has no Sangam operator code; nothing was executed or debited`);
  return code;
}

/** Billers with the customer parameter we fill in, by our code. */
export interface MappedBiller {
  id: string;
  name: string;
  param: BbpsCustomerParam & { name: string };
}

export interface BillerMap {
  byCode: Map<string, MappedBiller>;
  /** The names of listed billers we have no code for (said when asked for an operator that has none). */
  unmapped: string[];
}

/** Setu's DTH biller list as ours. Billers that are not ACTIVE, or ask for no usable parameter, are left out. */
export function billerMapOf(list: unknown): BillerMap {
  if (!Array.isArray(list)) throw new PartnerError('unavailable', 'Setu answered the biller list without billers; nothing was executed or debited');
  const byCode = new Map<string, MappedBiller>();
  const unmapped: string[] = [];
  for (const b of list as BbpsBiller[]) {
    if (!b || typeof b.id !== 'string' || (b.status !== undefined && b.status !== 'ACTIVE')) continue;
    if (b.categoryName !== undefined && b.categoryName !== 'DTH') continue;
    let code: string;
    try {
      code = ourDthCode(b);
    } catch {
      unmapped.push(String(b.name ?? b.id));
      continue;
    }
    const param = (b.customerParams ?? []).find((p) => typeof p?.name === 'string' && !p.optional);
    if (!param || byCode.has(code)) continue;
    byCode.set(code, { id: b.id, name: String(b.name), param: param as MappedBiller['param'] });
  }
  return { byCode, unmapped };
}

export function billerFor(map: BillerMap, code: string): MappedBiller {
  const b = map.byCode.get(code);
  if (b) return b;
  const others = map.unmapped.length ? `; billers it lists that Sangam has no code for: ${map.unmapped.join(', ')}` : '';
  throw new PartnerError('unavailable', `Setu lists no active DTH biller for ${DTH_NAMES[code] ?? code} (${code})${others}; nothing was executed or debited`);
}

/** Why the biller would refuse this subscriber id (its parameter's length and pattern), or null. */
export function subscriberRefusal(b: MappedBiller, subscriberId: string): string | null {
  const p = b.param;
  const min = typeof p.minLength === 'number' ? p.minLength : 1;
  const max = typeof p.maxLength === 'number' ? p.maxLength : 64;
  let pattern: RegExp | null = null;
  try {
    pattern = typeof p.regex === 'string' && p.regex ? new RegExp(p.regex) : null;
  } catch {
    pattern = null; // a pattern we cannot read: the biller checks it
  }
  if (subscriberId.length < min || subscriberId.length > max || (pattern && !pattern.test(subscriberId))) {
    return `${b.name} takes a ${p.name} of ${min === max ? min : `${min} to ${max}`} characters${pattern ? ` matching ${p.regex}` : ''}`;
  }
  return null;
}

export const fetchBody = (b: MappedBiller, subscriberId: string, customerMobile: string): BbpsFetchRequest => ({
  biller: { id: b.id },
  customer: { mobile: customerMobile, billParameters: [{ name: b.param.name, value: subscriberId }] },
});

export const paymentBody = (refId: string, paymentRefId: string, amountPaise: number, mode: string, timestamp: string): BbpsPaymentRequest => ({
  refId,
  paymentDetails: { mode, paymentRefId, amount: amountPaise, timestamp },
});

// ---- Answers → ours ------------------------------------------------------------------------------

/** [P] Success → success; Credit_Adjustment is a success refunded (see reversalOf); Failure → failed; anything else pending. */
export function statusOf(s: unknown): Outcome['status'] {
  switch (s) {
    case 'Success':
    case 'Credit_Adjustment':
      return 'success';
    case 'Failure':
      return 'failed';
    default:
      return 'pending';
  }
}

/** Our result fields: the biller's reference is the operator's; BBPS's own transaction id when it gave none. */
export const fieldsOf = (status: Outcome['status'], p: BbpsPayment | null, k: Known): Record<string, unknown> =>
  resultFields(status, text(p?.billerRefId) ?? text(p?.transactionId), k);

export function outcomeOf(p: BbpsPayment, k: Known): Outcome {
  const status = statusOf(p.status);
  return setuOutcome({ status, what: 'DTH recharge', failedAt: 'at the biller', partnerStatus: p.status, why: errorText(p.failureReason), fields: fieldsOf(status, p, k), partnerRef: p.refId });
}

/** The refund of a Credit_Adjustment payment: why (its failureReason) and when (now: the answer carries no time of it). */
export function reversalOf(p: BbpsPayment, at = new Date()): Reversal | undefined {
  if (p.status !== 'Credit_Adjustment') return undefined;
  return { reason: errorText(p.failureReason) ?? 'DTH recharge refunded by the biller (BBPS credit adjustment)', at };
}

/** A failed bill fetch: the biller does not know the subscriber (a business failure; nothing was paid). */
export function fetchFailureOf(f: BbpsFetchResponse, k: Known): Outcome {
  const why = errorText(f.failureReason);
  return { status: 'failed', message: `The biller could not find the subscriber${why ? `: ${why}` : ''}; nothing was paid`, fields: fieldsOf('failed', null, k) };
}

/** A bill's additionalInfo value by name (case and spacing ignored), or null. */
function infoOf(bill: NonNullable<BbpsFetchResponse['bills']>[number], name: string): string | null {
  const hit = (Array.isArray(bill.additionalInfo) ? bill.additionalInfo : []).find((i) => typeof i?.name === 'string' && squash(i.name) === squash(name));
  return text(hit?.value);
}

/** "123.50" (rupees, as BBPS writes amounts in additionalInfo [G]) → paise; anything else → null. */
function paiseOfRupees(v: string | null): number | null {
  if (!v || !/^-?[0-9]+(\.[0-9]{1,2})?$/.test(v.replace(/,/g, ''))) return null;
  return Math.round(Number(v.replace(/,/g, '')) * 100);
}

/** YYYY-MM-DD from an ISO date or BBPS's DD-MM-YYYY; anything else → null rather than a guess. */
function isoDateOf(v: string | null): string | null {
  if (!v) return null;
  const iso = /^([0-9]{4})-([0-9]{2})-([0-9]{2})/.exec(v);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const dmy = /^([0-9]{2})[-/]([0-9]{2})[-/]([0-9]{4})$/.exec(v);
  return dmy ? `${dmy[3]}-${dmy[2]}-${dmy[1]}` : null;
}

/**
 * A successful bill fetch as subscriber info [G]: the name is the bill's customerName, the pack its
 * "Current Plan" (else its planId), the balance its "Account Balance" and the next recharge date its
 * "Next Recharge Date" (else the bill's dueDate). A detail the biller leaves out is null.
 */
export function subscriberOf(f: BbpsFetchResponse): DthSubscriber {
  const bill = Array.isArray(f.bills) ? f.bills[0] : undefined;
  if (!bill) return { name: null, pack: null, balancePaise: null, nextRechargeDate: null };
  return {
    name: text(bill.customerName),
    pack: infoOf(bill, 'Current Plan') ?? text(bill.planId),
    balancePaise: paiseOfRupees(infoOf(bill, 'Account Balance')),
    nextRechargeDate: isoDateOf(infoOf(bill, 'Next Recharge Date') ?? text(bill.dueDate)),
  };
}
