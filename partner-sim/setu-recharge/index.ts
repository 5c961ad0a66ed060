// Owns the Setu BBPS BillPay mobile prepaid recharge emulator (`sangam partner-sim --kind setu-recharge`):
// a Fastify server speaking the upstream protocol as PARTNERS.md §4.1–4.6 documents it — the login token,
// Bearer + X-PRODUCT-INSTANCE-ID, operator lookup and plans in Setu's own operator/circle names,
// validate/request/status keyed on paymentRefId, the wallet, and unsigned webhooks under the configured base
// URL — and misbehaves on demand (/_sim/faults). DTH is a different Setu product with its own host and auth
// (§4.7) and has its own emulator, partner-sim/setu-dth/. With a data dir its books survive a restart (books.ts).
import type { PersistOptions } from '../common/persist.js';
import { rechargeBooks } from './books.js';
import type { FastifyInstance } from 'fastify';
import { type EmulatorHandle, installErrorShapes, jsonBodies, keepRequests, type ReceivedRequest, startEmulator } from '../common/server.js';
import { registerAdmin, type WebhookReference } from './admin.js';
import { registerApi, registerLogin } from './api.js';
import { DISPLAY_NAME, type Operator } from './catalogue.js';
import { newTraceId, paramsInvalid, routeNotFound, SetuError } from './errors.js';
import { NO_FAULTS, type Faults } from './faults.js';
import { RechargeState, type RechargeRecord } from './state.js';
import { TokenIssuer } from './tokens.js';
import { istNow, PAYMENT_RETRIES, rupees, WALLET_RETRIES, WebhookSender, type DeliveryRecord, type RetrySchedule } from './webhooks.js';

export interface SetuRechargeEmulatorOptions extends PersistOptions {
  port?: number;
  host?: string;
  /** Credentials for POST /v1/users/login. */
  clientId?: string;
  clientSecret?: string;
  /** The X-PRODUCT-INSTANCE-ID every API call must carry. */
  productInstanceId?: string;
  /** Base URL the webhook routes are appended to (`/payment/status`, …); null sends none (logged as `no_url`). */
  webhookUrl?: string | null;
  /** Time between lifecycle steps (Processing → final, Successful → reversal). */
  pendingMs?: number;
  /** Added to every API call. */
  latencyMs?: number;
  /** Prepaid wallet in paise; a recharge larger than it fails. */
  walletPaise?: number;
  /** Crossing below this sends `wallet.low_balance`. */
  lowBalancePaise?: number;
  /** [G] token lifetime (undocumented upstream). */
  tokenTtlSeconds?: number;
  /** Multiplies the documented webhook retry delays (1 = 2 s…2 min); tests use ~0.01. */
  webhookTimeScale?: number;
  webhookTimeoutMs?: number;
}

export const SETU_RECHARGE_DEFAULTS = {
  port: 0,
  host: '127.0.0.1',
  // [P] the documented ClientID form XXXX-XXXX-XXXX-XXXX
  clientId: 'SEMU-RCHG-0000-0001',
  clientSecret: 'setu-recharge-emulator-secret',
  productInstanceId: '5e7a2f40-1c3b-4d8e-9a61-2b7f0c4d9e13',
  webhookUrl: null as string | null,
  pendingMs: 1000,
  latencyMs: 100,
  walletPaise: 5_000_000, // ₹50,000
  lowBalancePaise: 100_000, // ₹1,000
  tokenTtlSeconds: 3600,
  webhookTimeScale: 1,
  webhookTimeoutMs: 5000,
};

export type SetuRechargeSettings = typeof SETU_RECHARGE_DEFAULTS;

export interface SetuRechargeEmulator extends EmulatorHandle<SetuRechargeSettings, Faults> {
  setWebhookUrl(url: string | null): void;
  recharges(): RechargeRecord[];
  webhookLog(): DeliveryRecord[];
  /** The API requests received (login included), bodies as sent, with the answers given, oldest first. */
  requests(): ReceivedRequest[];
}

