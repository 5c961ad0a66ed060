// Owns the sandbox "partner": deterministic simulated answers for every operation (CONTRACT §7).
// It never touches a wallet or a network. Pending outcomes carry their settlement (`settle`), which
// the core stores and the finalizer applies after SANGAM_SANDBOX_PENDING_MS.
import { distance } from 'fastest-levenshtein';
import { commissionPaise, DTH_OPERATORS, MOBILE_OPERATORS, type Operator } from '../../catalog/operators.js';
import { paiseToInr } from '../../money.js';
import { randomDigits } from '../../ids.js';
import type { Connector, FinalOutcome, OperationRequest, Outcome } from '../connector.js';
import { linkedAccount, person } from './people.js';
import { portraitPng } from './png.js';
import { SeededRandom } from './random.js';

/** Normalised token-sort similarity, 0 to 100. */
export function nameMatchScore(a: string, b: string): number {
  const norm = (s: string) => s.toUpperCase().replace(/[^A-Z ]/g, ' ').split(/\s+/).filter(Boolean).sort().join(' ');
  const x = norm(a);
  const y = norm(b);
  const longest = Math.max(x.length, y.length);
  return longest === 0 ? 0 : Math.round(100 * (1 - distance(x, y) / longest));
}

/**
 * How the account and IFSC the client holds compare with the linked account: each flag only when that
 * field was given (an IFSC matches only as the exact branch code), and `account_match`, kept for
 * clients of the first version, true when every given field matches.
 */
export function accountMatches(acc: { account_number: string; ifsc: string }, given: { accountNumber?: string; ifsc?: string }) {
  const m: { account_number_match?: boolean; ifsc_match?: boolean; account_match?: boolean } = {};
  if (given.accountNumber !== undefined) m.account_number_match = given.accountNumber === acc.account_number;
  if (given.ifsc !== undefined) m.ifsc_match = given.ifsc === acc.ifsc;
  if (given.accountNumber !== undefined || given.ifsc !== undefined) m.account_match = m.account_number_match !== false && m.ifsc_match !== false;
  return m;
}

export const sandboxPhoto = (seed: string) => portraitPng(seed).toString('base64');

export class SandboxConnector implements Connector {
  readonly serves = ['signature-match', 'doclocker-download-aadhaar', 'mobile-to-bank-account', 'upi-payment-status', 'recharge-commission', 'dth-recharge'] as const;

  constructor(private pendingMs: number) {}

  /** The deterministic outcome of CONTRACT §7 (the document-locker initialize step keeps its own sessions). */
  execute(req: OperationRequest): Promise<Outcome> {
    switch (req.operation) {
      case 'signature-match':
        return this.signatureMatch(req);
      case 'doclocker-download-aadhaar':
        return this.aadhaarDownload(req);
      case 'mobile-to-bank-account':
        return this.mobileToBank(req);
      case 'upi-payment-status':
        return this.upiPay(req);
      case 'recharge-commission':
        return this.mobileRecharge(req);
      case 'dth-recharge':
        return this.dthRecharge(req);
      case 'doclocker-initialize':
        throw new Error('the sandbox issues document-locker client ids itself (doclocker-initialize/sessions.ts)');
    }
  }

  async signatureMatch(r: { input: string; name?: string }): Promise<Outcome> {
    const extracted = person(`signature:${r.input}`).name;
    const score = r.name !== undefined ? nameMatchScore(r.name, extracted) : 70 + new SeededRandom(`ocr:${r.input}`).int(30);
    return {
      status: 'success',
      message: r.name !== undefined ? `Signature read; name match score ${score}` : `Signature read with confidence ${score}`,
      fields: { name_match_score: score, extracted_name: extracted },
    };
  }

