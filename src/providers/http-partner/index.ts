// Owns the HTTP connector to one partner endpoint: an undici Pool with keep-alive and per-operation
// deadlines, translating our requests to the partner protocol and its answers back to Outcomes. A
// status it does not recognise maps to pending. Failures are classified by what the partner may have
// done: not reached, refused (4xx), or "unavailable, retry" (503/429) → PartnerError('unavailable')
// (nothing happened; safe to fail over); connect timeout → PartnerError('timeout') (likewise); no
// answer after the request was sent, or any other 5xx → NoAnswer carrying a pending Outcome (the money
// may have moved: the operation stays pending and reconciliation asks the partner).
import { Pool, errors } from 'undici';
import { commissionPaise, DTH_OPERATORS, MOBILE_OPERATORS } from '../../catalog/operators.js';
import { bankNameOf } from '../../catalog/ifsc.js';
import { paiseToInr } from '../../money.js';
import { NoAnswer, PartnerError, type LegacyConnector, type FinalOutcome, type Outcome } from '../connector.js';
import { PARTNER_PATHS, partnerStatusPath, type PartnerAnswer } from './protocol.js';

export { NoAnswer, PartnerError };

type Op = keyof typeof PARTNER_PATHS;
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
function fieldsFrom(op: Op, a: PartnerAnswer, ctx: { txnId: string; amountPaise?: number; commissionPaise?: number }): Obj {
  const d = (a.data ?? {}) as Obj;
  switch (op) {
    case 'signatureMatch':
      return { name_match_score: d.score, extracted_name: d.extracted_name };
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
    case 'upiPay':
      return { txn_id: ctx.txnId, amount: paiseToInr(ctx.amountPaise ?? 0), utr: a.reference ?? null };
    case 'mobileRecharge':
    case 'dthRecharge':
      return {
        txn_id: ctx.txnId,
        amount: paiseToInr(ctx.amountPaise ?? 0),
        utr: a.reference ?? null,
        commission: a.status === 'FAILURE' ? 0 : paiseToInr(ctx.commissionPaise ?? 0),
      };
  }
}

export function outcomeFrom(op: Op, a: PartnerAnswer, ctx: { txnId: string; amountPaise?: number; commissionPaise?: number }): Outcome {
  const status = a.status === 'SUCCESS' ? 'success' : a.status === 'FAILURE' ? 'failed' : 'pending';
  const message = typeof a.message === 'string' && a.message ? a.message : status === 'pending' ? 'Awaiting the partner network' : `Partner answered ${a.status}`;
  return { status, message, fields: fieldsFrom(op, a, ctx) };
}

/** A final outcome from a partner answer, or null when the answer is not final. */
export function finalFrom(op: Op, a: PartnerAnswer, ctx: { txnId: string; amountPaise?: number; commissionPaise?: number }): FinalOutcome | null {
  const o = outcomeFrom(op, a, ctx);
  return o.status === 'pending' ? null : (o as FinalOutcome);
}

export const OP_OF_SLUG: Record<string, Op> = {
  'signature-match': 'signatureMatch',
  'doclocker-initialize': 'aadhaarInitialize',
  'doclocker-download-aadhaar': 'aadhaarDownload',
  'mobile-to-bank-account': 'mobileToBank',
  'upi-payment-status': 'upiPay',
  'recharge-commission': 'mobileRecharge',
  'dth-recharge': 'dthRecharge',
};

const SLUG_OF = Object.fromEntries(Object.entries(OP_OF_SLUG).map(([slug, op]) => [op, slug])) as Record<Op, string>;

export class HttpPartnerConnector implements LegacyConnector {
  private pool: Pool;

  constructor(private opts: HttpPartnerOptions) {
    this.pool = new Pool(opts.baseUrl, { connections: opts.connections ?? 64, keepAliveTimeout: 30_000, connect: { timeout: Math.min(opts.timeoutMs, 5000) } });
  }

