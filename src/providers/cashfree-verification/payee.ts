// Owns the cashfree-verification connector's payee verifications (CONTRACT §14): account-verification by
// Bank Account Verification V2 (POST /bank-account/sync, or /bank-account/async when BAV_MODE=async; status
// GET /bank-account) and vpa-verification by UPI Verification V2 (POST /upi; status GET /upi), as
// Cashfree's OpenAPI documents them (PARTNER.md). The same store-then-send rule as the penny drop: a
// `payee:<txnId>` record is written before the POST, so only our own record says "never sent".
//   - A documented outcome (200, a bank-side 422) → success (valid or invalid: a completed check) or
//     failed (unknown: the bank did not answer).
//   - A documented refusal (400, 401, 403, 429, 422 insufficient_balance) → PartnerError: nothing was
//     checked, nothing charged, the router may fail over.
//   - Anything else after sending (a 5xx, a timeout, an undocumented status, an unreadable 200, a 409 or a
//     400 "already exists" that says an earlier send of ours arrived) → NoAnswer: pending with the fee
//     held, never sent again, never failed over. status() asks the documented status call by OUR id
//     (async user_id, UPI verification_id); its documented 404 means "never executed". A sync BAV carries
//     no id of ours: it is asked by Cashfree's reference_id when an answer gave one, else it waits for a
//     person (Needs attention), like the mobile penny drop.
import { NoAnswer, PartnerError, type OperationRequest, type PartnerContext, type PartnerOutcome, type PartnerReport, type TxRef } from '../connector.js';
import { RecordedRequests } from '../recorded.js';
import type { CashfreeVerificationHttp, CfAnswer } from './http.js';
import { errorText } from './transformers.js';
import {
  asObject,
  bav422Outcome,
  bavBody,
  bavOutcome,
  payeePending,
  unsendable,
  upiBody,
  upiOutcome,
  type CfBavAnswer,
  type CfPayeeError,
  type CfUpiAnswer,
} from './payee-transformers.js';

export type BavMode = 'sync' | 'async';
type PayeeRequest = Extract<OperationRequest, { operation: 'account-verification' | 'vpa-verification' }>;
type PayeeSlug = PayeeRequest['operation'];

/** What a status enquiry needs: which call was made (never the account number or the VPA). */
interface StoredPayee {
  call: 'bav-sync' | 'bav-async' | 'upi';
}

/** Longer than any reconciliation (SANGAM_RECONCILE_CUTOFF_S is at most 30 days). */
const STORED_TTL_S = 30 * 24 * 3600;
/** [P] the refusals every one of these calls documents: validation, credentials, IP allow-list, rate limit. */
const REFUSALS = new Set([400, 401, 403, 429]);

const isPayee = (op: string): op is PayeeSlug => op === 'account-verification' || op === 'vpa-verification';

function refusal(a: CfAnswer, what: string): PartnerError {
  const why = errorText(a.json);
  const head = a.status === 401 ? 'Cashfree refused our Verification API credentials' : a.status === 429 ? 'Cashfree is throttling requests' : `Cashfree refused the ${what}`;
  return new PartnerError('unavailable', `${head} (HTTP ${a.status}${why ? `: ${why}` : ''}); nothing was executed or debited`);
}

export class CashfreePayee {
  private recorded: RecordedRequests<StoredPayee>;

  constructor(
    private ctx: PartnerContext,
    private http: CashfreeVerificationHttp,
    private bavMode: BavMode,
  ) {
    this.recorded = new RecordedRequests(ctx.sessions, 'payee', STORED_TTL_S, 'verification');
  }

  static serves(op: string): op is PayeeSlug {
    return isPayee(op);
  }

  async execute(req: PayeeRequest): Promise<PartnerOutcome> {
    const cannot = unsendable(req);
    if (cannot) throw new PartnerError('unavailable', `${cannot}; nothing was sent or debited`);
    const what = req.operation === 'account-verification' ? 'bank account verification' : 'UPI verification';
    const { call, path, body } = this.request(req);
    const pending = (why: string) => new NoAnswer(payeePending(req.operation, why));
    const a = await this.recorded.send(
      req.txnId,
      { call },
      () => this.http.call('POST', path, this.ctx.timeoutFor(req.operation), req.txnId, JSON.stringify(body)),
      (err) => pending(`${err.message}; the ${what} may have been made, the outcome will follow`),
    );
    const outcome = this.answered(req.operation, a);
    if (outcome) return outcome;
    // What answered() left: a refusal (a 422 here is insufficient_balance, the one 422 that decides nothing), or no decision.
    if (!alreadyExists(a) && (REFUSALS.has(a.status) || a.status === 422)) {
      await this.recorded.forget(req.txnId);
      throw refusal(a, what);
    }
    const why = errorText(a.json);
    throw pending(`Cashfree answered HTTP ${a.status}${why ? ` (${why})` : ''}: the ${what} may have been made; it stays pending with its fee held until Cashfree's status call or a person settles it`);
  }

