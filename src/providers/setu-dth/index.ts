// Owns the `setu-dth` connector (Setu BBPS BillPay v2, Setu's own OpenAPI in docs/partners/setu-dth/ and
// PARTNER.md beside this file), serving dth-recharge. Setu's prepaid API is mobile-only; DTH goes through
// BBPS: its own host, token and header, hence its own kind.
// Variables: CLIENT_ID, CLIENT_SECRET, PARTNER_ID (an integer, sent as X-PARTNER-ID), CUSTOMER_MOBILE (the
// mobile BBPS records as the payer's — Sangam is not told the end customer's: the agent's own),
// WEBHOOK_SECRET (the secret path segment of the webhook URL, see webhook.ts); AGENT_ID and AGENT_CHANNEL
// (default INT) with the channel's own fields (INT/INTB: AGENT_IP, AGENT_MAC; MOB/MOBB: AGENT_IP, AGENT_APP,
// AGENT_OS, AGENT_IMEI; AGT/BSC: AGENT_POSTAL_CODE, AGENT_GEOCODE, AGENT_TERMINAL_ID; BNKBRNCH: …, AGENT_IFSC;
// ATM/KIOSK: AGENT_TERMINAL_ID), as BBPS certification issued them — every fetch carries them;
// REMITTER_NAME (remitter.name: the business that pays, the Sangam operator whose funds Setu debits) and
// ACCOUNT_INFO (paymentDetails.accountInfo: that debit instrument in NPCI's format for the mode, e.g.
// `WalletName|MobileNo` for Wallet); optional PAYMENT_MODE (default Wallet). A missing or malformed one
// stops the boot naming it.
//
// Auth: POST <URL>/api/v2/auth/token {clientID, secret} → {token, expiresIn}, kept until shortly before
// it expires, fetched again after a 401 and the call repeated once (a 401 executed nothing). How it calls
// Setu, the shared shapes and the webhook secret are the Setu products' common part, ../setu/.
//
// execute, the documented Bill Validation → Payment flow:
//   1. the DTH billers (GET /api/v2/bbps/billers?categoryName=DTH, cached 6 h), mapped to our codes by
//      name; no biller for the operator asked → PartnerError naming what Setu lists unmapped. A biller with
//      planRequirement MANDATORY sells only plans: its plan of exactly this amount (GET …/billers/plans,
//      cached 6 h) is named by its Id in the fetch and the payment; none or several → PartnerError;
//   2. bill fetch (validation): POST …/bills/fetch/request → refId, polled at …/fetch/response
//      (100 ms doubling to 1 s, within the operation's deadline). A fetch Failure (the biller knows no
//      such subscriber) is a business failure: failed, nothing paid or charged. Still Processing at the
//      deadline → PartnerError('timeout'): nothing was paid;
//   3. payment: POST …/bills/payment/request with paymentRefId = our transaction id without its
//      underscore (one payment per refId: a repeat is a documented 409 and executes nothing). What a status
//      enquiry needs (refId, the body, our amounts) is kept in the partner sessions (`pay:<txnId>`) BEFORE it
//      is sent (../recorded.ts). Refused (4xx) → PartnerError; no answer or a 5xx → NoAnswer (pending,
//      reconciled); accepted → one read of …/payment/response.
// status: POST …/payment/response {refId}. Success → success (utr = billerRefId), Failure → failed,
// anything else pending. BBPS documents no not-found answer there (only 400 and 500), so an answer that is
// not a payment is NOT "never paid": the transaction stays pending with its hold until a documented answer
// or a person (Needs attention) decides. Only our own record says "never sent" (no `pay:` record: null).
// Refunds (Credit_Adjustment) are documented in the BILL_PAY webhook only (webhook.ts), so there is no
// reversal watch: payment/response's status enum has no refund.
// dthSubscriberInfo (GET /api/v1/dth/subscriber-info): steps 1 and 2 alone — the bill fetch answers the
// subscriber's name, current pack, balance and next recharge date (subscriberOf); nothing is paid. A fetch
// Failure, or an id the biller's parameter rule refuses, is a subscriber it does not know (null).
import {
  NoAnswer,
  PartnerError,
  type Connector,
  type ConnectorFactory,
  type DthSubscriber,
  type OperationRequest,
  type PartnerOutcome,
  type PartnerContext,
  type PartnerReport,
  type TxRef,
} from '../connector.js';
import { RecordedRequests } from '../recorded.js';
import { SetuApi } from '../setu/http.js';
import { setuSettings, type SetuCommonSettings } from '../setu/settings.js';
import { dataOf, istTimestamp, paymentRefIdOf, type Known } from '../setu/transformers.js';
import {
  billerFor,
  billerMapOf,
  fetchBody,
  fetchFailureOf,
  moneyOf,
  outcomeOf,
  PAYMENT_MODES,
  paymentBody,
  planFor,
  reversalOf,
  subscriberRefusal,
  subscriberOf,
  type BbpsAgent,
  type BbpsFetchResponse,
  type BbpsPayment,
  type BillerMap,
  type MappedBiller,
  type Payer,
  type StoredPayment,
} from './transformers.js';
import { webhookRoute } from './webhook.js';
import { agentOf, payerOf } from './settings.js';

