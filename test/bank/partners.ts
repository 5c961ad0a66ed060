// The bank test's partners: the four real-partner emulators in this process (RazorpayX and Cashfree
// Payouts for UPI, routed rzp>cashfree; Setu prepaid recharge; Setu BBPS DTH), the variables that point
// a Sangam server at them, and what the test does to them: faults, reversals through their /_sim
// controls, and reading their books — each emulator's record of a transaction is the witness the
// test holds Sangam's to.
import { startCashfreePayoutsEmulator, type CashfreePayoutsEmulator } from '../../partner-sim/cashfree-payouts/index.js';
import { startRazorpayxEmulator, type RazorpayxEmulator } from '../../partner-sim/razorpayx/index.js';
import { SETU_DTH_CONNECTOR_VARS, startSetuDthEmulator, type SetuDthEmulator } from '../../partner-sim/setu-dth/index.js';
import { startSetuRechargeEmulator, type SetuRechargeEmulator } from '../../partner-sim/setu-recharge/index.js';
import { paymentRefIdOf, txnIdOfPaymentRef } from '../../src/providers/setu/transformers.js';
import { eventually } from '../harness.js';
import { upiPartnerVars } from '../live-harness.js';

const SETU_SECRET = 'bank_setu_webhook_path_secret_000001';
const SETUDTH_SECRET = 'bank_setudth_webhook_path_secret_0001';
/** Each lifecycle step at the partners. */
const PENDING_MS = 150;
/** RazorpayX and Cashfree try a webhook this many times, 100 ms apart: a Sangam that is down misses it. */
const WEBHOOK_ATTEMPTS = 2;
/**
 * Setu's documented retries (2 s doubling, 5 of them) shrunk: prepaid to 100 ms doubling (3.1 s in all,
 * so that a reversal webhook Sangam asks to have again — 409 while the recharge is not final there —
 * comes again after it is), DTH to 10 ms doubling (310 ms: a DTH refund made while Sangam is down is
 * given up quickly; the status API shows it).
 */
const SETU_TIME_SCALE = { prepaid: 0.05, dth: 0.005 };
const SETU_ATTEMPTS = 6;

export type Kind = 'upi' | 'recharge' | 'dth';
export type Outcome = 'success' | 'failed' | 'pending';

/** A reversal the test made at a partner; `logFrom`: the length of its webhook log just before. */
export interface Reversed {
  partner: 'rzp' | 'cashfree' | 'setu' | 'setudth';
  txnId: string;
  logFrom: number;
}

/** What a partner's books say about one of our transactions. */
export interface PartnerView {
  /** Who holds it: none = no partner was ever asked to pay it. */
  at: 'rzp' | 'cashfree' | 'setu' | 'setudth' | 'none';
  outcome: Outcome | 'none';
  reversed: boolean;
  /** UPI: a payout made at both partners (the failover rule forbids it). */
  atBoth: boolean;
  /**
   * Setu prepaid: reversed, and every delivery of its REVERSED webhook missed Sangam (it was down, or
   * the webhook was dropped), which its status API cannot make up for (PARTNERS.md §9.4): what became
   * of them (`error`, `dropped`); false otherwise. A delivery Sangam answered, even with a refusal, is
   * not missed: then a reversal Sangam lacks is a disagreement.
   */
  unobservable: string | false;
  /** Its lifecycle at the partner has not ended (a reversal it is still due, a pending step). */
  moving: boolean;
}

const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

export class Partners {
  private constructor(
    readonly rzp: RazorpayxEmulator,
    readonly cf: CashfreePayoutsEmulator,
    readonly setu: SetuRechargeEmulator,
    readonly dth: SetuDthEmulator,
  ) {}

