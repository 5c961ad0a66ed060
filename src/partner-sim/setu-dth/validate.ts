// Owns request validation for the BBPS emulator. The request bodies are [G] (PARTNERS.md §4.7 names the
// endpoints only); they borrow the documented prepaid shapes: `customer{billParameters[{name,value}], mobile}`
// and `paymentDetails{mode, paymentRefId, amount (paise), timestamp}` as in the documented BILL_PAY data.
import { billerById, type Biller } from './billers.js';
import { invalidParams, notFound } from './errors.js';

type Body = Record<string, unknown>;
const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);

/** [G] the BBPS payment modes. */
export const MODES = new Set(['Internet Banking', 'Debit Card', 'Credit Card', 'Prepaid Card', 'IMPS', 'Cash', 'UPI', 'Wallet', 'NEFT', 'Account Transfer']);
const PAYMENT_REF = /^[A-Za-z0-9]{6,35}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

export interface FetchInput {
  biller: Biller;
  subscriber: string;
  customerMobile: string;
  billParameters: Array<{ name: string; value: string }>;
}

export function validateFetch(raw: unknown): FetchInput {
  if (!isObject(raw)) throw invalidParams('Request body must be a JSON object');
  if (!isObject(raw.biller) || typeof raw.biller.id !== 'string') throw invalidParams('biller.id is required');
  const biller = billerById(raw.biller.id);
  if (!biller) throw notFound('biller', raw.biller.id);
  const c = raw.customer;
  if (!isObject(c)) throw invalidParams('customer is required');
  if (typeof c.mobile !== 'string' || !/^[6-9][0-9]{9}$/.test(c.mobile)) throw invalidParams('customer.mobile must be a 10-digit mobile number');
  if (!Array.isArray(c.billParameters)) throw invalidParams('customer.billParameters must be an array of {name, value}');
  const params: Array<{ name: string; value: string }> = [];
  for (const p of c.billParameters) {
    if (!isObject(p) || typeof p.name !== 'string' || typeof p.value !== 'string') throw invalidParams('customer.billParameters must be an array of {name, value} strings');
    params.push({ name: p.name, value: p.value });
  }
  const want = biller.customerParams[0]!;
  const given = params.find((p) => p.name === want.name);
  if (!given) throw invalidParams(`Missing required parameter '${want.name}' for biller ${biller.id}`);
  const stray = params.find((p) => p.name !== want.name);
  if (stray) throw invalidParams(`Unknown parameter '${stray.name}' for biller ${biller.id}`);
  if (!new RegExp(want.regex).test(given.value)) throw invalidParams(`'${want.name}' does not match ${want.regex}`);
  return { biller, subscriber: given.value, customerMobile: c.mobile, billParameters: params };
}

export interface PaymentInput {
  refId: string;
  mode: string;
  paymentRefId: string;
  amount: number;
  timestamp: string;
  planId: string | null;
}

export function validatePayment(raw: unknown): PaymentInput {
  if (!isObject(raw)) throw invalidParams('Request body must be a JSON object');
  if (typeof raw.refId !== 'string' || !raw.refId) throw invalidParams('refId is required');
  const pd = raw.paymentDetails;
  if (!isObject(pd)) throw invalidParams('paymentDetails is required');
  if (typeof pd.amount !== 'number' || !Number.isInteger(pd.amount) || pd.amount <= 0 || pd.amount > 5_000_000) {
    throw invalidParams('paymentDetails.amount must be an integer number of paise between 1 and 5000000');
  }
  if (typeof pd.mode !== 'string' || !MODES.has(pd.mode)) throw invalidParams(`Invalid payment mode ${String(pd.mode)}`);
  if (typeof pd.paymentRefId !== 'string' || !PAYMENT_REF.test(pd.paymentRefId)) throw invalidParams('paymentDetails.paymentRefId must be 6 to 35 letters and digits');
  if (typeof pd.timestamp !== 'string' || !TIMESTAMP.test(pd.timestamp)) throw invalidParams('paymentDetails.timestamp must be ISO 8601 with an offset');
  if (raw.planId !== undefined && typeof raw.planId !== 'string') throw invalidParams('planId must be a string');
  return { refId: raw.refId, mode: pd.mode, paymentRefId: pd.paymentRefId, amount: pd.amount, timestamp: pd.timestamp, planId: (raw.planId as string | undefined) ?? null };
}

export function validateRefId(raw: unknown): string {
  if (!isObject(raw) || typeof raw.refId !== 'string' || !raw.refId) throw invalidParams('refId is required');
  return raw.refId;
}