const STORED_TTL_S = 7 * 24 * 3600;
/**
 * Session purposes a refund of a final payment still needs: its BBPS refId and amounts, which a
 * Credit_Adjustment webhook is matched and credited against. An erasure keeps them until they expire.
 */
export const KEPT_FOR_REFUNDS = ['pay'] as const;
const BILLERS_TTL_MS = 6 * 3600_000;

interface Settings extends SetuCommonSettings {
  partnerId: string;
  customerMobile: string;
  agent: BbpsAgent;
  payer: Payer;
}

function settings(ctx: PartnerContext): Settings {
  const { need, full, ...common } = setuSettings(ctx, 'setu-dth', PAYMENT_MODES);
  const s: Settings = {
    ...common,
    partnerId: need('PARTNER_ID'),
    customerMobile: need('CUSTOMER_MOBILE'),
    agent: agentOf(ctx.vars, need, full),
    payer: payerOf(common.mode, need, full),
  };
  if (!/^[0-9]{1,18}$/.test(s.partnerId)) throw new Error(`${full('PARTNER_ID')} must be the integer partner id Setu issued`);
  if (!/^[6-9][0-9]{9}$/.test(s.customerMobile)) throw new Error(`${full('CUSTOMER_MOBILE')} must be a 10-digit Indian mobile number`);
  return s;
}

