// Owns the `razorpayx` connector (RazorpayX Payouts to a UPI VPA, PARTNERS.md §2; CONTRACT §9),
// serving upi-payment-status, and by fund account validation account-verification and vpa-verification
// (payee.ts; CONTRACT §14). Variables: KEY_ID, KEY_SECRET (HTTP Basic), ACCOUNT_NUMBER (the business
// account that pays: a Current Account number or the RazorpayX Lite customer identifier), WEBHOOK_SECRET;
// a missing one stops the boot with a message naming it. Optional FAV_ACCOUNT_NUMBER: the RazorpayX Lite
// customer identifier fund account validation debits (Razorpay: validation "is possible only for RazorpayX
// Lite", `source_account_number` = "your customer identifier"); defaults to ACCOUNT_NUMBER, which is right
// only when payouts run from Lite too — with a Current Account every name check would be refused.
//
// execute: POST /v1/payouts (composite: the VPA fund account inline) with X-Payout-Idempotency = our
// transaction id and reference_id = our transaction id, the same for every attempt of that transaction.
// Failures are classified by what RazorpayX may have done:
//   - PartnerError (nothing happened there; the core fails the transaction, charges nothing, frees the
//     idempotency key; the router may fail over): not reached (refused connection, connect timeout),
//     400 (a refusal: validation, low balance), 401, other 4xx, 429 (throttled);
//   - NoAnswer (it may have acted; pending, reconciled here): a read timeout or broken connection after
//     the request went out, any 5xx (503 included: PARTNERS.md documents no 5xx as "not executed", so
//     the safe reading is "unknown"), or a 2xx we cannot read.
// status: GET /v1/payouts/{id} when the payout id is known; otherwise the payouts listed under our
// reference (GET /v1/payouts?account_number=&reference_id=, PARTNERS.md §9.3). A status enquiry never
// replays the create (CONTRACT §9): RazorpayX keeps an idempotency key for 7 days and says nothing of
// after, when a replay could be a second payout; the lookup cannot pay. None listed → null (the
// reconciler fails the transaction once no request can still be on its way, and a second enquiry still
// finds none); more than one under our reference → an error, never a guess (reviewed by a person).
// The reversal watch asks the same after a `processed` (it can become `reversed` up to T+3 working days).
// vpaHolder: fund account validation of the VPA (validation.ts) from FAV_ACCOUNT_NUMBER, for the payout name check; optional
// VALIDATION_WAIT_MS (default 5000) bounds how long a `created` validation is waited for (by the name check
// and by the payee verifications, which then answer pending).
// parseCallback: X-Razorpay-Signature verified (webhook.ts), x-razorpay-event-id de-duplicates.
import {
  partnerVars,
  NoAnswer,
  PartnerError,
  type Connector,
  type ConnectorFactory,
  type OperationRequest,
  type OperationSlug,
  type PartnerOutcome,
  type PartnerContext,
  type PartnerReport,
  type TxRef,
  type VpaHolder,
} from '../connector.js';
import { RazorpayxHttp, Unsent, type RzpAnswer } from './http.js';
import { enquiry } from '../partner-http.js';
import { asPayout, asPayoutList, createPayoutBody, errorDescription, moneyOf, outcomeOf, refusalOf, reportOf, type RzpErrorBody, type RzpPayout } from './transformers.js';
import { parseWebhook } from './webhook.js';
import { validateVpa, type ValidationSettings } from './validation.js';
import { payeeStatus, verifyPayee } from './payee.js';

interface Settings {
  keyId: string;
  keySecret: string;
  accountNumber: string;
  /** The RazorpayX Lite customer identifier of fund account validation (FAV_ACCOUNT_NUMBER, default ACCOUNT_NUMBER). */
  favAccountNumber: string;
  webhookSecret: string;
  /** How long a VPA validation may stay `created` before the payout is refused (VALIDATION_WAIT_MS). */
  validationWaitMs: number;
}

/** [G] PARTNERS.md §9.1: "most … instantaneously"; a payout request should not wait long for a name. */
const DEFAULT_VALIDATION_WAIT_MS = 5000;

