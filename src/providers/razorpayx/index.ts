// Owns the `razorpayx` connector (RazorpayX Payouts to a UPI VPA, PARTNERS.md §2; CONTRACT §9),
// serving upi-payment-status. Variables: KEY_ID, KEY_SECRET (HTTP Basic), ACCOUNT_NUMBER (the business
// account that pays), WEBHOOK_SECRET; a missing one stops the boot with a message naming it.
//
// execute: POST /v1/payouts (composite: the VPA fund account inline) with X-Payout-Idempotency = our
// transaction id, the same for every attempt of that transaction. The exact body is kept in the
// partner sessions (`payout:<txnId>`) BEFORE it is sent, so a later status enquiry can replay it under
// the same key — RazorpayX answers a repeat with the saved first response and never makes a second
// payout. Failures are classified by what RazorpayX may have done:
//   - PartnerError (nothing happened there; the core fails the transaction, charges nothing, frees the
//     idempotency key; the router may fail over): not reached (refused connection, connect timeout),
//     400 (a refusal: validation, low balance), 401, other 4xx, 429 (throttled);
//   - NoAnswer (it may have acted; pending, reconciled here): a read timeout or broken connection after
//     the request went out, any 5xx (503 included: PARTNERS.md documents no 5xx as "not executed", so
//     the safe reading is "unknown" — the replay under the same key settles it without paying twice),
//     or a 2xx we cannot read.
// status: GET /v1/payouts/{id} when the payout id is known; otherwise the stored create replayed under
// the same key (its answer names the payout), then GET for today's status.
// parseCallback: X-Razorpay-Signature verified (webhook.ts), x-razorpay-event-id de-duplicates.
import {
  partnerVars,
  NoAnswer,
  PartnerError,
  type Connector,
  type ConnectorFactory,
  type OperationRequest,
  type Outcome,
  type PartnerContext,
  type PartnerReport,
  type TxRef,
} from '../connector.js';
import { RazorpayxHttp, Unsent, type RzpAnswer } from './http.js';
import { enquiry } from '../partner-http.js';
import { asPayout, createPayoutBody, errorDescription, fieldsOf, outcomeOf, refusalOf, reportOf, type RzpErrorBody, type RzpPayout } from './transformers.js';
import { parseWebhook } from './webhook.js';

/**
 * How long the create body is kept for a replay. UPI payouts may stay `processing` up to T+3 working
 * days [P §2.7]; a week also covers RazorpayX's 7-day webhook replay window.
 */
const STORED_BODY_TTL_S = 7 * 24 * 3600;

const sessionKey = (txnId: string) => `payout:${txnId}`;

/** What a status enquiry needs to replay a create: the key and the exact bytes sent. */
interface StoredCreate {
  key: string;
  body: string;
}

interface Settings {
  keyId: string;
  keySecret: string;
  accountNumber: string;
  webhookSecret: string;
}

