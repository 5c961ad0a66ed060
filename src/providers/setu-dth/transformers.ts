// Owns the translation between our terms and Setu's BBPS BillPay v2 for DTH (PARTNERS.md §4.7): its
// billers, bill fetch and payment requests and answers in its own field names, the BILL_PAY webhook
// envelope, the mapping of its DTH billers to our operator codes (CONTRACT §3: AD DT SD TS VD) by their
// names — a biller we do not map is never guessed at —, the status mapping and the PartnerOutcome with
// our typed result (our txn id, the amount and commission in paise, the biller's reference).
// Field names follow Setu's own BBPS BillPay v2 OpenAPI (docs/partners/setu-dth/, schema-tested in
// test/setu-dth-schema.test.ts) and its guides; PARTNER.md beside this file says which reading comes
// from where, and which are still ours alone.
import { PartnerError, type DthSubscriber, type MoneyResult, type Outcome, type PartnerOutcome, type Reversal } from '../connector.js';
import { errorText, moneyResult, setuOutcome, text, type Known, type SetuError } from '../setu/transformers.js';

// ---- Setu BBPS shapes, in its names --------------------------------------------------------------

/** [G] BBPS's `{code, message}`; its envelope is Setu's, with `traceId` (../setu/transformers.ts). */
export type BbpsError = SetuError;

/** [P] one customer parameter a biller asks for (`paramName`, and the value's rule). */
export interface BbpsCustomerParam {
  paramName?: string;
  minLength?: number;
  maxLength?: number;
  regex?: string;
  optional?: boolean;
}

/** [P] GET /api/v2/bbps/billers (category DTH). */
export interface BbpsBiller {
  id?: string;
  name?: string;
  categoryName?: string;
  status?: string;
  customerParams?: BbpsCustomerParam[];
  /** [P] MANDATORY: a payment must name one of the biller's plans (plan-mdm-integration.mdx). */
  planRequirement?: 'MANDATORY' | 'OPTIONAL' | 'CONDITIONAL' | (string & {});
}

/** [P] GET /api/v2/bbps/billers/plans?billerIds=… → data.plans[] (plan-mdm-integration.mdx §4.2.3). */
export interface BbpsPlan {
  Id?: string;
  amountInRupees?: string;
  billerId?: string;
  description?: string;
  status?: 'ACTIVE' | 'DEACTIVATED' | (string & {});
}

/** [P] the agent block every fetch carries: its id and channel, and the channel's own fields (INT: ip, mac; MOB: app, os, imei, ip; …). */
export interface BbpsAgent {
  id: string;
  channel: string;
  ip?: string;
  mac?: string;
  app?: string;
  os?: string;
  imei?: string;
  postalCode?: string;
  geocode?: string;
  terminalId?: string;
  ifsc?: string;
}

export interface BbpsBillParameter {
  name: string;
  value: string;
}

/** [P] POST /api/v2/bbps/bills/fetch/request: `agent` and `customer.customerParams` required (v1's billParameters, renamed). */
export interface BbpsFetchRequest {
  agent: BbpsAgent;
  biller: { id: string };
  customer: { mobile: string; customerParams: BbpsBillParameter[] };
}

type BbpsBill = { amount?: number | null; customerName?: string; dueDate?: string | null; billNumber?: string; additionalInfo?: BbpsBillParameter[] };

/**
 * [P] POST …/fetch/response → data: the subscriber as the biller knows them. A validation biller (DTH)
 * may answer `bills: []` with `customerName` (and `dueDate`) at data level (quickstart.mdx §4.1);
 * `additionalInfo` is data-level in the OpenAPI.
 */
export interface BbpsFetchResponse {
  refId?: string;
  status?: 'Processing' | 'Success' | 'Failure' | (string & {});
  customerName?: string | null;
  dueDate?: string | null;
  additionalInfo?: BbpsBillParameter[];
  bills?: BbpsBill[];
  failureReason?: BbpsError;
}

