// Owns the Standard Transfer V2 request rules (PARTNERS.md §3.2) and their error answers (§3.5). The
// first broken rule answers, in the order the fields are documented. Checks that need the emulator's
// state (a known beneficiary_id, the VPA matching it) live in transfers.ts.
//
// [G] decisions where the docs are silent:
// - Unknown fields are ignored (the docs do not say they are refused).
// - `transfer_amount` must be a JSON number (not a string) with at most 2 decimals.
// - `transfer_mode` values are matched exactly (lower case, as the enum); `bank` (the word the
//   documented error text uses) is accepted as `banktransfer`.
// - The emulator pays only VPAs: with no beneficiary_id, `beneficiary_instrument_details.vpa` is
//   required whatever the mode; bank and card instruments are not emulated.
// - A `fundsource_id` must be the emulator's own (default CASHFREE_1).
import { invalid, missing } from './errors.js';

export const TRANSFER_MODES = ['banktransfer', 'imps', 'neft', 'rtgs', 'upi', 'paytm', 'amazonpay', 'card', 'cardupi'] as const;
export type TransferMode = (typeof TRANSFER_MODES)[number];

export interface TransferInput {
  transferId: string;
  /** Rupees, as sent (echoed back). */
  amount: number;
  amountPaise: number;
  mode: TransferMode;
  beneficiaryId: string | null;
  beneficiaryName: string | null;
  vpa: string | null;
  remarks: string | null;
  fundsourceId: string;
}

/** [P] `[A-Za-z0-9._-]` and `@`, with `-` only before the `@`. */
export const VPA = /^[A-Za-z0-9._-]+@[A-Za-z0-9._]+$/;
const TRANSFER_ID = /^[A-Za-z0-9_]+$/;
const BENE_NAME = /^[A-Za-z ]+$/;
const REMARKS = /^[A-Za-z0-9 ]*$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const absent = (v: unknown) => v === undefined || v === null || v === '';

export function validateTransfer(body: unknown, fundsourceId: string): TransferInput {
  if (!isObject(body)) throw invalid('request_invalid', 'request body should be a JSON object');
  const transferId = checkTransferId(body.transfer_id);
  const amount = checkAmount(body.transfer_amount);
  if (!absent(body.transfer_currency) && body.transfer_currency !== 'INR') throw invalid('transfer_currency_invalid', 'transfer_currency should be INR');
  const mode = checkMode(body.transfer_mode);
  const bene = checkBeneficiary(body.beneficiary_details);
  const remarks = body.transfer_remarks;
  if (!absent(remarks) && (typeof remarks !== 'string' || remarks.length > 70 || !REMARKS.test(remarks))) {
    throw invalid('transfer_remarks_invalid', 'transfer_remarks should be alphanumeric with spaces, up to 70 characters');
  }
  const source = body.fundsource_id;
  if (!absent(source) && source !== fundsourceId) throw invalid('fundsource_id_invalid', 'fundsource_id is invalid');
  return { transferId, amount, amountPaise: Math.round(amount * 100), mode, ...bene, remarks: absent(remarks) ? null : (remarks as string), fundsourceId };
}

export function checkTransferId(v: unknown): string {
  if (absent(v)) throw missing('transfer_id');
  // [P] "transfer_id should be alphanumeric"; [G] the length text
  if (typeof v !== 'string' || !TRANSFER_ID.test(v)) throw invalid('transfer_id_invalid', 'transfer_id should be alphanumeric');
  if (v.length > 40) throw invalid('transfer_id_invalid', 'transfer_id should not be more than 40 characters');
  return v;
}

function checkAmount(v: unknown): number {
  if (absent(v)) throw missing('transfer_amount');
  // [P] the text, "then" included
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 1) throw invalid('transfer_amount_invalid', 'transfer_amount should be greater then 1.00');
  if (Math.abs(v * 100 - Math.round(v * 100)) > 1e-6) throw invalid('transfer_amount_invalid', 'transfer_amount should not have more than 2 decimal places');
  return v;
}