function settings(ctx: PartnerContext): Settings {
  const { name, need } = partnerVars(ctx, 'razorpayx');
  const s = { keyId: need('KEY_ID'), keySecret: need('KEY_SECRET'), accountNumber: need('ACCOUNT_NUMBER'), webhookSecret: need('WEBHOOK_SECRET') };
  if (/\s|:/.test(s.keyId)) throw new Error(`${name('KEY_ID')} must be a RazorpayX key id (no spaces or colons)`);
  if (/\s/.test(s.accountNumber)) throw new Error(`${name('ACCOUNT_NUMBER')} must be the RazorpayX business account number (no spaces)`);
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
  readonly serves = ['upi-payment-status'] as const;
  /**
   * PARTNERS.md §2.6–2.7: RazorpayX asks that status come by webhook and allows polling for critical
   * cases; a UPI payout may stay `processing` up to T+3 working days. So: first ask after 5 minutes
   * (the webhook normally came first), then every 15 minutes, and manual review after 4 days.
   */
  readonly polling = { firstS: 300, gapS: 900, cutoffS: 4 * 86_400 };
  private http: RazorpayxHttp;

  constructor(
    private ctx: PartnerContext,
    private s: Settings,
  ) {
    this.http = new RazorpayxHttp(ctx.url, s.keyId, s.keySecret, Math.min(5000, ctx.timeoutFor('upi-payment-status')));
  }

  async execute(req: OperationRequest): Promise<Outcome> {
    if (req.operation !== 'upi-payment-status') throw new Error(`the razorpayx connector does not serve ${req.operation}`);
    const pre = refusalOf(req.vpa, req.amountPaise);
    if (pre) throw new PartnerError('unavailable', `${pre}; nothing was executed or debited`);
    const create: StoredCreate = { key: req.txnId, body: JSON.stringify(createPayoutBody(req, this.s.accountNumber)) };
    try {
      await this.ctx.sessions.put(sessionKey(req.txnId), create, STORED_BODY_TTL_S);
    } catch {
      throw new PartnerError('unavailable', 'The payout request could not be recorded before sending; nothing was sent or debited');
    }
    const pending = (why: string) =>
      new NoAnswer({ status: 'pending', message: why, fields: fieldsOf({ amount: req.amountPaise, utr: null }, req.txnId) });
    let a: RzpAnswer;
    try {
      a = await this.send(create);
    } catch (err) {
      if (err instanceof Unsent) {
        await this.forget(req.txnId);
        throw new PartnerError(err.timedOut ? 'timeout' : 'unavailable', `${err.message}; nothing was executed or debited`);
      }
      throw pending('RazorpayX has not answered yet; the outcome will follow');
    }
    if (refused(a.status)) {
      await this.forget(req.txnId);
      throw new PartnerError('unavailable', `${refusalText(a)}; nothing was executed or debited`);
    }
    const payout = a.status >= 200 && a.status < 300 ? asPayout(a.json) : null;
    if (!payout) throw pending(`RazorpayX did not give a usable answer (HTTP ${a.status}); the outcome will follow`);
    return outcomeOf(payout, req.txnId);
  }

  async status(tx: TxRef): Promise<PartnerReport | null> {
    if (tx.operation !== 'upi-payment-status') return null;
    if (tx.partnerRef) {
      const p = await this.fetch(tx.partnerRef, tx.operation);
      if (p) return reportOf(p, tx.txnId);
    }
    const stored =
      (await this.ctx.sessions.get<StoredCreate>(sessionKey(tx.txnId))) ??
      (tx.request?.operation === 'upi-payment-status' ? { key: tx.txnId, body: JSON.stringify(createPayoutBody(tx.request, this.s.accountNumber)) } : undefined);
    if (!stored) return null; // never sent by us, and RazorpayX knows no payout by that id
    const a = await enquiry(() => this.send(stored));
    if (a.status >= 200 && a.status < 300) {
      // The replay answers the saved first response (a snapshot): ask for today's status.
      const first = asPayout(a.json);
      if (!first) throw new Error(`RazorpayX answered a replayed payout without a payout (HTTP ${a.status})`);
      return reportOf((await this.fetch(first.id, tx.operation)) ?? first, tx.txnId);
    }
    const field = (a.json as RzpErrorBody | null)?.error?.field;
    if (a.status === 400 && field !== 'X-Payout-Idempotency') {
      // The same body under the same key would have answered the saved payout: there is none, and
      // this very request is refused now. Nothing was paid, nor will be.
      return {
        txnId: tx.txnId,
        partnerRef: null,
        outcome: { status: 'failed', message: `${refusalText(a)}; nothing was paid`, fields: fieldsOf({ amount: tx.amountPaise, utr: null }, tx.txnId) },
      };
    }
    throw new Error(`status enquiry by replay failed with HTTP ${a.status}`);
  }

  parseCallback(req: { headers: Record<string, string | string[] | undefined>; rawBody: string }) {
    return parseWebhook(req, this.s.webhookSecret);
  }

  close(): Promise<void> {
    return this.http.close();
  }

  /** POST /v1/payouts with the stored bytes and key. */
  private send(c: StoredCreate): Promise<RzpAnswer> {
    return this.http.call('POST', '/v1/payouts', this.ctx.timeoutFor('upi-payment-status'), c.body, { 'x-payout-idempotency': c.key });
  }

  /** GET /v1/payouts/{id}; null when RazorpayX says there is no such payout. */
  private async fetch(id: string, op: TxRef['operation']): Promise<RzpPayout | null> {
    const a = await enquiry(() => this.http.call('GET', `/v1/payouts/${encodeURIComponent(id)}`, this.ctx.timeoutFor(op)));
    if (a.status === 404 || (a.status === 400 && (a.json as RzpErrorBody | null)?.error?.field === 'id')) return null;
    const p = a.status === 200 ? asPayout(a.json) : null;
    if (!p) throw new Error(`status enquiry failed with HTTP ${a.status}`);
    return p;
  }

  /** Drops the stored body of a create that cannot have executed (best effort: it expires anyway). */
  private async forget(txnId: string): Promise<void> {
    await this.ctx.sessions.delete(sessionKey(txnId)).catch(() => undefined);
  }
}

export const createRazorpayx: ConnectorFactory = (ctx) => new RazorpayxConnector(ctx, settings(ctx));
