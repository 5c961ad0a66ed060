// Owns the translation between our terms and Setu's Prepaid Recharge API (PARTNERS.md §4.1–4.6): its
// requests and answers in its own field names (the `customer.billParameters` list, `paymentDetails`,
// operator details, plans, the recharge data, the payment webhooks), the mapping of its operator ids and
// circle strings to our codes (CONTRACT §3) — one we do not map is a PartnerError that names it, never a
// guess —, the status mapping, and the Outcome. What both Setu products share (the envelope, errors, the
// payment reference, our result fields) is in ../setu/transformers.ts.
import { PartnerError, type MoneyResult, type OperatorLookup, type Outcome, type PartnerOutcome, type RechargePlan, type Reversal } from '../connector.js';
import { errorText, istTimestamp, moneyResult, paymentRefIdOf, setuOutcome, text, type Known, type SetuEnvelope, type SetuError } from '../setu/transformers.js';

// ---- Setu's shapes, in its names -----------------------------------------------------------------

export interface SetuBillParameter {
  name: 'Mobile Number' | 'Operator' | 'Location';
  value: string;
}

/** [P] `customer.mobile` is the mobile of whoever initiates; `billParameters` say what is recharged. */
export interface SetuCustomer {
  billParameters: SetuBillParameter[];
  mobile: string;
}

/** [P] POST /fetch-operator-details → data. */
export interface SetuOperatorDetails {
  mobile_number?: string;
  current_operator?: string;
  current_location?: string;
  previous_operator?: string;
  previous_location?: string;
  ported?: boolean;
}

/** [P] POST /fetch-plans → data[]; `amount` in paise [G: the sample's ₹10 voucher is 1000]. */
export interface SetuPlan {
  amount?: number;
  plan_name?: string;
  plan_description?: string;
  talktime?: string;
  validity?: string;
  service_provider?: string;
}

/** [P] the documented payment modes (exact, case-sensitive). */
export const PAYMENT_MODES = ['Internet Banking', 'UPI', 'Debit Card', 'Credit Card', 'Wallet'] as const;

/** [P] POST /recharge/request. */
export interface SetuRechargeRequest {
  customer: SetuCustomer;
  paymentDetails: {
    amount: number;
    mode: (typeof PAYMENT_MODES)[number];
    paymentParams: unknown[];
    paymentRefId: string;
    timestamp: string;
  };
}

/** [P] Successful (final), Failure (final), Processing; REVERSED only in the reversal webhook. */
export type SetuRechargeStatus = 'Successful' | 'Failure' | 'Processing' | 'REVERSED' | (string & {});

/** [P] the data of /recharge/request and /recharge/status. */
export interface SetuRechargeData {
  /** `/recharge/request` documents an object, `/recharge/status` a string (Setu's OpenAPI): both are read. */
  error?: SetuError | string | null;
  details?: { mobile_number?: string; provider?: string; service_type?: string; is_postpaid?: boolean; is_special?: boolean };
  amount?: number;
  transactionRefId?: string;
  status?: SetuRechargeStatus;
  operatorRefId?: string | null;
}

/** [P] §4.6 the payment status and reversal webhooks: `amount` is a rupee string here. */
export interface SetuPaymentWebhook {
  transactionRefId?: string;
  trace_id?: string;
  operatorRefId?: string;
  status?: SetuRechargeStatus;
  amount?: string;
  mobile_number?: string;
  provider?: string;
  failureReason?: string;
  timestamp?: string;
}

// ---- Codes: ours ↔ Setu's ------------------------------------------------------------------------

/** Our operator → Setu's id [P ids]. BSNL Topup and BSNL Special are one operator at Setu (`is_special` tells the plan). */
export const SETU_OPERATOR: Readonly<Record<string, string>> = { AT: 'airtel', JIO: 'jio', VI: 'vi', BT: 'bsnl', BS: 'bsnl' };

/** Setu's operator id → ours. `bsnl` is BSNL Topup: where a number lives, not a plan family. `mtnl` has no code of ours. */
const OUR_OPERATOR: Readonly<Record<string, string>> = { airtel: 'AT', jio: 'JIO', vi: 'VI', bsnl: 'BT' };

/**
 * Setu's circle strings [P exact] → ours. `Uttaranchal` (no circle of ours: telecom folds it into
 * UP West, but that is a guess this mapping will not make) and the pseudo-circles `All` / `IND` are
 * absent on purpose.
 */
