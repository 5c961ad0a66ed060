// Owns the `cashfree-payouts` connector (Cashfree Payouts V2, Standard Transfer to a UPI VPA,
// PARTNERS.md §3), serving upi-payment-status — the second UPI route beside razorpayx. Variables:
// CLIENT_ID, CLIENT_SECRET (the V2 headers; the secret also signs webhooks), optionally API_VERSION
// (`x-api-version`, YYYY-MM-DD, default 2024-01-01); a missing or malformed one stops the boot with a
// message naming it. URL is the API base (`https://api.cashfree.com/payout`).
//
// execute: POST /transfers with transfer_id = our transaction id (`txn_` + 20 base62 fits the
// documented ≤ 40 of letters, digits and `_`), the amount in rupees built exactly from paise. Cashfree
// has no idempotency header: transfer_id is the key (§3.6). Failures are classified by what Cashfree
// may have done:
//   - PartnerError (nothing happened there; the core fails the transaction, charges nothing, frees the
//     idempotency key; the router may fail over): not reached (refused connection, connect timeout),
//     400 and 422 (validation refusals), 401/403 (credentials, APIs not enabled), 429 (throttled),
//     404/405 (no such route: nothing there can have executed a transfer), and a 5xx whose `type` is
//     `authentication_error` (the OpenAPI's documented 500 "Unable to authenticate the request");
//   - NoAnswer (it may have acted; pending, reconciled here, never failed over): a read timeout or a
//     broken connection after the request went out, any other 5xx ([P] "When you get a 5XX response, do not
//     initiate another transaction" — check status first), 409 (a transfer with our transfer_id
//     already exists), any other status, or a 2xx we cannot read.
// status: GET /transfers?transfer_id=<txnId> (§9.3), a lookup by our reference: it never creates
// anything (CONTRACT §9). 404 transfer_id_not_found → null; the reconciler asks once more after a
// delay (read-after-write lag [G]) before it fails a transaction no request can still be on its way for.
// The reversal watch asks the same after a SUCCESS (it can become REVERSED; no window is documented).
// vpaHolder: POST /validatePayout (Validate Payout V2, same keys and base) under a transfer_id of its
// own, for the payout name check. It moves no money, so every failure is a PartnerError (nothing paid):
// not reached, no full answer, any non-2xx, an answer that is neither VALID nor INVALID.
// parseCallback: webhook.ts (signature, timestamp window); the event id is derived (transformers.ts).
import {
  partnerVars,
  NoAnswer,
  PartnerError,
  type Connector,
  type ConnectorFactory,
  type OperationRequest,
  type PartnerOutcome,
  type PartnerContext,
  type PartnerReport,
  type TxRef,
  type VpaHolder,
} from '../connector.js';
import { randomBase62 } from '../../ids.js';
import { CashfreeHttp, Unsent, type CfAnswer } from './http.js';
import { enquiry } from '../partner-http.js';
import { asTransfer, errorDescription, holderOfValidation, moneyOf, outcomeOf, refusalOf, reportOf, transferBody, validationTransferId, type CfTransfer } from './transformers.js';
import { parseWebhook } from './webhook.js';

/** [P] the OpenAPI default/example `x-api-version`. */
const DEFAULT_API_VERSION = '2024-01-01';

interface Settings {
  clientId: string;
  clientSecret: string;
  apiVersion: string;
}

function settings(ctx: PartnerContext): Settings {
  const { name, need } = partnerVars(ctx, 'cashfree-payouts');
  const s = { clientId: need('CLIENT_ID'), clientSecret: need('CLIENT_SECRET'), apiVersion: ctx.vars.API_VERSION?.trim() || DEFAULT_API_VERSION };
  // They travel as HTTP header values: no spaces or control characters.
  if (!/^[\x21-\x7e]+$/.test(s.clientId)) throw new Error(`${name('CLIENT_ID')} must be a Cashfree client id (no spaces)`);
  if (!/^[\x21-\x7e]+$/.test(s.clientSecret)) throw new Error(`${name('CLIENT_SECRET')} must be a Cashfree client secret (no spaces)`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s.apiVersion)) throw new Error(`${name('API_VERSION')} must be a date, YYYY-MM-DD (such as ${DEFAULT_API_VERSION})`);
  return s;
}

/** Statuses after which the transfer was not executed (see the module header). */
const REFUSED = new Set([400, 401, 403, 404, 405, 422, 429]);

/**
 * [P] Cashfree's OpenAPI documents a 500 whose `type` is `authentication_error` ("Unable to authenticate the
 * request…", the AuthenticationError example of POST /transfers): the request was never authenticated, so
 * nothing ran — a refusal whatever the 5xx, unlike its `api_error` 500 (which may have acted).
 */
const authenticationFailed = (a: CfAnswer): boolean => a.status >= 500 && (a.json as { type?: unknown } | null)?.type === 'authentication_error';

/** A refusal before execution, in words that say so; Cashfree's own code and text when it gave them. */
function refusalText(a: CfAnswer): string {
  const why = errorDescription(a.json);
  switch (a.status) {
    case 401:
      return 'Cashfree refused our API credentials (HTTP 401)';
    case 403:
      return `Cashfree refused the request (HTTP 403${why ? `: ${why}` : ''})`;
    case 429:
      return `Cashfree is throttling requests (HTTP 429${a.retryAfterS ? `, retry after ${a.retryAfterS} s` : ''})`;
    default:
      return `Cashfree refused the transfer (HTTP ${a.status}${why ? `: ${why}` : ''})`;
  }
}

