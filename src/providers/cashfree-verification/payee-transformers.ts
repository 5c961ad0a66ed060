// Owns the translation between our payee verifications (account-verification, vpa-verification; CONTRACT
// §14) and Cashfree's Bank Account Verification V2 and UPI Verification V2, in Cashfree's own names as its
// OpenAPI has them (docs/partners/cashfree-verification/openapi-VRS.subset.json): the request bodies of
// POST /bank-account/sync, /bank-account/async and /upi, their answers and errors, and the mapping of
// an answer to a PayeeResult. A completed check is a `success` whatever it found (`valid` or `invalid`);
// a check the bank did not answer is `failed` with `unknown`; a check still running is `pending`
// (PARTNER.md, "A finding is a success").
import type { PartnerOutcome, PayeeResult } from '../connector.js';

// ---- Cashfree's shapes, in its names ---------------------------------------------------------------

/** BankAccountVerificationSyncRequestSchema / …AsyncRequestSchema. `name` and `phone` are never sent (PARTNER.md). */
export interface CfBavRequest {
  bank_account: string;
  ifsc: string;
  /** Async only: "Only alphanumeric and underscore ( _ ) are allowed", at most 40 (its 400 examples). */
  user_id?: string;
}

/** BAVV2ValidationSuccessfulSchema, BAVAsyncV2ResponseSchema, BAVV2GETValidationSuccessfulSchema (all optional). */
export interface CfBavAnswer {
  reference_id?: number;
  user_id?: string;
  name_at_bank?: string | null;
  bank_name?: string | null;
  utr?: string | null;
  branch?: string | null;
  account_status?: string;
  account_status_code?: string | null;
}

/** UPIv2RequestSchema. `name` is never sent (PARTNER.md). */
export interface CfUpiRequest {
  verification_id: string;
  vpa: string;
}

/** UPIv2ResponseSchema (POST /upi and GET /upi). */
export interface CfUpiAnswer {
  verification_id?: string;
  reference_id?: number;
  status?: string;
  name_at_bank?: string | null;
  vpa?: string;
}

/** ErrorResponseSchema: `{type, code, message, error?}`; a bank-side 422 carries `error.reference_id`. */
export interface CfPayeeError {
  type?: string;
  code?: string;
  message?: string;
  error?: { reference_id?: number };
}

// ---- Requests ----------------------------------------------------------------------------------------

/** [P] BAV `user_id`: alphanumeric and underscore, at most 40 (400 `user_id_value_invalid`, `user_id_length_exceeded`). */
const USER_ID = /^[A-Za-z0-9_]{1,40}$/;
/** [P] UPI `verification_id`: at most 50 of alphanumerics, `.`, `-`, `_` (UPIv2RequestSchema). */
const VERIFICATION_ID = /^[A-Za-z0-9._-]{1,50}$/;
/** [P] UPI `vpa`: alphanumerics, `.`, `-`, `_` and `@` (UPIv2RequestSchema). */
const VPA = /^[A-Za-z0-9._-]+@[A-Za-z0-9._-]+$/;
/** [P] `bank_account`: alphanumeric, 6 to 40 (BAV request schemas and their 400 examples). */
const BANK_ACCOUNT = /^[A-Za-z0-9]{6,40}$/;

/** Why Cashfree cannot take this request at all (its own documented limits), or null. */
export function unsendable(req: { operation: 'account-verification'; accountNumber: string } | { operation: 'vpa-verification'; vpa: string }): string | null {
  if (req.operation === 'account-verification') return BANK_ACCOUNT.test(req.accountNumber) ? null : 'Cashfree verifies account numbers of 6 to 40 letters and digits only';
  return VPA.test(req.vpa) ? null : 'Cashfree verifies VPAs of letters, digits, period, hyphen and underscore only';
}

/** The body of POST /bank-account/sync, or /bank-account/async with `user_id` = our transaction id. */
export function bavBody(accountNumber: string, ifsc: string, userId?: string): CfBavRequest {
  if (userId !== undefined && !USER_ID.test(userId)) throw new Error(`transaction id ${userId} cannot be a Cashfree user_id`);
  return { bank_account: accountNumber, ifsc, ...(userId !== undefined ? { user_id: userId } : {}) };
}

/** The body of POST /upi, `verification_id` = our transaction id (so GET /upi finds it with nothing stored). */
export function upiBody(txnId: string, vpa: string): CfUpiRequest {
  if (!VERIFICATION_ID.test(txnId)) throw new Error(`transaction id ${txnId} cannot be a Cashfree verification_id`);
  return { verification_id: txnId, vpa };
}

// ---- Answers -------------------------------------------------------------------------------------------

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const refOf = (n: unknown): { partnerRef?: string } => (typeof n === 'number' && Number.isSafeInteger(n) ? { partnerRef: String(n) } : {});

/** [P] INVALID account_status_code values (BAVV2ValidationSuccessfulSchema, 422AsyncBav), in our words. */
const INVALID_REASONS: Readonly<Record<string, string>> = {
  INVALID_ACCOUNT_FAIL: 'The account does not exist at this bank',
  ACCOUNT_BLOCKED: 'The account is blocked',
  INVALID_IFSC_FAIL: 'The IFSC is not a branch that can be credited',
  NRE_ACCOUNT_FAIL: 'The account is an NRE account, which cannot be credited this way',
};

