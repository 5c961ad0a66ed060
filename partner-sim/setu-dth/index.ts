// Owns the Setu BBPS BillPay v2 (COU) emulator for DTH (`sangam partner-sim --kind setu-dth`). Setu's
// prepaid API is mobile-only; DTH goes through BBPS, a different product with its own host, token endpoint
// (`{clientID, secret}` → `{token, expiresIn}`) and `X-PARTNER-ID` header (PARTNERS.md §4.7), hence a
// separate kind. Requests and answers follow Setu's own OpenAPI (docs/partners/setu-dth/) and guides; the
// values it fills in are [G] and say so where they are defined. Every API request is kept with its answer
// (`requests()`), so tests hold both against Setu's schema. A route BBPS does not have is the gateway's 404.
// It shares faults, tokens and the webhook sender with the prepaid emulator. With a data dir its books survive a restart (books.ts).
import type { PersistOptions } from '../common/persist.js';
import { bbpsBooks } from './books.js';
import type { FastifyInstance } from 'fastify';
import { type EmulatorHandle, installErrorShapes, jsonBodies, keepRequests, type ReceivedRequest, startEmulator } from '../common/server.js';
import { newTraceId } from '../setu-recharge/errors.js';
import { NO_FAULTS, type Faults } from '../setu-recharge/faults.js';
import { TokenIssuer } from '../setu-recharge/tokens.js';
import { istNow, PAYMENT_RETRIES, WebhookSender, type DeliveryRecord } from '../setu-recharge/webhooks.js';
import { registerAdmin } from './admin.js';
import { fetchView, paymentView, registerApi, registerToken } from './api.js';
import { BbpsError, GATEWAY_NOT_FOUND, invalidParams } from './errors.js';
import { BbpsState, type FetchRecord } from './state.js';

export interface SetuDthEmulatorOptions extends PersistOptions {
  port?: number;
  host?: string;
  clientId?: string;
  clientSecret?: string;
  /** The integer every call must carry as X-PARTNER-ID. */
  partnerId?: number;
  /** Where BILL_FETCH / BILL_PAY webhooks are POSTed ([G] as is, no route appended); null sends none. */
  webhookUrl?: string | null;
  /** Time between payment lifecycle steps. */
  pendingMs?: number;
  /** Time a bill fetch stays Processing. */
  fetchMs?: number;
  latencyMs?: number;
  /** [P] the token answer carries expiresIn; this is its value in seconds. */
  tokenTtlSeconds?: number;
  /** Multiplies the webhook retry delays ([G] the prepaid schedule: 2 s doubling to 2 min). */
  webhookTimeScale?: number;
  webhookTimeoutMs?: number;
}

export const SETU_DTH_DEFAULTS = {
  port: 0,
  host: '127.0.0.1',
  clientId: 'setu-dth-emulator-client',
  clientSecret: 'setu-dth-emulator-secret',
  partnerId: 1001,
  webhookUrl: null as string | null,
  pendingMs: 1000,
  fetchMs: 200,
  latencyMs: 100,
  tokenTtlSeconds: 3600,
  webhookTimeScale: 1,
  webhookTimeoutMs: 5000,
};

export type SetuDthSettings = typeof SETU_DTH_DEFAULTS;

/**
 * The connector variables (SANGAM_PARTNER_<NAME>_…) a setu-dth partner needs besides the credentials, with
 * values this emulator accepts: an INT agent (ip and mac, as Setu's OpenAPI requires for that channel) and
 * the payer of a Wallet payment (NPCI's `WalletName|MobileNo`).
 */
export const SETU_DTH_CONNECTOR_VARS = {
  AGENT_ID: 'SG01SG01INT512345678',
  AGENT_CHANNEL: 'INT',
  AGENT_IP: '203.0.113.10',
  AGENT_MAC: '48-4D-7E-CB-DB-6F',
  REMITTER_NAME: 'Sangam Test Operator',
  ACCOUNT_INFO: 'Setu Wallet|9812300000',
} as const;