  static async start(): Promise<Partners> {
    const webhooks = { webhookAttempts: WEBHOOK_ATTEMPTS, webhookRetryBaseMs: 100, webhookTimeoutMs: 2000 };
    return new Partners(
      await startRazorpayxEmulator({ webhookSecret: 'bank_rzp_webhook_secret', pendingMs: PENDING_MS, latencyMs: 0, ...webhooks }),
      await startCashfreePayoutsEmulator({ clientSecret: 'cfsk_ma_test_bank_secret', pendingMs: PENDING_MS, latencyMs: 0, rateLimitPerMinute: 0, ...webhooks }),
      await startSetuRechargeEmulator({ pendingMs: PENDING_MS, latencyMs: 0, webhookTimeScale: SETU_TIME_SCALE.prepaid, webhookTimeoutMs: 2000 }),
      await startSetuDthEmulator({ pendingMs: PENDING_MS, fetchMs: 30, latencyMs: 0, webhookTimeScale: SETU_TIME_SCALE.dth, webhookTimeoutMs: 2000 }),
    );
  }

  /** Sangam's variables for the four partners and the routes under test. */
  env(): Record<string, string> {
    const { rzp, cf, setu, dth } = this;
    return {
      ...upiPartnerVars(rzp, cf),
      SANGAM_PARTNER_SETU_KIND: 'setu-recharge',
      SANGAM_PARTNER_SETU_URL: setu.url,
      SANGAM_PARTNER_SETU_TOKEN_URL: `${setu.url}/v1/users/login`,
      SANGAM_PARTNER_SETU_CLIENT_ID: setu.settings.clientId,
      SANGAM_PARTNER_SETU_CLIENT_SECRET: setu.settings.clientSecret,
      SANGAM_PARTNER_SETU_PRODUCT_INSTANCE_ID: setu.settings.productInstanceId,
      SANGAM_PARTNER_SETU_WEBHOOK_SECRET: SETU_SECRET,
      SANGAM_PARTNER_SETUDTH_KIND: 'setu-dth',
      SANGAM_PARTNER_SETUDTH_URL: dth.url,
      SANGAM_PARTNER_SETUDTH_CLIENT_ID: dth.settings.clientId,
      SANGAM_PARTNER_SETUDTH_CLIENT_SECRET: dth.settings.clientSecret,
      SANGAM_PARTNER_SETUDTH_PARTNER_ID: String(dth.settings.partnerId),
      SANGAM_PARTNER_SETUDTH_CUSTOMER_MOBILE: '9812300000',
      ...Object.fromEntries(Object.entries(SETU_DTH_CONNECTOR_VARS).map(([k, v]) => [`SANGAM_PARTNER_SETUDTH_${k}`, v])),
      SANGAM_PARTNER_SETUDTH_WEBHOOK_SECRET: SETUDTH_SECRET,
      SANGAM_PARTNER_ROUTES: 'upi-payment-status=rzp>cashfree;recharge-commission=setu;dth-recharge=setudth',
    };
  }

  /** Every partner's webhooks go to the Sangam at `base` from now on (each start has its own port). */
  webhooksTo(base: string): void {
    this.rzp.setWebhook({ url: `${base}/partners/rzp/webhooks` });
    this.cf.setWebhookUrl(`${base}/partners/cashfree/webhooks`);
    this.setu.setWebhookUrl(`${base}/partners/setu/webhooks/${SETU_SECRET}`);
    this.dth.setWebhookUrl(`${base}/partners/setudth/webhooks/${SETUDTH_SECRET}`);
  }

  /** One phase's faults (an empty object behaves); the `*_next` counters count payment creations only. */
  faults(f: { rzp?: object; cf?: object; setu?: object; dth?: object }): void {
    this.rzp.setFaults({ scope: 'create_payout', ...f.rzp });
    this.cf.setFaults({ scope: 'create_transfer', ...f.cf });
    this.setu.setFaults({ scope: 'payment', ...f.setu });
    this.dth.setFaults({ scope: 'payment', ...f.dth });
  }

  close(): Promise<unknown> {
    return Promise.all([this.rzp.close(), this.cf.close(), this.setu.close(), this.dth.close()]);
  }

  // ---- reversals at the partner ---------------------------------------------------------------

