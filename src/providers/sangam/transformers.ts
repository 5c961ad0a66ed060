// Owns the translation between our terms and the simulator protocol (kind `sangam`, protocol.ts):
// each operation request as the wire body the simulator takes, and its answers (SUCCESS, FAILURE,
// PENDING, anything else → pending) as Outcomes with our result fields.
import { bankNameOf } from '../../../shared/ifsc.js';
import { paiseToInr } from '../../money.js';
import type { Outcome, OperationRequest, OperationSlug } from '../connector.js';
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

/** Our fields from the partner's, per operation (the partner's names are its own). */
const amount = (ctx: Amounts) => (ctx.amountPaise !== undefined ? { amount: paiseToInr(ctx.amountPaise) } : {});

export function fieldsFrom(op: Op, a: PartnerAnswer, ctx: Amounts): Obj {
  const d = (a.data ?? {}) as Obj;
  switch (op) {
    case 'signatureMatch':
      return { name_match_score: d.score, extracted_name: typeof d.extracted_name === 'string' ? d.extracted_name : null };
    case 'aadhaarInitialize':
      return { doclocker__client__id: d.client_id, authorization_url: d.authorization_url };
    case 'aadhaarDownload': {
      if (d.name === undefined) return {};
      const ad = (d.address ?? {}) as Obj;
      return {
        Aadhaar_Xml_Data: {
          Full_Name: d.name,
          Care_Of: d.care_of,
          Dob: d.dob,
          Gender: d.gender,
          Masked_Aadhaar: d.masked_uid,
          Full_Address: d.address_line,
          Profile_Image: d.photo_b64,
          Address: { Country: ad.country, State: ad.state, Dist: ad.district, Street: ad.street },
        },
        Errorcode: 100,
        Status: 'success',
        Message: a.message,
      };
    }
    case 'mobileToBank': {
      const base: Obj = { service: 'mobile-to-bank-account' };
      if (d.holder_name === undefined) return base;
      // A partner that leaves out the bank name gets the directory's; a branch name only it can give.
      const bankName = d.bank_name ?? (typeof d.ifsc === 'string' ? bankNameOf(d.ifsc) : null);
      base.account = { account_holder_name: d.holder_name, account_number: d.account_number_masked, ifsc: d.ifsc, bank_name: bankName, branch: d.branch ?? null };
      for (const k of ['account_number_match', 'ifsc_match', 'account_match']) if (typeof d[k] === 'boolean') base[k] = d[k];
      return base;
    }
    // A callback knows no amounts: it leaves the stored ones as they are.
    case 'upiPay':
      return { txn_id: ctx.txnId, ...amount(ctx), utr: a.reference ?? null };
    case 'mobileRecharge':
    case 'dthRecharge':
      return {
        txn_id: ctx.txnId,
        ...amount(ctx),
        utr: a.reference ?? null,
        ...(a.status === 'FAILURE' ? { commission: 0 } : ctx.commissionPaise !== undefined ? { commission: paiseToInr(ctx.commissionPaise) } : {}),
      };
  }
}

export function outcomeFrom(op: Op, a: PartnerAnswer, ctx: Amounts): Outcome {
  const status = a.status === 'SUCCESS' ? 'success' : a.status === 'FAILURE' ? 'failed' : 'pending';
  const message = typeof a.message === 'string' && a.message ? a.message : status === 'pending' ? 'Awaiting the partner network' : `Partner answered ${a.status}`;
  return { status, message, fields: fieldsFrom(op, a, ctx) };
}


export const OP_OF_SLUG: Record<OperationSlug, Op> = {
  'signature-match': 'signatureMatch',
  'doclocker-initialize': 'aadhaarInitialize',
  'doclocker-download-aadhaar': 'aadhaarDownload',
  'mobile-to-bank-account': 'mobileToBank',
  'upi-payment-status': 'upiPay',
  'recharge-commission': 'mobileRecharge',
  'dth-recharge': 'dthRecharge',
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
