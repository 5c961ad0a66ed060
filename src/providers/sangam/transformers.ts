// Owns the translation between our terms and the simulator protocol (kind `sangam`, protocol.ts):
// each operation request as the wire body the simulator takes, and its answers (SUCCESS, FAILURE,
// PENDING, anything else → pending) as PartnerOutcomes with their typed result: a payment's or a
// recharge's (amounts in paise), a signature comparison's, a bank account lookup's, a document-locker
// session's or download's.
import { bankNameOf } from '../../../shared/ifsc.js';
import type { MoneyResult, OperationRequest, OperationSlug, PartnerOutcome, PartnerResult, PayeeResult } from '../connector.js';
import { PARTNER_PATHS, type PartnerAnswer } from '../../../shared/protocol.js';

export type Op = keyof typeof PARTNER_PATHS;
type Obj = Record<string, unknown>;

export interface HttpPartnerOptions {
  baseUrl: string;
  callbackUrl: string;
  timeoutMs: number;
  /** Deadline for one operation; defaults to timeoutMs. */
  timeoutFor?: (slug: string) => number;
  connections?: number;
}

/** Errors that mean the request never reached the partner. */
const UNSENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Our result from the partner's, per operation (the partner's names are its own). */
const amount = (ctx: Amounts) => (ctx.amountPaise !== undefined ? { amountPaise: ctx.amountPaise } : {});

export function resultFrom(op: Op, a: PartnerAnswer, ctx: Amounts): PartnerResult {
  if (op === 'upiPay' || op === 'mobileRecharge' || op === 'dthRecharge') return { money: moneyFrom(op, a, ctx) };
  return verificationFrom(op, a);
}

/** A field of the simulator's `data` (the protocol leaves it untyped), taken as given. */
const str = (v: unknown) => v as string;

/** A verification's result. */
function verificationFrom(op: Exclude<Op, 'upiPay' | 'mobileRecharge' | 'dthRecharge'>, a: PartnerAnswer): PartnerResult {
  const d = (a.data ?? {}) as Obj;
  switch (op) {
    case 'signatureMatch':
      return { signature: { score: d.score as number | undefined, extractedName: typeof d.extracted_name === 'string' ? d.extracted_name : null } };
    case 'aadhaarInitialize':
      return { session: { clientId: d.client_id as string | undefined, authorizationUrl: d.authorization_url as string | undefined } };
    case 'aadhaarDownload': {
      if (d.name === undefined) return { aadhaar: {} };
      const ad = (d.address ?? {}) as Obj;
      const record = {
        fullName: str(d.name),
        careOf: str(d.care_of),
        dob: str(d.dob),
        gender: str(d.gender),
        maskedAadhaar: str(d.masked_uid),
        fullAddress: str(d.address_line),
        photo: str(d.photo_b64),
        address: { country: str(ad.country), state: str(ad.state), district: str(ad.district), street: str(ad.street) },
      };
      return { aadhaar: { record, download: { done: true, message: a.message } } };
    }
    case 'mobileToBank': {
      if (d.holder_name === undefined) return { account: {} };
      // A partner that leaves out the bank name gets the directory's; a branch name only it can give.
      const bankName = (d.bank_name ?? (typeof d.ifsc === 'string' ? bankNameOf(d.ifsc) : null)) as string | null;
      const account = { holderName: str(d.holder_name), maskedNumber: str(d.account_number_masked), ifsc: str(d.ifsc), bankName, branch: (d.branch ?? null) as string | null };
      const flag = (k: string) => (typeof d[k] === 'boolean' ? (d[k] as boolean) : undefined);
      return { account: { account, accountNumberMatch: flag('account_number_match'), ifscMatch: flag('ifsc_match'), all: flag('account_match') } };
    }
    case 'accountVerify':
    case 'vpaVerify': {
      const found = d.status === 'valid' || d.status === 'invalid' ? d.status : 'unknown';
      const payee: PayeeResult = {
        status: found,
        nameAtBank: typeof d.name_at_bank === 'string' ? d.name_at_bank : null,
        ...(typeof d.reason === 'string' ? { reason: d.reason } : {}),
        ...(d.method === 'penny_drop' || d.method === 'pennyless' ? { method: d.method } : {}),
        ...(typeof d.utr === 'string' ? { utr: d.utr } : {}),
        ...(typeof d.ifsc === 'string' ? { ifsc: d.ifsc } : {}),
        ...(typeof d.account_type === 'string' ? { accountType: d.account_type } : {}),
      };
      return op === 'accountVerify' ? { bankAccount: payee } : { vpa: payee };
    }
  }
}