  /**
   * Reverses successes at the partners that can undo them: up to `n.rzp` RazorpayX payouts (processed
   * → reversed), `n.cf` Cashfree transfers (SUCCESS → REVERSED), `n.dth` DTH payments (Success →
   * Credit_Adjustment), `n.setu` prepaid recharges (Successful → REVERSED); the latest, and only those
   * that succeeded within `withinMs`, so that the reversal watch still has a look due at them; never one
   * whose own lifecycle already ends in a reversal. Answers what it reversed, with where its partner's
   * webhook log stood just before.
   */
  async reverseLatest(n: { rzp?: number; cf?: number; dth?: number; setu?: number }, withinMs: number): Promise<Reversed[]> {
    const done: Reversed[] = [];
    const since = Date.now() - withinMs;
    /** The latest `count` of `items` by the time they first reached `status`, within the window. */
    const latest = <T>(items: T[], history: (x: T) => Array<{ status: string; at: string }> | undefined, status: string, count = 0) =>
      items
        .map((x) => ({ x, at: Date.parse(history(x)?.find((h) => h.status === status)?.at ?? '') }))
        .filter((e) => e.at >= since)
        .sort((a, b) => b.at - a.at)
        .slice(0, count)
        .map((e) => e.x);
    const settle = async (partner: Reversed['partner'], txnId: string, url: string, body: object) => {
      const logFrom = this.log(partner).length;
      if ((await post(url, body)).ok) done.push({ partner, txnId, logFrom });
    };
    const rzp = this.rzp.payouts().filter((p) => p.payout.status === 'processed' && p.plan !== 'reversed');
    for (const p of latest(rzp, (x) => x.history, 'processed', n.rzp)) {
      await settle('rzp', p.idempotencyKey, `${this.rzp.url}/_sim/payouts/${p.payout.id}/settle`, { status: 'reversed', reason: 'beneficiary_bank_offline' });
    }
    const cf = this.cf.transfers().filter((t) => t.transfer.status === 'SUCCESS' && t.plan !== 'reverse');
    for (const t of latest(cf, (x) => x.history, 'SUCCESS', n.cf)) {
      await settle('cashfree', t.transfer.transfer_id, `${this.cf.origin}/_sim/transfers/${t.transfer.transfer_id}/settle`, { status: 'REVERSED' });
    }
    const dth = this.dth.bills().filter((b) => b.payment?.status === 'Success' && b.plan !== 'refund');
    for (const b of latest(dth, (x) => x.payment?.history, 'Success', n.dth)) {
      await settle('setudth', txnIdOfPaymentRef(b.payment!.input.paymentRefId)!, `${this.dth.url}/_sim/payments/${b.refId}/settle`, { status: 'Credit_Adjustment' });
    }
    const setu = this.setu.recharges().filter((r) => r.status === 'Successful' && !r.reversed && r.plan !== 'reversal');
    for (const r of latest(setu, (x) => x.history, 'Successful', n.setu)) {
      await settle('setu', txnIdOfPaymentRef(r.input.paymentRefId)!, `${this.setu.url}/_sim/recharges/${r.input.paymentRefId}/settle`, { status: 'REVERSED' });
    }
    return done;
  }

  private log(partner: Reversed['partner']): Array<{ outcome: string }> {
    return { rzp: this.rzp, cashfree: this.cf, setu: this.setu, setudth: this.dth }[partner].webhookLog();
  }

  /**
   * Waits until the partners have given up every webhook of `reversed` (Sangam was down: every attempt
   * failed, or the webhook was dropped). Whatever the webhook claims (a forged_success fault makes a
   * refund's webhook say Success), it is the one the reversal sent.
   */
  async missed(reversed: Reversed[]): Promise<void> {
    const attempts = { rzp: WEBHOOK_ATTEMPTS, cashfree: WEBHOOK_ATTEMPTS, setu: SETU_ATTEMPTS, setudth: SETU_ATTEMPTS };
    const mine = (r: Reversed): Array<{ outcome: string }> => {
      const after = <T>(rows: T[]) => rows.slice(r.logFrom);
      if (r.partner === 'rzp') {
        const id = this.rzp.payouts().find((p) => p.idempotencyKey === r.txnId)?.payout.id;
        return after(this.rzp.webhookLog()).filter((w) => w.payout_id === id);
      }
      if (r.partner === 'cashfree') return after(this.cf.webhookLog()).filter((w) => w.transfer_id === r.txnId);
      if (r.partner === 'setudth') {
        const refId = this.dth.bills().find((b) => b.payment?.input.paymentRefId === paymentRefIdOf(r.txnId))?.refId;
        return after(this.dth.webhookLog()).filter((w) => w.ref === refId);
      }
      const chain = this.setu.recharges().find((x) => x.input.paymentRefId === paymentRefIdOf(r.txnId))?.transactionRefId;
      return after(this.setu.webhookLog()).filter((w) => w.ref === chain);
    };
    const gaveUp = (r: Reversed) => {
      const rows = mine(r);
      return rows.some((w) => w.outcome === 'dropped') || rows.filter((w) => w.outcome === 'error' || w.outcome === 'rejected').length >= attempts[r.partner];
    };
    await eventually(async () => reversed.every(gaveUp), 10_000, 20).catch(() => {
      throw new Error(`reversal webhooks still being tried: ${JSON.stringify(reversed.filter((r) => !gaveUp(r)).map((r) => ({ ...r, log: mine(r) })))}`);
    });
  }