  /** The documented outcome of an answer, or null (a refusal or an answer that decides nothing). */
  private answered(op: PayeeSlug, a: CfAnswer): PartnerOutcome | null {
    if (a.status >= 200 && a.status < 300) {
      return op === 'vpa-verification' ? upiOutcome(asObject<CfUpiAnswer>(a.json) ?? {}) : bavOutcome(asObject<CfBavAnswer>(a.json) ?? {});
    }
    if (a.status === 422 && op === 'account-verification') return bav422Outcome(asObject<CfPayeeError>(a.json) ?? {});
    return null;
  }

  private request(req: PayeeRequest): { call: StoredPayee['call']; path: string; body: object } {
    if (req.operation === 'vpa-verification') return { call: 'upi', path: '/upi', body: upiBody(req.txnId, req.vpa) };
    if (this.bavMode === 'async') return { call: 'bav-async', path: '/bank-account/async', body: bavBody(req.accountNumber, req.ifsc, req.txnId) };
    return { call: 'bav-sync', path: '/bank-account/sync', body: bavBody(req.accountNumber, req.ifsc) };
  }

  async status(tx: TxRef): Promise<PartnerReport<PartnerOutcome> | null> {
    const op = tx.operation as PayeeSlug;
    // Our own record is the one thing that says "never sent": it is written before the POST goes out.
    const stored = await this.recorded.get(tx.txnId);
    if (!stored) return null;
    const query = lookupOf(stored, tx);
    const report = (outcome: PartnerOutcome): PartnerReport<PartnerOutcome> => ({ txnId: tx.txnId, partnerRef: outcome.partnerRef ?? tx.partnerRef, outcome });
    if (!query) {
      return report(payeePending(op, 'Cashfree was not heard from for this sync bank account verification and it carries no id of ours to ask by: it stays pending, with its fee held, until a person settles it (Needs attention)'));
    }
    const path = op === 'vpa-verification' ? '/upi' : '/bank-account';
    const a = await this.http.call('GET', `${path}?${query}`, this.ctx.timeoutFor(op), tx.txnId).catch((err: Error) => {
      throw new PartnerError('unavailable', `Cashfree's status call failed: ${err.message}`);
    });
    // [P] 404 user_id_not_found / verification_id_not_found: Cashfree never took the request.
    if (a.status === 404 && !query.startsWith('reference_id=')) return null;
    if (a.status < 200 || a.status >= 300) {
      const why = errorText(a.json);
      throw new PartnerError('unavailable', `Cashfree's status call answered HTTP ${a.status}${why ? ` (${why})` : ''}`);
    }
    const outcome = op === 'vpa-verification' ? upiOutcome(asObject<CfUpiAnswer>(a.json) ?? {}) : bavOutcome(asObject<CfBavAnswer>(a.json) ?? {});
    return report(outcome ?? payeePending(op, `Cashfree's status call gave no usable answer (HTTP ${a.status}); the outcome will follow`));
  }
}

/** [P] 409 verification_id_already_exists (UPI), 400 user_id_already_exists (BAV async): an earlier send of ours arrived. */
function alreadyExists(a: CfAnswer): boolean {
  const code = asObject<CfPayeeError>(a.json)?.code;
  return a.status === 409 || code === 'user_id_already_exists' || code === 'verification_id_already_exists';
}

/** The documented status call's query: by our id where we sent one, else by Cashfree's reference, else none. */
function lookupOf(stored: StoredPayee, tx: TxRef): string | null {
  if (stored.call === 'upi') return `verification_id=${encodeURIComponent(tx.txnId)}`;
  if (stored.call === 'bav-async') return `user_id=${encodeURIComponent(tx.txnId)}`;
  return tx.partnerRef && /^\d+$/.test(tx.partnerRef) ? `reference_id=${tx.partnerRef}` : null;
}