const OUR_CIRCLE: Readonly<Record<string, string>> = {
  'Andhra Pradesh': 'AP',
  Assam: 'AS',
  'Bihar & Jharkhand': 'BR',
  Chennai: 'CH',
  Delhi: 'DL',
  Gujarat: 'GJ',
  Haryana: 'HR',
  'Himachal Pradesh': 'HP',
  'J&K': 'JK',
  Karnataka: 'KA',
  Kerala: 'KL',
  Kolkata: 'KO',
  'Madhya Pradesh': 'MP',
  Maharashtra: 'MH',
  Mumbai: 'MU',
  NorthEast: 'NE',
  Orissa: 'OR',
  Punjab: 'PB',
  Rajasthan: 'RJ',
  'Tamil Nadu': 'TN',
  'Uttar Pradesh (West)': 'UW',
  'Uttar Pradesh (East)': 'UE',
  'West Bengal & AN Island': 'WB',
};

/** Our circle → Setu's `Location`. Every one of ours has one. */
export const SETU_LOCATION: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(OUR_CIRCLE).map(([setu, ours]) => [ours, setu]));

const unmapped = (what: string, value: unknown) =>
  new PartnerError('unavailable', `Setu answered ${what} "${String(value)}", which Sangam has no code for; nothing was executed or debited`);

export function ourOperator(setu: unknown): string {
  const code = typeof setu === 'string' ? OUR_OPERATOR[setu] : undefined;
  if (!code) throw unmapped('operator', setu);
  return code;
}

export function ourCircle(setu: unknown): string {
  const code = typeof setu === 'string' && Object.hasOwn(OUR_CIRCLE, setu) ? OUR_CIRCLE[setu] : undefined;
  if (!code) throw unmapped('circle', setu);
  return code;
}

/** The operator details in our codes; an operator or circle we do not map is a PartnerError naming it. */
export function lookupOf(d: SetuOperatorDetails | undefined): OperatorLookup {
  if (!d || typeof d !== 'object') throw new PartnerError('unavailable', 'Setu answered the operator lookup without operator details');
  return { operator: ourOperator(d.current_operator), circle: ourCircle(d.current_location), ported: d.ported === true };
}

// ---- Plans ---------------------------------------------------------------------------------------

const STV = /special tariff/i;

function categoryOf(p: SetuPlan, days: number | null): RechargePlan['category'] {
  const name = p.plan_name ?? '';
  if (/talktime|top ?up/i.test(name)) return 'talktime';
  if (/^data/i.test(name)) return 'data';
  if (days !== null && days >= 336) return 'annual';
  if (/unlimited/i.test(name)) return 'unlimited';
  return 'other';
}

/** `28 Days` → `28 days`; `NA` → `no expiry`; anything else as Setu says it. */
function validityOf(v: unknown): { text: string; days: number | null } {
  const s = typeof v === 'string' ? v.trim() : '';
  const m = /^(\d+)\s*days?$/i.exec(s);
  if (m) return { text: `${Number(m[1])} ${Number(m[1]) === 1 ? 'day' : 'days'}`, days: Number(m[1]) };
  if (!s || /^na$/i.test(s)) return { text: 'no expiry', days: null };
  return { text: s.toLowerCase(), days: null };
}

/**
 * Setu's plans in our terms. BSNL's Special Tariff Vouchers are BSNL Special (BS); its other plans
 * BSNL Topup (BT). A row without a whole positive amount is skipped, not guessed.
 */
export function plansOf(list: unknown, operator: string): RechargePlan[] {
  if (!Array.isArray(list)) throw new PartnerError('unavailable', 'Setu answered the plan request without a plan list');
  const out: RechargePlan[] = [];
  for (const p of list as SetuPlan[]) {
    if (!p || typeof p.amount !== 'number' || !Number.isInteger(p.amount) || p.amount <= 0) continue;
    const special = STV.test(p.plan_name ?? '');
    if (operator === 'BS' && !special) continue;
    if (operator === 'BT' && special) continue;
    const v = validityOf(p.validity);
    out.push({ amountPaise: p.amount, validity: v.text, description: (p.plan_description ?? p.plan_name ?? '').trim(), category: categoryOf(p, v.days) });
  }
  return out;
}