function settings(ctx: PartnerContext): Settings {
  const { name, need } = partnerVars(ctx, 'razorpayx');
  const wait = ctx.vars.VALIDATION_WAIT_MS?.trim();
  const s = {
    keyId: need('KEY_ID'),
    keySecret: need('KEY_SECRET'),
    accountNumber: need('ACCOUNT_NUMBER'),
    favAccountNumber: ctx.vars.FAV_ACCOUNT_NUMBER?.trim() || need('ACCOUNT_NUMBER'),
    webhookSecret: need('WEBHOOK_SECRET'),
    validationWaitMs: wait ? Number(wait) : DEFAULT_VALIDATION_WAIT_MS,
  };
  if (!Number.isSafeInteger(s.validationWaitMs) || s.validationWaitMs < 0) throw new Error(`${name('VALIDATION_WAIT_MS')} must be a whole number of milliseconds`);
  if (/\s|:/.test(s.keyId)) throw new Error(`${name('KEY_ID')} must be a RazorpayX key id (no spaces or colons)`);
  if (/\s/.test(s.accountNumber)) throw new Error(`${name('ACCOUNT_NUMBER')} must be the RazorpayX business account number (no spaces)`);
  if (/\s/.test(s.favAccountNumber)) throw new Error(`${name('FAV_ACCOUNT_NUMBER')} must be the RazorpayX Lite customer identifier (no spaces)`);
  return s;
}

/** A refusal before execution, in words that say so; the partner's own description when it gave one. */
function refusalText(a: RzpAnswer): string {
  const why = errorDescription(a.json as RzpErrorBody);
  return a.status === 401
      ? 'RazorpayX refused our API credentials (HTTP 401)'
      : a.status === 429
        ? 'RazorpayX is throttling requests (HTTP 429)'
        : `RazorpayX refused the payout (HTTP ${a.status}${why ? `: ${why}` : ''})`;
}

/** HTTP statuses after which the payout was not executed (see the module header). */
const refused = (status: number) => status >= 400 && status < 500;

export class RazorpayxConnector implements Connector {
  readonly serves = ['upi-payment-status', 'account-verification', 'vpa-verification'] as const;
  /**
   * PARTNERS.md §2.6–2.7: RazorpayX asks that status come by webhook and allows polling for critical
   * cases; a UPI payout may stay `processing` up to T+3 working days. So: first ask after 5 minutes
   * (the webhook normally came first), then every 15 minutes, and manual review after 4 days.
   */
  readonly polling = { firstS: 300, gapS: 900, cutoffS: 4 * 86_400 };
  /**
   * PARTNERS.md §9.4: `processed` can become `reversed` up to T+3 working days after; 7 calendar days
   * cover three working days across a long weekend and holidays. Seconds after the success.
   */
  readonly reversalWatch = { operations: ['upi-payment-status'] as const, scheduleS: [300, 3600, 6 * 3600, 86_400, 2 * 86_400, 3 * 86_400, 5 * 86_400, 7 * 86_400] };
  /** PARTNERS.md §9.3: no status after 1 hour is RazorpayX's own signal to act ("then `fail` the payout"); UPI usually settles in minutes. */
  readonly expectedFinalS = 3600;
  private http: RazorpayxHttp;

  constructor(
    private ctx: PartnerContext,
    private s: Settings,
  ) {
    this.http = new RazorpayxHttp(ctx.url, s.keyId, s.keySecret, Math.min(5000, ctx.timeoutFor('upi-payment-status')));
  }

