// Owns request validation for the emulated prepaid endpoints, field rules as PARTNERS.md §4.2 documents
// them. Missing parameters are ERR011 input-params-missing with the documented list form
// ("Missing required parameters: ['Mobile Number', 'Operator', 'Location']"); a present but bad value is
// ERR007 invalid-params ("Mobile number should be 10 digit", "Invalid operator name viax") [P]; a body of the
// wrong shape is ERR011 input-params-invalid. Messages not quoted from the docs are [G].
import { LOCATIONS, OPERATORS, type Operator } from './catalogue.js';
import { invalidParams, paramsInvalid, paramsMissing } from './errors.js';

type Body = Record<string, unknown>;

const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);
const TEN_DIGITS = /^[0-9]{10}$/;
// [P] paymentRefId: alphanumeric, 6–30; refId: alphanumeric, 5–40.
const PAYMENT_REF = /^[A-Za-z0-9]{6,30}$/;
const REF_ID = /^[A-Za-z0-9]{5,40}$/;
// [P] ISO 8601 with an offset, e.g. 2024-02-07T13:54:00+05:30 ([G] `Z` is accepted too).
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
/** [P] exact and case-sensitive. */
export const MODES = new Set(['Internet Banking', 'UPI', 'Debit Card', 'Credit Card', 'Wallet']);

export interface CustomerInput {
  mobile: string;
  customerMobile: string;
  operator: Operator | null;
  location: string | null;
}

function body(raw: unknown): Body {
  if (!isObject(raw)) throw paramsInvalid('Request body must be a JSON object');
  return raw;
}

/** `customer{billParameters[{name,value}], mobile}` with exactly the `wanted` parameters. */
export function validateCustomer(raw: unknown, wanted: readonly string[]): CustomerInput {
  const b = body(raw);
  if (b.customer === undefined) throw paramsMissing(['customer']);
  if (!isObject(b.customer)) throw paramsInvalid('customer must be an object');
  const c = b.customer;
  if (c.billParameters === undefined) throw paramsMissing([...wanted]);
  if (!Array.isArray(c.billParameters)) throw paramsInvalid('billParameters must be an array of {name, value}');
  const params = new Map<string, string>();
  for (const p of c.billParameters) {
    if (!isObject(p) || typeof p.name !== 'string' || typeof p.value !== 'string') throw paramsInvalid('billParameters must be an array of {name, value} strings');
    if (!wanted.includes(p.name)) throw paramsInvalid(`Unexpected parameter '${p.name}'; expected ${wanted.map((w) => `'${w}'`).join(', ')}`);
    if (params.has(p.name)) throw paramsInvalid(`Parameter '${p.name}' given more than once`);
    params.set(p.name, p.value);
  }
  const missing = wanted.filter((w) => !params.get(w));
  if (c.mobile === undefined || c.mobile === '') missing.push('customer.mobile');
  if (missing.length) throw paramsMissing(missing);

  const mobile = params.get('Mobile Number')!;
  if (!TEN_DIGITS.test(mobile)) throw invalidParams('Mobile number should be 10 digit');
  if (!/^[6-9]/.test(mobile)) throw invalidParams(`Invalid mobile number ${mobile}`);
  if (typeof c.mobile !== 'string' || !TEN_DIGITS.test(c.mobile)) throw invalidParams('Customer mobile number should be 10 digit');
  const op = params.get('Operator');
  if (op !== undefined && !(OPERATORS as readonly string[]).includes(op)) throw invalidParams(`Invalid operator name ${op}`);
  const loc = params.get('Location');
  if (loc !== undefined && !LOCATIONS.has(loc)) throw invalidParams(`Invalid location ${loc}`);
  return { mobile, customerMobile: c.mobile, operator: (op as Operator | undefined) ?? null, location: loc ?? null };
}

export const RECHARGE_PARAMS = ['Mobile Number', 'Operator', 'Location'] as const;

function amountOf(pd: Body): number {
  const a = pd.amount;
  if (typeof a !== 'number' || !Number.isInteger(a)) throw invalidParams('amount should be an integer number of paise');
  return a;
}

export function validateValidate(raw: unknown): CustomerInput & { amount: number } {
  const customer = validateCustomer(raw, RECHARGE_PARAMS);
  const pd = (raw as Body).paymentDetails;
  if (pd === undefined) throw paramsMissing(['paymentDetails.amount']);
  if (!isObject(pd)) throw paramsInvalid('paymentDetails must be an object');
  if (pd.amount === undefined) throw paramsMissing(['paymentDetails.amount']);
  return { ...customer, amount: amountOf(pd) };
}

export interface RechargeInput extends CustomerInput {
  operator: Operator;
  location: string;
  amount: number;
  mode: string;
  paymentParams: unknown[];
  paymentRefId: string;
  timestamp: string;
  refId: string;
}

export function validateRecharge(raw: unknown): RechargeInput {
  const customer = validateCustomer(raw, RECHARGE_PARAMS);
  const b = raw as Body;
  if (b.paymentDetails === undefined) throw paramsMissing(['paymentDetails']);
  if (!isObject(b.paymentDetails)) throw paramsInvalid('paymentDetails must be an object');
  const pd = b.paymentDetails;
  const missing = ['amount', 'mode', 'paymentParams', 'paymentRefId', 'timestamp'].filter((k) => pd[k] === undefined || pd[k] === null || pd[k] === '');
  if (missing.length) throw paramsMissing(missing.map((k) => `paymentDetails.${k}`));
  const amount = amountOf(pd);
  if (typeof pd.mode !== 'string' || !MODES.has(pd.mode)) throw invalidParams(`Invalid payment mode ${String(pd.mode)}`);
  if (!Array.isArray(pd.paymentParams)) throw invalidParams('paymentParams should be an array');
  if (typeof pd.paymentRefId !== 'string' || !PAYMENT_REF.test(pd.paymentRefId)) {
    throw invalidParams('paymentRefId should be alphanumeric with length between 6 and 30');
  }
  if (typeof pd.timestamp !== 'string' || !TIMESTAMP.test(pd.timestamp) || Number.isNaN(Date.parse(pd.timestamp))) {
    throw invalidParams('timestamp should be in ISO 8601 format with offset, e.g. 2024-02-07T13:54:00+05:30');
  }
  if (b.refId !== undefined && (typeof b.refId !== 'string' || !REF_ID.test(b.refId))) throw invalidParams('refId should be alphanumeric with length between 5 and 40');
  return {
    ...customer,
    operator: customer.operator!,
    location: customer.location!,
    amount,
    mode: pd.mode,
    paymentParams: pd.paymentParams,
    paymentRefId: pd.paymentRefId,
    timestamp: pd.timestamp,
    // [P] refId defaults to paymentRefId
    refId: (b.refId as string | undefined) ?? pd.paymentRefId,
  };
}

export function validateStatus(raw: unknown): string {
  const b = body(raw);
  if (b.paymentRefId === undefined || b.paymentRefId === '') throw paramsMissing(['paymentRefId']);
  if (typeof b.paymentRefId !== 'string') throw paramsInvalid('paymentRefId must be a string');
  return b.paymentRefId;
}