/** A payment's or a recharge's result. A callback knows no amounts: it leaves the stored ones as they are. */
function moneyFrom(op: 'upiPay' | 'mobileRecharge' | 'dthRecharge', a: PartnerAnswer, ctx: Amounts): MoneyResult {
  if (op === 'upiPay') return { txnId: ctx.txnId, ...amount(ctx), utr: a.reference ?? null };
  return {
    txnId: ctx.txnId,
    ...amount(ctx),
    utr: a.reference ?? null,
    ...(a.status === 'FAILURE' ? { commissionPaise: 0 } : ctx.commissionPaise !== undefined ? { commissionPaise: ctx.commissionPaise } : {}),
  };
}

export function outcomeFrom(op: Op, a: PartnerAnswer, ctx: Amounts): PartnerOutcome {
  const status = a.status === 'SUCCESS' ? 'success' : a.status === 'FAILURE' ? 'failed' : 'pending';
  const message = typeof a.message === 'string' && a.message ? a.message : status === 'pending' ? 'Awaiting the partner network' : `Partner answered ${a.status}`;
  return { status, message, ...resultFrom(op, a, ctx) };
}


export const OP_OF_SLUG: Record<OperationSlug, Op> = {
  'signature-match': 'signatureMatch',
  'doclocker-initialize': 'aadhaarInitialize',
  'doclocker-download-aadhaar': 'aadhaarDownload',
  'mobile-to-bank-account': 'mobileToBank',
  'upi-payment-status': 'upiPay',
  'recharge-commission': 'mobileRecharge',
  'dth-recharge': 'dthRecharge',
  'account-verification': 'accountVerify',
  'vpa-verification': 'vpaVerify',
};

/** The wire body of a request, in the simulator's field names. */
export function wireBody(req: OperationRequest): Obj {
  switch (req.operation) {
    case 'signature-match':
      return { input: req.input, name: req.name };
    case 'doclocker-initialize':
      return { redirect_url: req.redirectUrl };
    case 'doclocker-download-aadhaar':
      return { client_id: req.clientId, aadhaar_number: req.aadhaarNumber };
    case 'mobile-to-bank-account':
      return { mobile: req.mobile, account_number: req.accountNumber, ifsc: req.ifsc };
    case 'upi-payment-status':
      return { vpa: req.vpa, amount_paise: req.amountPaise };
    case 'recharge-commission':
      return { mobile: req.mobile, operator: req.operator, circle: req.circle, type: req.type, amount_paise: req.amountPaise };
    case 'dth-recharge':
      return { subscriber_id: req.subscriberId, operator: req.operator, amount_paise: req.amountPaise };
    case 'account-verification':
      return { account_number: req.accountNumber, ifsc: req.ifsc, name: req.name };
    case 'vpa-verification':
      return { vpa: req.vpa, name: req.name };
  }
}

/** Amounts that shape the result fields of an answer. */
export interface Amounts {
  txnId: string;
  amountPaise?: number;
  commissionPaise?: number;
}

export const amountsOf = (req: OperationRequest): Amounts => ({
  txnId: req.txnId,
  amountPaise: 'amountPaise' in req ? req.amountPaise : undefined,
  commissionPaise: 'commissionPaise' in req ? req.commissionPaise : undefined,
});