  // ---- the partners' books ----------------------------------------------------------------------

  /** What the partners' books say about our transaction `txnId` of kind `kind` (null: Sangam has none). */
  view(kind: Kind, txnId: string | null): PartnerView {
    const none: PartnerView = { at: 'none', outcome: 'none', reversed: false, atBoth: false, unobservable: false, moving: false };
    if (!txnId) return none;
    if (kind === 'upi') {
      const r = this.rzp.payouts().find((p) => p.idempotencyKey === txnId);
      const c = this.cf.transfers().find((t) => t.transfer.transfer_id === txnId);
      const atBoth = Boolean(r && c);
      if (r) {
        const s = r.payout.status;
        const outcome = s === 'processed' || s === 'reversed' ? 'success' : ['failed', 'rejected', 'cancelled'].includes(s) ? 'failed' : 'pending';
        return { ...none, at: 'rzp', outcome, reversed: s === 'reversed', atBoth, moving: outcome === 'pending' || (r.plan === 'reversed' && s === 'processed') };
      }
      if (c) {
        const s = c.transfer.status;
        const outcome = s === 'SUCCESS' || s === 'REVERSED' ? 'success' : ['FAILED', 'REJECTED', 'MANUALLY_REJECTED'].includes(s) ? 'failed' : 'pending';
        return { ...none, at: 'cashfree', outcome, reversed: s === 'REVERSED', atBoth, moving: outcome === 'pending' || (c.plan === 'reverse' && s === 'SUCCESS') };
      }
      return none;
    }
    const ref = paymentRefIdOf(txnId);
    if (kind === 'recharge') {
      const r = this.setu.recharges().find((x) => x.input.paymentRefId === ref);
      if (!r) return none;
      const outcome = r.status === 'Successful' ? 'success' : r.status === 'Failure' ? 'failed' : 'pending';
      // Missed: Sangam answered none of its deliveries (it was down, or the webhook was dropped).
      const tries = this.setu.webhookLog().filter((w) => w.ref === r.transactionRefId && w.label === 'REVERSED');
      const missed = tries.every((w) => w.status_code === null);
      const how = [...new Set(tries.map((w) => w.outcome))].join(', ') || 'never sent';
      return { ...none, at: 'setu', outcome, reversed: r.reversed, unobservable: r.reversed && missed ? how : false, moving: outcome === 'pending' || (r.plan === 'reversal' && !r.reversed) };
    }
    const b = this.dth.bills().find((x) => x.payment?.input.paymentRefId === ref);
    const s = b?.payment?.status;
    if (!b || !s) return none;
    const outcome = s === 'Success' || s === 'Credit_Adjustment' ? 'success' : s === 'Failure' ? 'failed' : 'pending';
    // A DTH refund, like a prepaid reversal, is signalled only by webhook (payment/response keeps Success).
    const tries = this.dth.webhookLog().filter((w) => w.ref === b.refId && w.label === 'BILL_PAY Credit_Adjustment');
    const how = [...new Set(tries.map((w) => w.outcome))].join(', ') || 'never sent';
    const missed = tries.every((w) => w.status_code === null);
    return { ...none, at: 'setudth', outcome, reversed: s === 'Credit_Adjustment', unobservable: s === 'Credit_Adjustment' && missed ? how : false, moving: outcome === 'pending' || (b.plan === 'refund' && s === 'Success') };
  }
}