  async execute(req: OperationRequest): Promise<PartnerOutcome> {
    if (req.operation === 'account-verification' || req.operation === 'vpa-verification') return verifyPayee(this.http, this.validation(req.operation), req);
    if (req.operation !== 'upi-payment-status') throw new Error(`the razorpayx connector does not serve ${req.operation}`);
    const pre = refusalOf(req.vpa, req.amountPaise);
    if (pre) throw new PartnerError('unavailable', `${pre}; nothing was executed or debited`);
    const pending = (why: string) =>
      new NoAnswer({ status: 'pending', message: why, money: moneyOf({ amount: req.amountPaise, utr: null }, req.txnId) });
    let a: RzpAnswer;
    try {
      a = await this.http.call('POST', '/v1/payouts', this.ctx.timeoutFor('upi-payment-status'), JSON.stringify(createPayoutBody(req, this.s.accountNumber)), {
        'x-payout-idempotency': req.txnId,
      });
    } catch (err) {
      if (err instanceof Unsent) throw new PartnerError(err.timedOut ? 'timeout' : 'unavailable', `${err.message}; nothing was executed or debited`);
      throw pending('RazorpayX has not answered yet; the outcome will follow');
    }
    if (refused(a.status)) {
      throw new PartnerError('unavailable', `${refusalText(a)}; nothing was executed or debited`);
    }
    const payout = a.status >= 200 && a.status < 300 ? asPayout(a.json) : null;
    if (!payout) throw pending(`RazorpayX did not give a usable answer (HTTP ${a.status}); the outcome will follow`);
    return outcomeOf(payout, req.txnId);
  }

  async status(tx: TxRef): Promise<PartnerReport<PartnerOutcome> | null> {
    if (tx.operation === 'account-verification' || tx.operation === 'vpa-verification') return payeeStatus(this.http, this.validation(tx.operation), tx);
    if (tx.operation !== 'upi-payment-status') return null;
    const p = tx.partnerRef ? await this.fetch(`/v1/payouts/${encodeURIComponent(tx.partnerRef)}`) : await this.byReference(tx.txnId);
    return p ? reportOf(p, tx.txnId) : null;
  }

  /** The payout name check: the VPA's holder by fund account validation (validation.ts); PartnerError only. */
  vpaHolder(vpa: string): Promise<VpaHolder> {
    return validateVpa(this.http, this.validation('upi-payment-status'), vpa);
  }

  parseCallback(req: { headers: Record<string, string | string[] | undefined>; rawBody: string }) {
    return parseWebhook(req, this.s.webhookSecret);
  }

  close(): Promise<void> {
    return this.http.close();
  }

  /** Fund account validation's settings for an operation's calls: from the Lite identifier, within its deadline. */
  private validation(operation: OperationSlug): ValidationSettings {
    return { accountNumber: this.s.favAccountNumber, callTimeoutMs: this.ctx.timeoutFor(operation), waitMs: this.s.validationWaitMs };
  }

  /** The one payout listed under our reference; null when there is none. */
  private async byReference(txnId: string): Promise<RzpPayout | null> {
    const q = new URLSearchParams({ account_number: this.s.accountNumber, reference_id: txnId, count: '100' });
    const a = await enquiry(() => this.http.call('GET', `/v1/payouts?${q}`, this.ctx.timeoutFor('upi-payment-status')));
    const items = a.status === 200 ? asPayoutList(a.json) : null;
    if (!items) throw new Error(`status enquiry by reference failed with HTTP ${a.status}`);
    const ours = items.filter((p) => p.reference_id === txnId);
    if (ours.length > 1) throw new Error(`RazorpayX lists ${ours.length} payouts under our reference ${txnId}: left for a person to resolve`);
    return ours[0] ?? null;
  }

  /**
   * GET one payout; null only when RazorpayX says, as it documents, that there is no such payout (400 "The
   * id provided does not exist", field id). A 404 is not its answer for an unknown id (a gateway's, for a
   * route): never read as "no payout" — it throws, and the payout stays pending with its hold (#38).
   */
  private async fetch(path: string): Promise<RzpPayout | null> {
    const a = await enquiry(() => this.http.call('GET', path, this.ctx.timeoutFor('upi-payment-status')));
    if (a.status === 400 && (a.json as RzpErrorBody | null)?.error?.field === 'id') return null;
    const p = a.status === 200 ? asPayout(a.json) : null;
    if (!p) throw new Error(`status enquiry failed with HTTP ${a.status}`);
    return p;
  }
}

export const createRazorpayx: ConnectorFactory = (ctx) => new RazorpayxConnector(ctx, settings(ctx));