/**
 * [P] POST /api/v2/bbps/bills/payment/request: paymentDetails (amount in paise, mode, paymentRefId 6–35,
 * timestamp; accountInfo — "Required: Debit instrument info" in Setu's guide; `Id` the plan of a
 * plan-mandatory biller) and remitter.name ("Required").
 */
export interface BbpsPaymentRequest {
  refId: string;
  paymentDetails: { mode: string; paymentRefId: string; amount: number; timestamp: string; accountInfo: string; Id?: string };
  remitter: { name: string };
}

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
  paymentDetails?: { mode?: string; paymentRefId?: string; amount?: number; timestamp?: string; Id?: string };
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

/** [P] the payment modes of paymentDetails.mode (the OpenAPI's enum). */
export const PAYMENT_MODES = ['Internet Banking', 'Debit Card', 'Credit Card', 'Prepaid Card', 'IMPS', 'Cash', 'UPI', 'Wallet', 'NEFT', 'AEPS', 'Account Transfer', 'Bharat QR', 'USSD', 'BHIM Aadhaar Pay'] as const;

/** [P] the agent channels, and the fields each needs besides id and channel (the OpenAPI's agent descriptions). */
export const AGENT_CHANNELS: Readonly<Record<string, readonly (keyof BbpsAgent)[]>> = {
  INT: ['ip', 'mac'],
  INTB: ['ip', 'mac'],
  MOB: ['ip', 'app', 'os', 'imei'],
  MOBB: ['ip', 'app', 'os', 'imei'],
  AGT: ['postalCode', 'geocode', 'terminalId'],
  BSC: ['postalCode', 'geocode', 'terminalId'],
  BNKBRNCH: ['postalCode', 'geocode', 'ifsc'],
  ATM: ['terminalId'],
  KIOSK: ['terminalId'],
  POS: [],
  MPOS: [],
};

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
  param: BbpsCustomerParam & { paramName: string };
  /** [P] planRequirement MANDATORY: every payment names a plan of the biller (its `Id`). */
  plansRequired: boolean;
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
    const param = (b.customerParams ?? []).find((p) => typeof p?.paramName === 'string' && !p.optional);
    if (!param || byCode.has(code)) continue;
    byCode.set(code, { id: b.id, name: String(b.name), param: param as MappedBiller['param'], plansRequired: b.planRequirement === 'MANDATORY' });
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
    return `${b.name} takes a ${p.paramName} of ${min === max ? min : `${min} to ${max}`} characters${pattern ? ` matching ${p.regex}` : ''}`;
  }
  return null;
}

/**
 * The fetch (validation) body: the agent block, the biller, and the subscriber under the biller's own
 * paramName. For a plan-mandatory biller paying a plan, the plan's Id as the customer parameter "Id"
 * (plan-mdm-integration.mdx §4.4: "Most static plan billers accept the plan ID as customerParams[name=\"Id\"]").
 */
export const fetchBody = (agent: BbpsAgent, b: MappedBiller, subscriberId: string, customerMobile: string, planId?: string): BbpsFetchRequest => ({
  agent,
  biller: { id: b.id },
  customer: { mobile: customerMobile, customerParams: [{ name: b.param.paramName, value: subscriberId }, ...(planId ? [{ name: 'Id', value: planId }] : [])] },
});

/** What a payment carries besides its reference and amount: our mode, the debit instrument and the payer (the settings). */
export interface Payer {
  mode: string;
  accountInfo: string;
  remitterName: string;
}

export const paymentBody = (refId: string, paymentRefId: string, amountPaise: number, payer: Payer, timestamp: string, planId?: string): BbpsPaymentRequest => ({
  refId,
  paymentDetails: { mode: payer.mode, paymentRefId, amount: amountPaise, timestamp, accountInfo: payer.accountInfo, ...(planId ? { Id: planId } : {}) },
  remitter: { name: payer.remitterName },
});