  private async call(op: Op, body: Obj, ctx: { txnId: string; amountPaise?: number; commissionPaise?: number }): Promise<Outcome> {
    let answer: PartnerAnswer;
    const timeout = this.opts.timeoutFor?.(SLUG_OF[op]) ?? this.opts.timeoutMs;
    const noAnswer = (why: string) =>
      new NoAnswer({ status: 'pending', message: why, fields: fieldsFrom(op, { client_ref: ctx.txnId, status: 'PENDING', partner_ref: '', message: '' }, ctx) });
    try {
      const res = await this.pool.request({
        method: 'POST',
        path: PARTNER_PATHS[op],
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_ref: ctx.txnId, callback_url: this.opts.callbackUrl, ...body }),
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      if (res.statusCode >= 400) {
        await res.body.dump();
        const safe = res.statusCode < 500 || res.statusCode === 503;
        if (!safe) throw noAnswer(`The partner network failed while handling the request (HTTP ${res.statusCode}); the outcome will follow`);
        throw new PartnerError('unavailable', `The partner network refused the request (HTTP ${res.statusCode}); nothing was executed or debited`);
      }
      answer = (await res.body.json()) as PartnerAnswer;
    } catch (err) {
      if (err instanceof PartnerError || err instanceof NoAnswer) throw err;
      if (err instanceof errors.ConnectTimeoutError) throw new PartnerError('timeout', 'The partner network could not be reached in time; nothing was executed or debited');
      if (UNSENT.has((err as { code?: string }).code ?? '')) {
        throw new PartnerError('unavailable', 'The partner network is unreachable; nothing was executed or debited');
      }
      // Sent, but no answer: the partner may have acted. Pending; the status enquiry settles it.
      throw noAnswer('The partner network has not answered yet; the outcome will follow');
    }
    return outcomeFrom(op, answer, ctx);
  }

  /** Status enquiry by our transaction id; null when the partner does not know it. */
  async status(clientRef: string): Promise<PartnerAnswer | null> {
    const res = await this.pool.request({ method: 'GET', path: partnerStatusPath(clientRef), headersTimeout: this.opts.timeoutMs, bodyTimeout: this.opts.timeoutMs });
    if (res.statusCode === 404) {
      await res.body.dump();
      return null;
    }
    if (res.statusCode >= 400) {
      await res.body.dump();
      throw new PartnerError('unavailable', `status enquiry failed with HTTP ${res.statusCode}`);
    }
    return (await res.body.json()) as PartnerAnswer;
  }

  signatureMatch(r: { txnId: string; input: string; name?: string }) {
    return this.call('signatureMatch', { input: r.input, name: r.name }, r);
  }

  aadhaarInitialize(r: { txnId: string; redirectUrl?: string }): Promise<Outcome> {
    return this.call('aadhaarInitialize', { redirect_url: r.redirectUrl }, r);
  }

  aadhaarDownload(r: { txnId: string; clientId: string; aadhaarNumber?: string }) {
    return this.call('aadhaarDownload', { client_id: r.clientId, aadhaar_number: r.aadhaarNumber }, r);
  }

  mobileToBank(r: { txnId: string; mobile: string; accountNumber?: string; ifsc?: string }) {
    return this.call('mobileToBank', { mobile: r.mobile, account_number: r.accountNumber, ifsc: r.ifsc }, r);
  }

  upiPay(r: { txnId: string; vpa: string; amountPaise: number }) {
    return this.call('upiPay', { vpa: r.vpa, amount_paise: r.amountPaise }, r);
  }

  mobileRecharge(r: { txnId: string; mobile: string; operator: string; circle?: string; type: 'prepaid' | 'postpaid'; amountPaise: number }) {
    const commission = commissionPaise(MOBILE_OPERATORS, r.operator, r.amountPaise);
    return this.call('mobileRecharge', { mobile: r.mobile, operator: r.operator, circle: r.circle, type: r.type, amount_paise: r.amountPaise }, { ...r, commissionPaise: commission });
  }

  dthRecharge(r: { txnId: string; subscriberId: string; operator: string; amountPaise: number }) {
    const commission = commissionPaise(DTH_OPERATORS, r.operator, r.amountPaise);
    return this.call('dthRecharge', { subscriber_id: r.subscriberId, operator: r.operator, amount_paise: r.amountPaise }, { ...r, commissionPaise: commission });
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
