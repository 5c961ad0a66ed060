// Owns request validation for the emulated endpoints, field rules as documented (PARTNERS.md §2.2–2.5, §9.1).
// Every failure is a 400 BAD_REQUEST_ERROR naming the field. The rule texts are [P]; the description
// wording is [G] (written in the style of Razorpay's messages).
import { ifscExists } from '../../shared/ifsc.js';
import { badRequest } from './errors.js';
import type { Notes } from './entities.js';

type Body = Record<string, unknown>;

export interface ContactInput {
  name: string;
  email: string | null;
  contact: string | null;
  type: string | null;
  reference_id: string | null;
  notes: Notes;
}

export interface PayoutInput {
  fundAccountId: string | null;
  /** The composite form: fund account (and its contact) inline. */
  composite: { contact: ContactInput; address: string } | null;
  amount: number;
  purpose: string;
  queueIfLowBalance: boolean;
  reference_id: string | null;
  narration: string | null;
  notes: Notes;
}

/** [P] the default contact types and payout purposes; custom ones exist only via the Dashboard. */
export const CONTACT_TYPES = new Set(['vendor', 'customer', 'employee', 'self']);
export const PURPOSES = new Set(['refund', 'cashback', 'payout', 'salary', 'utility bill', 'vendor bill']);

// [P] name: 3–50 chars of `a-z A-Z 0-9 space ’ - _ / ( ) .`, not ending in a special char except `.`
// ([G] the ASCII apostrophe is accepted beside ’).
const NAME = /^[a-zA-Z0-9 ’'\-_/().]{3,50}$/;
const NAME_END = /[a-zA-Z0-9.]$/;
// [P] vpa.address: 3–100 chars of `a-z A-Z 0-9 . -` and exactly one `@`.
const VPA = /^[a-zA-Z0-9.-]+@[a-zA-Z0-9.-]+$/;
// [P] narration: ≤30 chars of a-zA-Z0-9 and space.
const NARRATION = /^[a-zA-Z0-9 ]{0,30}$/;
// [G] email / phone: loose checks only.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9]{8,15}$/;

export function asObject(v: unknown, field?: string): Body {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw badRequest(field ? `The ${field} field must be an object.` : 'The request body must be a JSON object.', field);
  return v as Body;
}

/** [G] Razorpay rejects fields it does not know: "<field> is/are not required and should not be sent". */
function onlyKnown(b: Body, known: readonly string[], prefix = ''): void {
  const extra = Object.keys(b).filter((k) => !known.includes(k));
  if (extra.length) throw badRequest(`${extra.map((k) => prefix + k).join(', ')} is/are not required and should not be sent`, prefix + extra[0]);
}

function optString(b: Body, key: string, max: number, field = key): string | null {
  const v = b[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw badRequest(`The ${field} must be a string.`, field);
  if (v.length > max) throw badRequest(`The ${field} may not be greater than ${max} characters.`, field);
  return v;
}

function reqString(b: Body, key: string, field = key): string {
  const v = b[key];
  if (v === undefined || v === null || v === '') throw badRequest(`The ${field} field is required.`, field);
  if (typeof v !== 'string') throw badRequest(`The ${field} must be a string.`, field);
  return v;
}

/** [P] notes: at most 15 key-value pairs, each value at most 256 characters. */
function notes(b: Body, field = 'notes'): Notes {
  const v = b.notes;
  if (v === undefined || v === null) return {};
  const o = asObject(v, field);
  const entries = Object.entries(o);
  if (entries.length > 15) throw badRequest('The notes may not have more than 15 items.', field);
  const out: Notes = {};
  for (const [k, val] of entries) {
    if (typeof val !== 'string' && typeof val !== 'number') throw badRequest(`The ${field}.${k} must be a string.`, field);
    if (String(val).length > 256) throw badRequest(`The ${field}.${k} may not be greater than 256 characters.`, field);
    out[k] = String(val);
  }
  return out;
}

export function validateContact(raw: unknown, prefix = ''): ContactInput {
  const b = asObject(raw, prefix ? prefix.slice(0, -1) : undefined);
  onlyKnown(b, ['name', 'email', 'contact', 'type', 'reference_id', 'notes'], prefix);
  const name = reqString(b, 'name', `${prefix}name`);
  if (!NAME.test(name) || !NAME_END.test(name)) throw badRequest('The name format is invalid.', `${prefix}name`);
  const email = optString(b, 'email', 255, `${prefix}email`);
  if (email !== null && !EMAIL.test(email)) throw badRequest('The email must be a valid email address.', `${prefix}email`);
  const contact = optString(b, 'contact', 20, `${prefix}contact`);
  if (contact !== null && !PHONE.test(contact)) throw badRequest('The contact format is invalid.', `${prefix}contact`);
  const type = optString(b, 'type', 40, `${prefix}type`);
  // [P] the documented failure sample: "Invalid type: employee", field "type"
  if (type !== null && !CONTACT_TYPES.has(type)) throw badRequest(`Invalid type: ${type}`, `${prefix}type`);
  return { name, email, contact, type, reference_id: optString(b, 'reference_id', 40, `${prefix}reference_id`), notes: notes(b, `${prefix}notes`) };
}

export function validateVpaAddress(b: Body, field: string): string {
  const vpa = asObject(b.vpa ?? undefined, field);
  const address = reqString(vpa, 'address', `${field}.address`);
  if (address.length < 3 || address.length > 100 || !VPA.test(address)) throw badRequest('Invalid VPA. Please enter a valid Virtual Payment Address', `${field}.address`);
  return address;
}

function accountType(b: Body, field: string): void {
  const t = reqString(b, 'account_type', field);
  // [G] bank_account / card / wallet fund accounts exist upstream; the emulator pays to UPI only (a
  // validation takes a bank account too: inlineValidationAccount).
  if (t !== 'vpa') throw badRequest(`The account_type ${t} is not supported by this emulator; use vpa.`, field);
}

export function validateFundAccount(raw: unknown): { contactId: string; address: string } {
  const b = asObject(raw);
  onlyKnown(b, ['contact_id', 'account_type', 'vpa']);
  const contactId = reqString(b, 'contact_id');
  accountType(b, 'account_type');
  return { contactId, address: validateVpaAddress(b, 'vpa') };
}

function amount(b: Body): number {
  const v = b.amount;
  if (v === undefined || v === null) throw badRequest('The amount field is required.', 'amount');
  if (typeof v !== 'number' || !Number.isInteger(v)) throw badRequest('The amount must be an integer.', 'amount');
  // [P] "Minimum value 100" (paise)
  if (v < 100) throw badRequest('The amount must be at least 100.', 'amount');
  return v;
}

function composite(raw: unknown): PayoutInput['composite'] {
  const fa = asObject(raw, 'fund_account');
  onlyKnown(fa, ['account_type', 'vpa', 'contact'], 'fund_account.');
  accountType(fa, 'fund_account.account_type');
  const address = validateVpaAddress(fa, 'fund_account.vpa');
  if (fa.contact === undefined) throw badRequest('The fund_account.contact field is required.', 'fund_account.contact');
  return { address, contact: validateContact(fa.contact, 'fund_account.contact.') };
}

/** Create-payout rules [P §2.4]; `account_number` must be the emulator's business account. */
export function validatePayout(raw: unknown, accountNumber: string): PayoutInput {
  const b = asObject(raw);
  onlyKnown(b, ['account_number', 'fund_account_id', 'fund_account', 'amount', 'currency', 'mode', 'purpose', 'queue_if_low_balance', 'reference_id', 'narration', 'notes']);
  const acct = reqString(b, 'account_number');
  // [G] wording; the docs say only that it is your RazorpayX account and differs between Test and Live.
  if (acct !== accountNumber) throw badRequest('The account number is invalid.', 'account_number');
  if (b.fund_account_id !== undefined && b.fund_account !== undefined) throw badRequest('Only one of fund_account_id or fund_account may be sent.', 'fund_account_id');
  const fundAccountId = b.fund_account !== undefined ? null : reqString(b, 'fund_account_id');
  const paise = amount(b);
  if (reqString(b, 'currency') !== 'INR') throw badRequest('The selected currency is invalid.', 'currency');
  // [P] `UPI`, case-sensitive upper case; [G] other modes need other fund account types, not emulated.
  const mode = reqString(b, 'mode');
  if (mode !== 'UPI') throw badRequest(`Invalid mode: ${mode}. A payout to a vpa fund account must use mode UPI.`, 'mode');
  const purpose = reqString(b, 'purpose');
  if (!PURPOSES.has(purpose)) throw badRequest(`Invalid purpose: ${purpose}`, 'purpose');
  const q = b.queue_if_low_balance;
  if (q !== undefined && typeof q !== 'boolean') throw badRequest('The queue_if_low_balance field must be true or false.', 'queue_if_low_balance');
  const narration = optString(b, 'narration', 30);
  if (narration !== null && !NARRATION.test(narration)) throw badRequest('The narration format is invalid.', 'narration');
  return {
    fundAccountId,
    composite: b.fund_account !== undefined ? composite(b.fund_account) : null,
    amount: paise,
    purpose,
    queueIfLowBalance: q === true,
    reference_id: optString(b, 'reference_id', 40),
    narration,
    notes: notes(b),
  };
}

/** [P] "4-36 characters … alphabets, numbers, hyphens, underscores and space". */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9_\- ]{4,36}$/;

export interface BankAccountInput {
  name: string;
  ifsc: string;
  account_number: string;
}

export interface ValidationRequest {
  /** The older generation: an existing fund account by id. */
  fundAccountId: string | null;
  /** The current generation: the VPA fund account and its contact inline. */
  composite: { contact: ContactInput; address: string } | null;
  /** The current generation: a bank account fund account and its contact inline. */
  bank: { contact: ContactInput; account: BankAccountInput } | null;
  reference_id: string | null;
  notes: Notes;
}

// [P] api/x/fund-accounts/create/bank-account.md: name 3–120 of the contact name's characters; IFSC "has
// to be 11 characters"; account number 5–35 of a-z A-Z 0-9.
const BANK_NAME = /^[a-zA-Z0-9 ’'\-_/().]{3,120}$/;
const ACCOUNT_NUMBER = /^[a-zA-Z0-9]{5,35}$/;

/**
 * [P] the bank account object of a fund account; [P] its documented refusals ("The IFSC must be 11
 * characters.", "The account number format is invalid."). [G] a well-formed IFSC that is no branch in
 * the directory (shared/ifsc.ts) is refused with the IFSC's text too.
 */
function validateBankAccount(b: Body, field: string): BankAccountInput {
  const a = asObject(b.bank_account ?? undefined, field);
  onlyKnown(a, ['name', 'ifsc', 'account_number'], `${field}.`);
  const name = reqString(a, 'name', `${field}.name`);
  if (!BANK_NAME.test(name) || !NAME_END.test(name)) throw badRequest('The name format is invalid.', `${field}.name`);
  const ifsc = reqString(a, 'ifsc', `${field}.ifsc`);
  if (ifsc.length !== 11 || !ifscExists(ifsc)) throw badRequest('The IFSC must be 11 characters.', `${field}.ifsc`);
  const account_number = reqString(a, 'account_number', `${field}.account_number`);
  if (!ACCOUNT_NUMBER.test(account_number)) throw badRequest('The account number format is invalid.', `${field}.account_number`);
  return { name, ifsc, account_number };
}

/** The inline fund account of a current-generation validation: a VPA or a bank account, with its contact. */
function inlineValidationAccount(fa: Body): Pick<ValidationRequest, 'composite' | 'bank'> {
  onlyKnown(fa, ['account_type', 'vpa', 'bank_account', 'contact'], 'fund_account.');
  const type = reqString(fa, 'account_type', 'fund_account.account_type');
  if (fa.contact === undefined) throw badRequest('The fund_account.contact field is required.', 'fund_account.contact');
  const contact = () => validateContact(fa.contact, 'fund_account.contact.');
  if (type === 'bank_account') return { composite: null, bank: { account: validateBankAccount(fa, 'fund_account.bank_account'), contact: contact() } };
  accountType(fa, 'fund_account.account_type');
  return { composite: { address: validateVpaAddress(fa, 'fund_account.vpa'), contact: contact() }, bank: null };
}

/**
 * Fund account validation, both documented request generations [P §9.1]: current
 * (`source_account_number`, `validation_type`, `reference_id`, `notes`, `fund_account` inline: a VPA, or
 * [P composite-account-validation.md "Validate a Bank Account: Creates and validates the contact's bank
 * account"] a bank account) and older (`account_number`, `fund_account: {id}`, `notes`, `amount` (paise,
 * default 100: the penny drop) and `currency`; ignored for a VPA).
 * [G] `validation_type` is optional (the composite VPA sample omits it); only `pennydrop` is emulated
 * (`upi_intent`, the reverse penny drop, needs a person to pay).
 */
export function validateValidation(raw: unknown, accounts: { lite: string; current: string }): ValidationRequest {
  const b = asObject(raw);
  onlyKnown(b, ['source_account_number', 'account_number', 'validation_type', 'reference_id', 'notes', 'fund_account', 'amount', 'currency']);
  const field = b.source_account_number !== undefined ? 'source_account_number' : 'account_number';
  const source = reqString(b, field);
  // [P] "Account Validation … is possible only for RazorpayX Lite"; `source_account_number` is "your customer
  // identifier" of RazorpayX Lite (api/x/account-validation.md, …/vpa.md). [G] the refusal's words and field.
  if (source === accounts.current && source !== accounts.lite) throw badRequest('Account Validation is possible only for RazorpayX Lite: pass your RazorpayX Lite customer identifier.', field);
  if (source !== accounts.lite) throw badRequest('The account number is invalid.', field);
  const type = optString(b, 'validation_type', 20);
  if (type !== null && type !== 'pennydrop') throw badRequest(`The validation_type ${type} is not supported by this emulator; use pennydrop.`, 'validation_type');
  const fa = asObject(b.fund_account ?? undefined, 'fund_account');
  const common = { reference_id: optString(b, 'reference_id', 40), notes: notes(b) };
  if (fa.id !== undefined) {
    onlyKnown(fa, ['id'], 'fund_account.');
    return { fundAccountId: reqString(fa, 'id', 'fund_account.id'), composite: null, bank: null, ...common };
  }
  return { fundAccountId: null, ...inlineValidationAccount(fa), ...common };
}