/**
 * The plan a plan-mandatory biller sells at exactly this amount (BBPS: "amounts … must match the selected
 * plan's amount exactly"). None, or more than one, is a PartnerError that says so: we never pick a pack
 * for the subscriber.
 */
export function planFor(b: MappedBiller, plans: unknown, amountPaise: number): string {
  const list = Array.isArray(plans) ? (plans as BbpsPlan[]) : [];
  const active = list.filter((p) => p && typeof p.Id === 'string' && p.Id && (p.status === undefined || p.status === 'ACTIVE') && (p.billerId === undefined || p.billerId === b.id));
  const hits = active.filter((p) => paiseOfRupees(text(p.amountInRupees)) === amountPaise);
  if (hits.length === 1) return hits[0]!.Id!;
  const amounts = [...new Set(active.map((p) => text(p.amountInRupees)).filter((a): a is string => !!a))].slice(0, 20).join(', ');
  const why = hits.length ? `${hits.length} of its plans cost that amount and Sangam does not choose a pack for the subscriber` : `it has no plan of that amount${amounts ? ` (its plans, in rupees: ${amounts})` : ''}`;
  throw new PartnerError('unavailable', `${b.name} sells DTH recharges only as plans and ${why}; nothing was executed or debited`);
}

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
export const moneyOf = (status: Outcome['status'], p: BbpsPayment | null, k: Known): MoneyResult =>
  moneyResult(status, text(p?.billerRefId) ?? text(p?.transactionId), k);

export function outcomeOf(p: BbpsPayment, k: Known): PartnerOutcome {
  const status = statusOf(p.status);
  return setuOutcome({ status, what: 'DTH recharge', failedAt: 'at the biller', partnerStatus: p.status, why: errorText(p.failureReason), money: moneyOf(status, p, k), partnerRef: p.refId });
}

/** The refund of a Credit_Adjustment payment: why (its failureReason) and when (now: the answer carries no time of it). */
export function reversalOf(p: BbpsPayment, at = new Date()): Reversal | undefined {
  if (p.status !== 'Credit_Adjustment') return undefined;
  return { reason: errorText(p.failureReason) ?? 'DTH recharge refunded by the biller (BBPS credit adjustment)', at };
}

/** A failed bill fetch: the biller does not know the subscriber (a business failure; nothing was paid). */
export function fetchFailureOf(f: BbpsFetchResponse, k: Known): PartnerOutcome {
  const why = errorText(f.failureReason);
  return { status: 'failed', message: `The biller could not find the subscriber${why ? `: ${why}` : ''}; nothing was paid`, money: moneyOf('failed', null, k) };
}

/** An additionalInfo value by name (case and spacing ignored), at data level first, then the bill's; or null. */
function infoOf(f: BbpsFetchResponse, bill: BbpsBill | undefined, name: string): string | null {
  for (const list of [f.additionalInfo, bill?.additionalInfo]) {
    const hit = (Array.isArray(list) ? list : []).find((i) => typeof i?.name === 'string' && squash(i.name) === squash(name));
    if (text(hit?.value)) return text(hit?.value);
  }
  return null;
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
 * A successful bill fetch as subscriber info: the name is customerName at data level [P: a validation
 * biller's answer, quickstart.mdx §4.1] or the first bill's [P]; the pack, balance and next recharge date
 * are additionalInfo entries "Current Plan", "Account Balance", "Next Recharge Date" [G: each biller names
 * its own; these are the names we read], the date else dueDate. A detail the biller leaves out is null.
 */
export function subscriberOf(f: BbpsFetchResponse): DthSubscriber {
  const bill = Array.isArray(f.bills) ? f.bills[0] : undefined;
  return {
    name: text(f.customerName) ?? text(bill?.customerName),
    pack: infoOf(f, bill, 'Current Plan'),
    balancePaise: paiseOfRupees(infoOf(f, bill, 'Account Balance')),
    nextRechargeDate: isoDateOf(infoOf(f, bill, 'Next Recharge Date') ?? text(f.dueDate) ?? text(bill?.dueDate)),
  };
}