// ---- Requests ------------------------------------------------------------------------------------

export const lookupBody = (mobile: string) => ({ customer: { billParameters: [{ name: 'Mobile Number', value: mobile }], mobile } });

export const plansBody = (mobile: string, setuOperator: string, location: string) => ({
  customer: {
    billParameters: [
      { name: 'Mobile Number', value: mobile },
      { name: 'Operator', value: setuOperator },
      { name: 'Location', value: location },
    ],
    mobile,
  },
});

/**
 * The recharge request. `customer.mobile` (who initiates) is the recharged number too: Sangam is not
 * told the end customer's own. `refId` is left out: it defaults to the payment reference [P].
 */
export function rechargeBody(
  req: { txnId: string; mobile: string; operator: string; amountPaise: number },
  location: string,
  mode: SetuRechargeRequest['paymentDetails']['mode'],
  now = new Date(),
): SetuRechargeRequest {
  return {
    ...plansBody(req.mobile, SETU_OPERATOR[req.operator]!, location),
    paymentDetails: { amount: req.amountPaise, mode, paymentParams: [], paymentRefId: paymentRefIdOf(req.txnId), timestamp: istTimestamp(now) },
  } as SetuRechargeRequest;
}

// ---- Answers → ours ------------------------------------------------------------------------------

/** [P] §4.3; REVERSED is a success undone (see reversalOf). Unknown → pending, never success. */
export function statusOf(s: unknown): Outcome['status'] {
  switch (s) {
    case 'Successful':
    case 'REVERSED':
      return 'success';
    case 'Failure':
      return 'failed';
    default: // Processing, and anything not documented
      return 'pending';
  }
}

/** Our result, with the operator's reference as the UTR. */
export const moneyOf = (status: Outcome['status'], operatorRefId: unknown, k: Known): MoneyResult => moneyResult(status, text(operatorRefId), k);

export function outcomeOf(d: SetuRechargeData, k: Known): PartnerOutcome {
  const status = statusOf(d.status);
  return setuOutcome({ status, what: 'Recharge', failedAt: 'at Setu', partnerStatus: d.status, why: errorText(d.error), money: moneyOf(status, d.operatorRefId, k), partnerRef: d.transactionRefId });
}

/** A data object we can read: a transaction reference or a status. */
export function asRechargeData(v: unknown): SetuRechargeData | null {
  const d = (v as SetuEnvelope<SetuRechargeData> | null)?.data;
  if (!d || typeof d !== 'object' || (typeof d.status !== 'string' && typeof d.transactionRefId !== 'string')) return null;
  return d;
}

/** `"99.00"` (the webhooks' rupee string) → paise, or null. */
export function rupeeStringToPaise(v: unknown): number | null {
  if (typeof v !== 'string' || !/^\d{1,9}(\.\d{1,2})?$/.test(v.trim())) return null;
  const [r, p = ''] = v.trim().split('.');
  return Number(r) * 100 + Number(p.padEnd(2, '0'));
}

/** The reversal a REVERSED webhook announces: why (its failureReason) and when (its timestamp, else now). */
export function reversalOf(w: SetuPaymentWebhook, now = new Date()): Reversal {
  const at = typeof w.timestamp === 'string' && !Number.isNaN(Date.parse(w.timestamp)) ? new Date(w.timestamp) : now;
  return { reason: text(w.failureReason) ?? 'Recharge reversed by the operator (Setu REVERSED)', at };
}

/**
 * [P] `GET /wallet/balance` → `{success, data: {balance, currency: "INR"}, trace_id}`, the balance a JSON
 * number in rupees (the spec's example 1500.75; the only rupee amount of the API besides webhooks).
 * Paise, exactly (a number with more than two decimals, or none, is null: never rounded into a drift);
 * a string is read as the webhooks' rupee strings are.
 */
export function walletBalanceOf(json: unknown): number | null {
  const data = (json as { data?: { balance?: unknown; currency?: unknown } } | null)?.data;
  if (!data || (data.currency !== undefined && data.currency !== 'INR')) return null;
  const b = data.balance;
  if (typeof b === 'string') return rupeeStringToPaise(b);
  if (typeof b !== 'number' || !Number.isFinite(b) || Math.abs(b) > 1e12) return null;
  const paise = Math.round(b * 100);
  return Math.abs(b * 100 - paise) < 1e-6 ? paise : null;
}