/** [P] POST /api/v2/auth/token → {token, expiresIn} (seconds; 10 minutes when it gives none). */
function tokenOf(json: unknown) {
  const t = (json ?? {}) as { token?: unknown; expiresIn?: unknown };
  if (typeof t.token !== 'string' || !t.token) return null;
  const ttlS = typeof t.expiresIn === 'number' && t.expiresIn > 0 ? t.expiresIn : 600;
  return { token: t.token, expiresAtMs: Date.now() + ttlS * 1000 };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class SetuDthConnector implements Connector {
  readonly serves = ['dth-recharge'] as const;
  /** [G] BBPS documents no time to a final BILL_PAY (§4.7): the biller confirms through BBPS, slower than a top-up. */
  readonly expectedFinalS = 3600;
  private api: SetuApi;
  private recorded: RecordedRequests<StoredPayment>;
  private billers: { map: Promise<BillerMap>; at: number } | null = null;
  private planLists = new Map<string, { list: Promise<unknown>; at: number }>();

  constructor(
    private ctx: PartnerContext,
    private s: Settings,
  ) {
    this.api = new SetuApi({
      label: 'Setu BBPS',
      url: ctx.url,
      timeoutMs: ctx.timeoutFor('dth-recharge'),
      headers: { 'x-partner-id': s.partnerId },
      login: { url: `${ctx.url}/api/v2/auth/token`, body: { clientID: s.clientId, secret: s.clientSecret }, tokenOf },
    });
    this.recorded = new RecordedRequests(ctx.sessions, 'pay', STORED_TTL_S, 'payment');
  }

  private get timeout(): number {
    return this.ctx.timeoutFor('dth-recharge');
  }

  async execute(req: OperationRequest): Promise<PartnerOutcome> {
    if (req.operation !== 'dth-recharge') throw new Error(`the setu-dth connector does not serve ${req.operation}`);
    const deadline = Date.now() + this.timeout;
    const known: Known = { txnId: req.txnId, amountPaise: req.amountPaise, commissionPaise: req.commissionPaise };
    const biller = billerFor(await this.billerMap(), req.operator);
    const bad = subscriberRefusal(biller, req.subscriberId);
    if (bad) throw new PartnerError('unavailable', `${bad}; nothing was executed or debited`);

    const planId = biller.plansRequired ? planFor(biller, await this.plansOf(biller.id), req.amountPaise) : undefined;

    // 1. Bill fetch: the biller validates the subscriber (and the plan). Nothing is paid until it succeeds.
    const { refId, fetched } = await this.fetchBill(biller, req.subscriberId, deadline, planId);
    if (fetched.status === 'Failure') return fetchFailureOf(fetched, known);

    // 2. Payment, under our reference.
    const stored: StoredPayment = {
      refId,
      body: paymentBody(refId, paymentRefIdOf(req.txnId), req.amountPaise, this.s.payer, istTimestamp(), planId),
      amountPaise: req.amountPaise,
      commissionPaise: req.commissionPaise,
    };
    const pending = (why: string) => new NoAnswer({ status: 'pending', message: why, money: moneyOf('pending', null, known), partnerRef: refId });
    const a = await this.recorded.send(
      req.txnId,
      stored,
      () => this.api.call('POST', '/api/v2/bbps/bills/payment/request', stored.body),
      () => pending('Setu BBPS has not answered yet; the outcome will follow'),
    );
    const accepted = a.status >= 200 && a.status < 300 && !!dataOf<{ refId?: string }>(a.json)?.refId;
    if (!accepted && a.status !== 409) {
      if (a.status >= 400 && a.status < 500) {
        await this.recorded.forget(req.txnId);
        throw new PartnerError('unavailable', `${this.api.refusal(a, 'payment')}; nothing was executed or debited`);
      }
      throw pending(`Setu BBPS did not give a usable answer (HTTP ${a.status}); the outcome will follow`);
    }
    // Accepted (or a 409: this refId or reference was already paid — by this very transaction).
    const p = await this.payment(refId).catch(() => null);
    if (!p) return { status: 'pending', message: 'DTH recharge accepted by Setu BBPS; the outcome will follow', money: moneyOf('pending', null, known), partnerRef: refId };
    // A refund already on record is settled (and reversed) by the reconciler, not here.
    if (p.status === 'Credit_Adjustment') return { ...outcomeOf({ ...p, status: 'Processing' }, known), message: 'DTH recharge refunded at Setu BBPS; the outcome will follow' };
    return outcomeOf(p, known);
  }

  async dthSubscriberInfo(operator: string, subscriberId: string): Promise<DthSubscriber | null> {
    const biller = billerFor(await this.billerMap(), operator);
    if (subscriberRefusal(biller, subscriberId)) return null;
    const { fetched } = await this.fetchBill(biller, subscriberId, Date.now() + this.timeout);
    return fetched.status === 'Failure' ? null : subscriberOf(fetched);
  }

  async status(tx: TxRef): Promise<PartnerReport<PartnerOutcome> | null> {
    if (tx.operation !== 'dth-recharge') return null;
    const stored = await this.recorded.get(tx.txnId);
    const refId = stored?.refId ?? tx.partnerRef;
    if (!refId) return null;
    const known: Known = { txnId: tx.txnId, amountPaise: tx.amountPaise ?? stored?.amountPaise ?? null, commissionPaise: stored?.commissionPaise ?? tx.commissionPaise };
    // A lookup, never a resend (CONTRACT §9). We sent a payment under this refId (its record says so): an
    // answer that is not a payment is not "never paid" — BBPS documents no such answer — so it stays pending.
    const p = await this.payment(refId);
    if (p) return this.reportOf(p, known);
    const message = 'Setu BBPS shows no payment for this request in any answer it documents; it stays pending, with its hold, until Setu answers or a person decides';
    return { txnId: tx.txnId, partnerRef: refId, outcome: { status: 'pending', message, money: moneyOf('pending', null, known), partnerRef: refId } };
  }

  routes: Connector['routes'] = (hooks) => [
    webhookRoute({
      secret: this.s.webhookSecret,
      stored: (txnId) => this.recorded.get(txnId),
      payment: (refId) => this.payment(refId),
      reportOf: (p, known) => this.reportOf(p, known),
      report: (r) => hooks.report(r),
    }),
  ];

  close(): Promise<void> {
    return this.api.close();
  }

  reportOf(p: BbpsPayment, known: Known): PartnerReport<PartnerOutcome> {
    const outcome = outcomeOf(p, known);
    const reversal = reversalOf(p);
    return { txnId: known.txnId, partnerRef: outcome.partnerRef ?? null, outcome, ...(reversal ? { reversal } : {}) };
  }

  /**
   * POST …/payment/response: the payment as BBPS sees it now; null for a 4xx that is not one (BBPS documents
   * 400 and 500 only, and no not-found: null never means "not paid"). A 5xx is a PartnerError (ask again).
   */
  async payment(refId: string): Promise<BbpsPayment | null> {
    const a = await this.api.read('POST', '/api/v2/bbps/bills/payment/response', { refId }, 'status enquiry');
    const p = a.status >= 200 && a.status < 300 ? dataOf<BbpsPayment>(a.json) : null;
    if (p && typeof p.status === 'string') return p;
    if (a.status >= 400 && a.status < 500) return null;
    throw new PartnerError('unavailable', `status enquiry: ${this.api.refusal(a, 'status enquiry')}`);
  }

  /** Bill fetch request, then its answer once final. */
  private async fetchBill(biller: MappedBiller, subscriberId: string, deadline: number, planId?: string): Promise<{ refId: string; fetched: BbpsFetchResponse }> {
    const f = await this.api.read('POST', '/api/v2/bbps/bills/fetch/request', fetchBody(this.s.agent, biller, subscriberId, this.s.customerMobile, planId), 'bill fetch');
    const refId = dataOf<{ refId?: string }>(f.json)?.refId;
    if (f.status !== 200 || typeof refId !== 'string' || !refId) throw new PartnerError('unavailable', `${this.api.refusal(f, 'bill fetch')}; nothing was executed or debited`);
    return { refId, fetched: await this.awaitFetch(refId, deadline) };
  }

  /** Polls the bill fetch until it is final; still Processing at the deadline is a PartnerError (nothing was paid). */
  private async awaitFetch(refId: string, deadline: number): Promise<BbpsFetchResponse> {
    for (let wait = 100; ; wait = Math.min(wait * 2, 1000)) {
      const a = await this.api.read('POST', '/api/v2/bbps/bills/fetch/response', { refId }, 'bill fetch');
      const f = dataOf<BbpsFetchResponse>(a.json);
      if (a.status !== 200 || !f) throw new PartnerError('unavailable', `${this.api.refusal(a, 'bill fetch')}; nothing was executed or debited`);
      if (f.status === 'Success' || f.status === 'Failure') return f;
      if (Date.now() + wait >= deadline) throw new PartnerError('timeout', 'The biller did not confirm the subscriber in time; nothing was executed or debited');
      await sleep(wait);
    }
  }

  /** [P] GET /api/v2/bbps/billers/plans?billerIds=… → data.plans (cached 6 h per biller; a failure is not kept). */
  private plansOf(billerId: string): Promise<unknown> {
    const held = this.planLists.get(billerId);
    if (held && Date.now() - held.at < BILLERS_TTL_MS) return held.list;
    const list = this.api.read('GET', `/api/v2/bbps/billers/plans?billerIds=${encodeURIComponent(billerId)}`, undefined, 'plan list').then((a) => {
      if (a.status !== 200) throw new PartnerError('unavailable', `${this.api.refusal(a, 'plan list')}; nothing was executed or debited`);
      return dataOf<{ plans?: unknown }>(a.json)?.plans;
    });
    const entry = { list, at: Date.now() };
    this.planLists.set(billerId, entry);
    list.catch(() => {
      if (this.planLists.get(billerId) === entry) this.planLists.delete(billerId);
    });
    return list;
  }

  private billerMap(): Promise<BillerMap> {
    if (this.billers && Date.now() - this.billers.at < BILLERS_TTL_MS) return this.billers.map;
    const map = this.api.read('GET', '/api/v2/bbps/billers?categoryName=DTH', undefined, 'billers').then((a) => {
      if (a.status !== 200) throw new PartnerError('unavailable', `${this.api.refusal(a, 'biller list')}; nothing was executed or debited`);
      return billerMapOf(dataOf<{ billers?: unknown }>(a.json)?.billers);
    });
    const entry = { map, at: Date.now() };
    this.billers = entry;
    map.catch(() => {
      if (this.billers === entry) this.billers = null;
    });
    return map;
  }
}

export const createSetuDth: ConnectorFactory = (ctx) => new SetuDthConnector(ctx, settings(ctx));