export function startSetuRechargeEmulator(opts: SetuRechargeEmulatorOptions = {}): Promise<SetuRechargeEmulator> {
  return startEmulator({
    kind: 'setu-recharge',
    defaults: SETU_RECHARGE_DEFAULTS,
    opts,
    noFaults: NO_FAULTS,
    appOptions: () => ({ genReqId: newTraceId }),
    errors: installErrorHandling,
    build: async ({ app, settings: s, timers, faults, replaceFaults }) => {
      let webhookBase = s.webhookUrl;
      const webhooks = new WebhookSender({ faults, timeScale: s.webhookTimeScale, timeoutMs: s.webhookTimeoutMs, later: timers.later, userAgent: 'Setu-Webhooks/1.0' });
      const send = (route: string, body: Record<string, unknown>, chain: string, schedule: RetrySchedule, label: string, holdable = false, forged = false) =>
        webhooks.emit(webhookBase ? { url: webhookBase.replace(/\/+$/, '') + route, body, chain, schedule, label, ref: chain, forged } : { noUrl: true, label, ref: chain }, holdable);
      const lowBalance = () => send('/wallet/low-balance', lowBalanceWebhook(state.wallet), 'wallet', WALLET_RETRIES, 'wallet.low_balance');
      const credited = (paise: number) => send('/wallet/topup', topUpWebhook(paise, state.wallet), 'wallet', WALLET_RETRIES, 'wallet.credit');
      // Which reading of the webhooks' `transactionRefId` the emulator sends (POST /_sim/webhook-reference).
      const reference = { field: 'transactionRefId' as WebhookReference };

      const state: RechargeState = new RechargeState({
        pendingMs: () => s.pendingMs,
        walletPaise: s.walletPaise,
        lowBalancePaise: s.lowBalancePaise,
        later: timers.later,
        onFinal: (rec) => {
          const forged = faults().forged_success && rec.status !== 'Successful';
          const body = paymentWebhook(rec, forged ? 'Successful' : rec.status, reference.field);
          if (forged) body.operatorRefId = 'FORGED0000';
          send('/payment/status', body, rec.transactionRefId, PAYMENT_RETRIES, String(body.status), rec.plan === 'reversal', forged);
        },
        onReversed: (rec) => send('/payment/reversal', paymentWebhook(rec, 'REVERSED', reference.field), rec.transactionRefId, PAYMENT_RETRIES, 'REVERSED'),
        onLowBalance: lowBalance,
      });
      const tokens = new TokenIssuer(() => s.tokenTtlSeconds);
      const calls: Record<string, number> = {};
      const lookup = { missing: false };
      const received = keepRequests(app, '/');
      const deps = { state, tokens, faults, clientId: s.clientId, clientSecret: s.clientSecret, productInstanceId: s.productInstanceId, latencyMs: s.latencyMs, sleep: timers.sleep, calls, lookup };
      await app.register(async (scope) => registerLogin(scope, deps));
      await app.register(async (scope) => registerApi(scope, deps));
      const setWebhookUrl = (u: string | null) => void (webhookBase = u);
      await registerAdmin(app, {
        state,
        tokens,
        webhooks,
        calls,
        getFaults: faults,
        setFaults: replaceFaults,
        webhookBase: () => webhookBase,
        setWebhookBase: setWebhookUrl,
        topUp: (paise) => {
          state.setWallet(state.wallet + paise);
          credited(paise);
        },
        lookup,
        reference,
      });
      const persist = rechargeBooks(state, { pendingMs: () => s.pendingMs, later: timers.later });
      const requests = () => received.filter((q) => !q.path.startsWith('/_sim'));
      return { handle: { setWebhookUrl, recharges: () => [...state.recharges.values()], webhookLog: () => webhooks.log, requests }, close: () => webhooks.close(), persist };
    },
  });
}

/**
 * [P] the payment webhook sample: amount as a rupee string, provider as a display name, IST timestamp;
 * failures add failureReason. `transactionRefId` is, by Setu's page, the "Transaction reference ID from the
 * original recharge request": by default the one Setu's answer gave, or (`refId`) the request's own refId
 * (which defaults to its paymentRefId) — the connector must accept either.
 */
function paymentWebhook(rec: RechargeRecord, status: string, reference: WebhookReference): Record<string, unknown> {
  return {
    transactionRefId: reference === 'refId' ? rec.input.refId : rec.transactionRefId,
    trace_id: rec.traceId,
    // [P] "Operator transaction ID (if available)", not mandatory: absent (the Failure sample has none) until there is one.
    ...(rec.operatorRefId ? { operatorRefId: rec.operatorRefId } : {}),
    status,
    amount: rupees(rec.input.amount),
    mobile_number: rec.input.mobile,
    provider: DISPLAY_NAME[rec.input.operator as Operator],
    timestamp: istNow(),
    ...(status === 'Failure' && rec.error ? { failureReason: rec.error.failureReason } : {}),
  };
}

/** [P] Setu's webhook page, "Wallet Low Balance Webhook": rupee strings, a UTC timestamp, `traceId`. */
export function lowBalanceWebhook(balancePaise: number): Record<string, unknown> {
  return { event: 'wallet.low_balance', balance: rupees(balancePaise), message: 'Low balance Alert', timestamp: new Date().toISOString(), traceId: newTraceId() };
}

/** [P] Setu's webhook page, "Wallet Topup Webhook": every amount a rupee string, `currentBalance` after the credit. */
export function topUpWebhook(amountPaise: number, balancePaise: number): Record<string, unknown> {
  return {
    event: 'wallet.credit',
    amount: rupees(amountPaise),
    referenceNumber: `TOPUP${Date.now()}`,
    creditedFrom: 'Bank Transfer',
    transactionDate: new Date().toISOString(),
    message: 'Credit Successful',
    traceId: newTraceId(),
    currentBalance: rupees(balancePaise),
  };
}

/** Every error leaves in Setu's shape with the request's trace id, which every answer also carries as `x-trace-id`. */
function installErrorHandling(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => void reply.header('x-trace-id', req.id));
  jsonBodies(app, () => paramsInvalid('Request body is not valid JSON'));
  installErrorShapes(app, {
    known: (err, req) => (err instanceof SetuError ? { status: err.statusCode, body: err.body(req.id) } : undefined),
    client: (err, req) => paramsInvalid(err.message).body(req.id),
    server: (req) => new SetuError(500, 'ERR100', 'internal-server-error', 'Internal server error').body(req.id),
    notFound: (req) => routeNotFound().body(req.id),
  });
}