export class CashfreePayoutsConnector implements Connector {
  readonly serves = ['upi-payment-status'] as const;
  /**
   * PARTNERS.md §9.4: SUCCESS can become REVERSED ("a final state"), in no documented window; failed
   * debits come back within 24 h and recalls are "ideal … within 45 days". Watched for 90 days after the
   * success (the safe reading of "keep watching"); later reversals arrive by the TRANSFER_REVERSED webhook.
   */
  readonly reversalWatch = {
    operations: ['upi-payment-status'] as const,
    scheduleS: [300, 3600, 6 * 3600, 86_400, 3 * 86_400, 7 * 86_400, 14 * 86_400, 30 * 86_400, 45 * 86_400, 60 * 86_400, 90 * 86_400],
  };
  /** [G] Cashfree documents no time to a final status (§3.3, §3.4): the same UPI rails as RazorpayX, so its 1 hour (§9.3). */
  readonly expectedFinalS = 3600;
  private http: CashfreeHttp;

  constructor(
    private ctx: PartnerContext,
    private s: Settings,
  ) {
    this.http = new CashfreeHttp(ctx.url, s, Math.min(5000, ctx.timeoutFor('upi-payment-status')));
  }

  async execute(req: OperationRequest): Promise<PartnerOutcome> {
    if (req.operation !== 'upi-payment-status') throw new Error(`the cashfree-payouts connector does not serve ${req.operation}`);
    const pre = refusalOf(req.txnId, req.vpa, req.amountPaise);
    if (pre) throw new PartnerError('unavailable', `${pre}; nothing was executed or debited`);
    const pending = (why: string) => new NoAnswer({ status: 'pending', message: why, money: moneyOf({}, req.txnId, req.amountPaise) });
    let a: CfAnswer;
    try {
      a = await this.http.call('POST', '/transfers', this.ctx.timeoutFor('upi-payment-status'), req.txnId, JSON.stringify(transferBody(req)));
    } catch (err) {
      if (err instanceof Unsent) throw new PartnerError(err.timedOut ? 'timeout' : 'unavailable', `${err.message}; nothing was executed or debited`);
      throw pending('Cashfree has not answered yet; the outcome will follow');
    }
    if (REFUSED.has(a.status)) {
      throw new PartnerError('unavailable', `${refusalText(a)}; nothing was executed or debited`);
    }
    if (authenticationFailed(a)) {
      throw new PartnerError('unavailable', `Cashfree could not authenticate the request (HTTP ${a.status} authentication_error); nothing was executed or debited`);
    }
    const transfer = a.status >= 200 && a.status < 300 ? asTransfer(a.json) : null;
    if (!transfer) throw pending(`Cashfree did not give a usable answer (HTTP ${a.status}); the outcome will follow`);
    return outcomeOf(transfer, req.txnId);
  }

  async status(tx: TxRef): Promise<PartnerReport<PartnerOutcome> | null> {
    if (tx.operation !== 'upi-payment-status') return null;
    const found = await this.fetch(tx.txnId);
    return found ? reportOf(found, tx.txnId) : null;
  }

  /** The payout name check: the VPA's holder by Validate Payout V2; throws PartnerError only (see the module header). */
  async vpaHolder(vpa: string): Promise<VpaHolder> {
    const transferId = validationTransferId(randomBase62(24));
    const pre = refusalOf(transferId, vpa, 100);
    if (pre) throw new PartnerError('unavailable', `${pre}; nothing was paid`);
    let a: CfAnswer;
    try {
      a = await this.http.call('POST', '/validatePayout', this.ctx.timeoutFor('upi-payment-status'), transferId, JSON.stringify({ transfer_id: transferId, vpa }));
    } catch (err) {
      throw new PartnerError(err instanceof Unsent && err.timedOut ? 'timeout' : 'unavailable', `Cashfree did not answer the VPA validation (${(err as Error).message}); nothing was paid`);
    }
    if (a.status !== 200) {
      const why = errorDescription(a.json);
      throw new PartnerError('unavailable', `Cashfree refused the VPA validation (HTTP ${a.status}${why ? `: ${why}` : ''}); nothing was paid`);
    }
    const holder = holderOfValidation(a.json);
    if (!holder) throw new PartnerError('unavailable', 'Cashfree gave no verdict on the VPA (neither VALID nor INVALID); nothing was paid');
    return holder;
  }

  parseCallback(req: { headers: Record<string, string | string[] | undefined>; rawBody: string }) {
    return parseWebhook(req, this.s.clientSecret);
  }

  close(): Promise<void> {
    return this.http.close();
  }

  /** GET /transfers?transfer_id=…; null when Cashfree says there is no such transfer (404 transfer_id_not_found, §9.3). */
  private async fetch(transferId: string): Promise<CfTransfer | null> {
    const a = await enquiry(() => this.http.call('GET', `/transfers?transfer_id=${encodeURIComponent(transferId)}`, this.ctx.timeoutFor('upi-payment-status'), transferId));
    if (a.status === 404 && (a.json as { code?: unknown } | null)?.code === 'transfer_id_not_found') return null;
    const t = a.status === 200 ? asTransfer(a.json) : null;
    if (!t) throw new Error(`status enquiry failed with HTTP ${a.status}`);
    return t;
  }
}

export const createCashfreePayouts: ConnectorFactory = (ctx) => new CashfreePayoutsConnector(ctx, settings(ctx));