  async aadhaarDownload(r: { clientId: string; aadhaarNumber?: string }): Promise<Outcome> {
    const p = person(`aadhaar:${r.aadhaarNumber ?? r.clientId}`);
    const last4 = r.aadhaarNumber?.slice(-4) ?? new SeededRandom(`uid:${r.clientId}`).digits(4);
    const a = p.address;
    return {
      status: 'success',
      message: 'Aadhaar XML downloaded',
      fields: {
        Aadhaar_Xml_Data: {
          Full_Name: p.name,
          Care_Of: p.careOf,
          Dob: p.dob,
          Gender: p.gender,
          Masked_Aadhaar: `XXXXXXXX${last4}`,
          Full_Address: `${a.House}, ${a.Street}, ${a.Dist}, ${a.State} - ${a.Pincode}, ${a.Country}`,
          Profile_Image: sandboxPhoto(`${p.name}|${p.dob}`),
          Address: { Country: a.Country, State: a.State, Dist: a.Dist, Street: a.Street },
        },
        Errorcode: 100,
        Status: 'success',
        Message: 'Aadhaar XML downloaded',
      },
    };
  }

  async mobileToBank(r: { mobile: string; accountNumber?: string; ifsc?: string }): Promise<Outcome> {
    if (r.mobile === '9000000000') {
      return { status: 'failed', message: 'No bank account is linked to this mobile number', fields: { service: 'mobile-to-bank-account' } };
    }
    const acc = linkedAccount(r.mobile);
    const fields: Record<string, unknown> = {
      service: 'mobile-to-bank-account',
      account: { ...acc, account_number: 'X'.repeat(acc.account_number.length - 4) + acc.account_number.slice(-4) },
      ...accountMatches(acc, r),
    };
    return { status: 'success', message: 'Bank account found', fields };
  }

  async upiPay(r: { txnId: string; vpa: string; amountPaise: number }): Promise<Outcome> {
    const vpa = r.vpa.toLowerCase();
    const base = { txn_id: r.txnId, amount: paiseToInr(r.amountPaise) };
    const success: FinalOutcome = { status: 'success', message: 'Payment successful', fields: { ...base, utr: randomDigits(12) } };
    const failed: FinalOutcome = { status: 'failed', message: "Payment declined by the payer's bank", fields: { ...base, utr: randomDigits(12) } };
    if (vpa === 'failure@sandbox') return failed;
    if (vpa === 'pending@sandbox' || vpa === 'pendingfail@sandbox') {
      return this.pending('Payment initiated; awaiting confirmation from the bank', { ...base, utr: null }, vpa === 'pending@sandbox' ? success : failed);
    }
    return success;
  }

  async mobileRecharge(r: { txnId: string; mobile: string; operator: string; amountPaise: number }): Promise<Outcome> {
    return this.recharge(r.txnId, r.mobile, r.operator, MOBILE_OPERATORS, r.amountPaise);
  }

  async dthRecharge(r: { txnId: string; subscriberId: string; operator: string; amountPaise: number }): Promise<Outcome> {
    return this.recharge(r.txnId, r.subscriberId, r.operator, DTH_OPERATORS, r.amountPaise);
  }

  private recharge(txnId: string, number: string, operator: string, list: readonly Operator[], amountPaise: number): Outcome {
    const base = { txn_id: txnId, amount: paiseToInr(amountPaise), operator };
    const commission = paiseToInr(commissionPaise(list, operator, amountPaise));
    const success: FinalOutcome = { status: 'success', message: 'Recharge successful', fields: { ...base, utr: `${operator}${randomDigits(10)}`, commission } };
    if (number.endsWith('0001')) {
      return { status: 'failed', message: 'Recharge declined by the operator', fields: { ...base, utr: null, commission: 0 } };
    }
    if (number.endsWith('0002')) {
      return this.pending('Recharge submitted; awaiting operator confirmation', { ...base, utr: null, commission }, success);
    }
    return success;
  }

  private pending(message: string, fields: Record<string, unknown>, final: FinalOutcome): Outcome {
    return { status: 'pending', message, fields, settle: { after_ms: this.pendingMs, final } };
  }
}