/** [P] account_status values of the status call that mean "still running" (BAVV2GETValidationSuccessfulSchema). */
const BAV_RUNNING = new Set(['RECEIVED', 'APPROVAL_PENDING', 'PARTIALLY_APPROVED', 'IN_PROCESS', 'PROCESSING']);
/** [P] account_status values that end a check without an answer from the bank. */
const BAV_ENDED = new Set(['FAILED', 'REJECTED', 'CANCELLED', 'MANUALLY_REJECTED']);

export const PAYEE_PENDING_MESSAGE = 'Verification in progress at Cashfree; the outcome will follow';
const unknownResult: PayeeResult = { status: 'unknown', nameAtBank: null };

/** A pending outcome of either operation, in our terms. */
export function payeePending(operation: 'account-verification' | 'vpa-verification', message: string, partnerRef?: string): PartnerOutcome {
  const ref = partnerRef ? { partnerRef } : {};
  return operation === 'account-verification' ? { status: 'pending', message, bankAccount: unknownResult, ...ref } : { status: 'pending', message, vpa: unknownResult, ...ref };
}

/** A parsed body that is an object, or null. */
export function asObject<T>(v: unknown): T | null {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as T) : null;
}

/**
 * Our outcome for a BAV answer (sync, async or status). VALID → success/valid (`penny_drop` when a UTR is
 * given: PARTNER.md), INVALID → success/invalid with its reason, the FAILED family → failed/unknown,
 * RECEIVED and the rest of the running family → pending; VALID without a holder name, or a status not
 * documented → null (the caller keeps it pending: never a guess).
 */
export function bavOutcome(a: CfBavAnswer): PartnerOutcome | null {
  const status = text(a.account_status)?.toUpperCase();
  const code = text(a.account_status_code)?.toUpperCase() ?? '';
  const ref = refOf(a.reference_id);
  if (status === 'VALID') {
    const nameAtBank = text(a.name_at_bank);
    if (!nameAtBank) return null;
    const utr = text(a.utr);
    const found: PayeeResult = { status: 'valid', nameAtBank, ...(utr ? { method: 'penny_drop' as const, utr } : {}) };
    return { status: 'success', message: 'The account exists and can be credited', bankAccount: found, ...ref };
  }
  if (status === 'INVALID') return bavInvalid(code, ref);
  if (status && BAV_ENDED.has(status)) {
    return { status: 'failed', message: `Cashfree could not verify the account (${status}${code ? ` ${code}` : ''}); no answer from the bank`, bankAccount: unknownResult, ...ref };
  }
  if (status && BAV_RUNNING.has(status)) return payeePending('account-verification', PAYEE_PENDING_MESSAGE, ref.partnerRef);
  return null;
}

function bavInvalid(code: string, ref: { partnerRef?: string }): PartnerOutcome {
  const reason = INVALID_REASONS[code] ?? `The account cannot be credited (${code || 'INVALID'})`;
  return { status: 'success', message: 'The account cannot be credited', bankAccount: { status: 'invalid', reason, nameAtBank: null }, ...ref };
}

/** The 422 codes of BAV V2 that are a refusal before any check (nothing charged, failover allowed). */
const BAV_422_REFUSALS = new Set(['insufficient_balance']);

/**
 * A documented BAV 422 (422SyncBav, 422AsyncBav): `invalid_ifsc_fail` is a finding (invalid),
 * `insufficient_balance` a refusal (null: the caller raises a PartnerError), any other code a check the
 * bank side ended without an answer (failed/unknown).
 */
export function bav422Outcome(e: CfPayeeError): PartnerOutcome | null {
  const code = text(e.code)?.toLowerCase() ?? '';
  if (BAV_422_REFUSALS.has(code)) return null;
  const ref = refOf(e.error?.reference_id);
  if (code === 'invalid_ifsc_fail') return bavInvalid('INVALID_IFSC_FAIL', ref);
  return { status: 'failed', message: `Cashfree could not verify the account (${code || 'HTTP 422'}: ${text(e.message) ?? 'bank side failure'}); no answer from the bank`, bankAccount: unknownResult, ...ref };
}

/**
 * Our outcome for a UPI V2 answer. VALID → success/valid, INVALID and EXPIRED → success/invalid,
 * NPCI_NAME_INCORRECT → failed/unknown (PARTNER.md), anything else → pending; VALID without a name → null.
 */
export function upiOutcome(a: CfUpiAnswer): PartnerOutcome | null {
  const status = text(a.status)?.toUpperCase();
  const ref = refOf(a.reference_id);
  if (status === 'VALID') {
    const nameAtBank = text(a.name_at_bank);
    return nameAtBank ? { status: 'success', message: 'The VPA exists', vpa: { status: 'valid', nameAtBank }, ...ref } : null;
  }
  if (status === 'INVALID') return { status: 'success', message: 'The VPA does not exist', vpa: { status: 'invalid', reason: 'The VPA does not exist', nameAtBank: null }, ...ref };
  if (status === 'EXPIRED') return { status: 'success', message: 'The VPA has expired', vpa: { status: 'invalid', reason: 'The VPA has expired', nameAtBank: null }, ...ref };
  if (status === 'NPCI_NAME_INCORRECT') {
    return { status: 'failed', message: 'NPCI could not give the VPA holder’s name (NPCI_NAME_INCORRECT); the VPA was not verified', vpa: unknownResult, ...ref };
  }
  return status ? payeePending('vpa-verification', PAYEE_PENDING_MESSAGE, ref.partnerRef) : null;
}