export interface SetuDthEmulator extends EmulatorHandle<SetuDthSettings, Faults> {
  setWebhookUrl(url: string | null): void;
  bills(): FetchRecord[];
  webhookLog(): DeliveryRecord[];
  /** The API requests received, bodies as sent, with the answers given, oldest first (auth token calls included). */
  requests(): ReceivedRequest[];
}

export function startSetuDthEmulator(opts: SetuDthEmulatorOptions = {}): Promise<SetuDthEmulator> {
  return startEmulator({
    kind: 'setu-dth',
    defaults: SETU_DTH_DEFAULTS,
    opts,
    noFaults: NO_FAULTS,
    appOptions: () => ({ genReqId: newTraceId }),
    errors: installErrorHandling,
    build: async ({ app, settings: s, timers, faults, replaceFaults }) => {
      let webhookUrl = s.webhookUrl;
      const webhooks = new WebhookSender({ faults, timeScale: s.webhookTimeScale, timeoutMs: s.webhookTimeoutMs, later: timers.later, userAgent: 'Setu-BBPS-Webhooks/2.0' });
      /** [P] the envelope `{traceId, timeStamp, event, data | error}`. */
      const send = (rec: FetchRecord, event: 'BILL_FETCH' | 'BILL_PAY', payload: { data: Record<string, unknown> } | { error: Record<string, unknown> }, label: string, holdable = false, forged = false) =>
        webhooks.emit(
          webhookUrl ? { url: webhookUrl, body: { traceId: rec.traceId, timeStamp: istNow(), event, ...payload }, chain: rec.refId, schedule: PAYMENT_RETRIES, label, ref: rec.refId, forged } : { noUrl: true, label, ref: rec.refId },
          holdable,
        );
      const state = new BbpsState({
        pendingMs: () => s.pendingMs,
        fetchMs: () => s.fetchMs,
        later: timers.later,
        onFetched: (rec) => send(rec, 'BILL_FETCH', rec.error ? { error: { ...rec.error, refId: rec.refId } } : { data: fetchView(rec) }, `BILL_FETCH ${rec.status}`),
        onPaid: (rec, final) => {
          const data = paymentView(rec, true);
          const forged = faults().forged_success && data.status !== 'Success';
          if (forged) {
            data.status = 'Success';
            delete data.failureReason;
          }
          send(rec, 'BILL_PAY', { data }, `BILL_PAY ${String(data.status)}`, !final, forged);
        },
      });
      const tokens = new TokenIssuer(() => s.tokenTtlSeconds);
      const calls: Record<string, number> = {};
      const received = keepRequests(app, '/api/');
      const lookup = { missing: false };
      const deps = { state, tokens, faults, clientId: s.clientId, clientSecret: s.clientSecret, partnerId: s.partnerId, latencyMs: s.latencyMs, sleep: timers.sleep, calls, lookup };
      await app.register(async (scope) => registerToken(scope, deps));
      await app.register(async (scope) => registerApi(scope, deps));
      const setWebhookUrl = (u: string | null) => void (webhookUrl = u);
      await registerAdmin(app, { state, tokens, webhooks, calls, getFaults: faults, setFaults: replaceFaults, webhookUrl: () => webhookUrl, setWebhookUrl, lookup });
      const persist = bbpsBooks(state, { pendingMs: () => s.pendingMs, fetchMs: () => s.fetchMs, later: timers.later });
      return { handle: { setWebhookUrl, bills: () => [...state.fetches.values()], webhookLog: () => webhooks.log, requests: () => [...received] }, close: () => webhooks.close(), persist };
    },
  });
}

/** Every error leaves in the BBPS shape with the request's trace id, which every answer also carries as `x-trace-id`. */
function installErrorHandling(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => void reply.header('x-trace-id', req.id));
  jsonBodies(app, () => invalidParams('Request body is not valid JSON'));
  installErrorShapes(app, {
    known: (err, req) => (err instanceof BbpsError ? { status: err.statusCode, body: err.body(req.id) } : undefined),
    client: (err, req) => invalidParams(err.message).body(req.id),
    server: (req) => new BbpsError(500, 'internal-server-error', 'Internal server error').body(req.id),
    notFound: () => GATEWAY_NOT_FOUND.body,
  });
}