function checkMode(v: unknown): TransferMode {
  if (absent(v)) return 'banktransfer'; // [P] the default
  if (v === 'bank') return 'banktransfer';
  if (typeof v !== 'string' || !(TRANSFER_MODES as readonly string[]).includes(v)) {
    // [P] the list as the documented text gives it; [G] the words before it
    throw invalid('transfer_mode_invalid', 'transfer_mode is invalid, allowed values are : bank, imps, neft, rtgs, upi, paytm, amazonpay, card and cardupi');
  }
  return v as TransferMode;
}

function checkBeneficiary(v: unknown): Pick<TransferInput, 'beneficiaryId' | 'beneficiaryName' | 'vpa'> {
  if (absent(v)) throw missing('beneficiary_details');
  if (!isObject(v)) throw invalid('beneficiary_details_invalid', 'beneficiary_details should be an object');
  const id = v.beneficiary_id;
  if (!absent(id) && (typeof id !== 'string' || !/^[A-Za-z0-9]+$/.test(id))) throw invalid('beneficiary_details.beneficiary_id_invalid', 'beneficiary_id should be alphanumeric');
  const name = v.beneficiary_name;
  // [P] "required if beneficiary_id is not present"
  if (absent(name) && absent(id)) throw missing('beneficiary_details.beneficiary_name');
  if (!absent(name) && (typeof name !== 'string' || name.length > 100 || !BENE_NAME.test(name))) {
    throw invalid('beneficiary_details.beneficiary_name_invalid', 'beneficiary_name should contain only alphabets and spaces, up to 100 characters');
  }
  const inst = v.beneficiary_instrument_details;
  if (!absent(inst) && !isObject(inst)) throw invalid('beneficiary_details.beneficiary_instrument_details_invalid', 'beneficiary_instrument_details should be an object');
  const vpa = isObject(inst) ? inst.vpa : undefined;
  if (absent(vpa) && absent(id)) throw missing('beneficiary_details.beneficiary_instrument_details.vpa');
  // [P] code and text
  if (!absent(vpa) && (typeof vpa !== 'string' || !VPA.test(vpa))) throw invalid('beneficiary_details.beneficiary_instrument_details.vpa_invalid', 'vpa is in invalid format');
  checkContact(v.beneficiary_contact_details);
  return { beneficiaryId: absent(id) ? null : (id as string), beneficiaryName: absent(name) ? null : (name as string), vpa: absent(vpa) ? null : (vpa as string) };
}

/** [P] the limits; [G] the codes (`beneficiary_details.beneficiary_contact_details.<field>_invalid`) and texts. */
const CONTACT_RULES: Readonly<Record<string, (s: string) => boolean>> = {
  beneficiary_email: (s) => s.length <= 200 && /^[^@\s]+@[^@\s]+$/.test(s),
  beneficiary_phone: (s) => /^\d{8,12}$/.test(s),
  beneficiary_country_code: (s) => /^\+?\d{1,4}$/.test(s),
  beneficiary_address: (s) => s.length <= 150,
  beneficiary_city: (s) => s.length <= 50,
  beneficiary_state: (s) => s.length <= 50,
  beneficiary_postal_code: (s) => /^\d{6}$/.test(s),
};

function checkContact(v: unknown): void {
  if (absent(v)) return;
  const prefix = 'beneficiary_details.beneficiary_contact_details';
  if (!isObject(v)) throw invalid(`${prefix}_invalid`, 'beneficiary_contact_details should be an object');
  for (const [field, ok] of Object.entries(CONTACT_RULES)) {
    const value = v[field];
    if (absent(value)) continue;
    if (typeof value !== 'string' || !ok(value)) throw invalid(`${prefix}.${field}_invalid`, `${field} is invalid`);
  }
}
