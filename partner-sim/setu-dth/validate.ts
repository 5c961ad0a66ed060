// Owns request validation for the BBPS emulator, after Setu's own BBPS BillPay v2 OpenAPI
// (docs/partners/setu-dth/; test/setu-dth-schema.test.ts holds the emulator's refusals to the schema's):
// a fetch needs `agent{id, channel}` plus the channel's own fields, `biller.id` and
// `customer{mobile, customerParams[{name, value}]}` (v1's `billParameters` is refused, as v2 renamed it);
// a payment needs `paymentDetails{amount (paise), mode, paymentRefId 6–35, timestamp}` and, per Setu's
// guide, `paymentDetails.accountInfo` and `remitter.name`; a plan-mandatory biller's payment names its
// plan (`paymentDetails.Id`, or the fetch's customer parameter "Id"). Refusals are Setu's 400 shape.
import { billerById, plansFor, type Biller, type DthPlan } from './billers.js';
import { invalidParams, notFound } from './errors.js';

type Body = Record<string, unknown>;
const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);

/** [P] the paymentDetails.mode enum. */
export const MODES = new Set(['Internet Banking', 'Debit Card', 'Credit Card', 'Prepaid Card', 'IMPS', 'Cash', 'UPI', 'Wallet', 'NEFT', 'AEPS', 'Account Transfer', 'Bharat QR', 'USSD', 'BHIM Aadhaar Pay']);
const PAYMENT_REF = /^.{6,35}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const MOBILE = /^\d{6,22}$/;

/** [P] the channel enum and what each channel needs besides id (the OpenAPI's agent field descriptions). */
const CHANNELS: Readonly<Record<string, readonly string[]>> = {
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

export interface FetchInput {
  biller: Biller;
  subscriber: string;
  customerMobile: string;
  customerParams: Array<{ name: string; value: string }>;
  agent: { id: string; channel: string };
  /** The plan named by the customer parameter "Id" (plan-mandatory billers), or null. */
  planId: string | null;
}

function validateAgent(a: unknown): { id: string; channel: string } {
  if (!isObject(a)) throw invalidParams("'agent' is a required property");
  if (typeof a.id !== 'string' || !a.id) throw invalidParams('agent.id is required');
  if (typeof a.channel !== 'string' || !CHANNELS[a.channel]) throw invalidParams(`agent.channel must be one of ${Object.keys(CHANNELS).join(', ')}`);
  for (const f of CHANNELS[a.channel]!) if (typeof a[f] !== 'string' || !a[f]) throw invalidParams(`agent.${f} is mandatory for channel ${a.channel}`);
  return { id: a.id, channel: a.channel };
}

function customerParamsOf(c: Body): Array<{ name: string; value: string }> {
  if (c.customerParams === undefined && c.billParameters !== undefined) throw invalidParams("customer: 'customerParams' is a required property (billParameters is the v1 name)");
  if (!Array.isArray(c.customerParams)) throw invalidParams("customer: 'customerParams' is a required property");
  return c.customerParams.map((p) => {
    if (!isObject(p) || typeof p.name !== 'string' || typeof p.value !== 'string') throw invalidParams('customer.customerParams must be an array of {name, value} strings');
    return { name: p.name, value: p.value };
  });
}

export function validateFetch(raw: unknown): FetchInput {
  if (!isObject(raw)) throw invalidParams('Request body must be a JSON object');
  const agent = validateAgent(raw.agent);
  if (!isObject(raw.biller) || typeof raw.biller.id !== 'string') throw invalidParams('biller.id is required');
  const biller = billerById(raw.biller.id);
  if (!biller) throw notFound('biller', raw.biller.id);
  const c = raw.customer;
  if (!isObject(c)) throw invalidParams("'customer' is a required property");
  if (typeof c.mobile !== 'string' || !MOBILE.test(c.mobile)) throw invalidParams('customer.mobile must be 6 to 22 digits');
  const params = customerParamsOf(c);
  const want = biller.customerParams[0]!;
  const given = params.find((p) => p.name === want.paramName);
  if (!given) throw invalidParams(`Missing required parameter '${want.paramName}' for biller ${biller.id}`);
  const plan = params.find((p) => p.name === 'Id');
  const stray = params.find((p) => p.name !== want.paramName && p.name !== 'Id');
  if (stray) throw invalidParams(`Unknown parameter '${stray.name}' for biller ${biller.id}`);
  if (!new RegExp(want.regex).test(given.value)) throw invalidParams(`'${want.paramName}' does not match ${want.regex}`);
  if (plan && !planOf(biller, plan.value)) throw invalidParams(`No active plan ${plan.value} for biller ${biller.id}`);
  return { biller, subscriber: given.value, customerMobile: c.mobile, customerParams: params, agent, planId: plan?.value ?? null };
}

export const planOf = (b: Biller, id: string): DthPlan | undefined => plansFor(b).find((p) => p.id === id && p.status === 'ACTIVE');

export interface PaymentInput {
  refId: string;
  mode: string;
  paymentRefId: string;
  amount: number;
  timestamp: string;
  accountInfo: string;
  remitterName: string;
  /** paymentDetails.Id: the plan paid for, when given. */
  planId: string | null;
}

export function validatePayment(raw: unknown): PaymentInput {
  if (!isObject(raw)) throw invalidParams('Request body must be a JSON object');
  if (typeof raw.refId !== 'string' || !raw.refId) throw invalidParams('refId is required');
  const pd = raw.paymentDetails;
  if (!isObject(pd)) throw invalidParams("'paymentDetails' is a required property");
  if (typeof pd.amount !== 'number' || !Number.isInteger(pd.amount) || pd.amount < 1 || pd.amount > 5_000_000) {
    throw invalidParams('paymentDetails.amount must be an integer number of paise between 1 and 5000000');
  }
  if (typeof pd.mode !== 'string' || !MODES.has(pd.mode)) throw invalidParams(`Invalid payment mode ${String(pd.mode)}`);
  if (typeof pd.paymentRefId !== 'string' || !PAYMENT_REF.test(pd.paymentRefId)) throw invalidParams('paymentDetails.paymentRefId must be 6 to 35 characters');
  if (typeof pd.timestamp !== 'string' || !TIMESTAMP.test(pd.timestamp)) throw invalidParams('paymentDetails.timestamp must be ISO 8601 with an offset');
  // [P] Setu's guide (quickstart.mdx §2.1, remittance_flows_guide.mdx §4.3.1): "Required" in payment requests.
  if (typeof pd.accountInfo !== 'string' || pd.accountInfo.length < 1 || pd.accountInfo.length > 50) throw invalidParams('paymentDetails.accountInfo is required (the debit instrument, 1 to 50 characters)');
  const r = raw.remitter;
  if (!isObject(r) || typeof r.name !== 'string' || r.name.length < 1 || r.name.length > 50) throw invalidParams('remitter.name is required (1 to 50 characters)');
  if (pd.Id !== undefined && typeof pd.Id !== 'string') throw invalidParams('paymentDetails.Id must be a string');
  return { refId: raw.refId, mode: pd.mode, paymentRefId: pd.paymentRefId, amount: pd.amount, timestamp: pd.timestamp, accountInfo: pd.accountInfo, remitterName: r.name, planId: (pd.Id as string | undefined) ?? null };
}

export function validateRefId(raw: unknown): string {
  if (!isObject(raw) || typeof raw.refId !== 'string' || !raw.refId) throw invalidParams('refId is required');
  return raw.refId;
}
