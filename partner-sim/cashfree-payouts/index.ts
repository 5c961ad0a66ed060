// Owns the Cashfree Payouts V2 emulator (`sangam partner-sim --kind cashfree-payouts`): a Fastify server
// that speaks the real upstream protocol as the partner facts sheet (PARTNERS.md §3) documents it, summed
// up in docs/PARTNER-EMULATORS.md — `x-client-id`/`x-client-secret` auth, Standard Transfer V2 to a UPI
// VPA with `transfer_id` as the idempotency key, Get Transfer Status V2, the documented statuses and
// error shapes, Webhooks V2 signed with the client secret, and Validate Payout V2 (the VPA's holder) —
// and misbehaves on demand (/_sim/faults). The API lives under /payout, as on the real hosts; with a data dir its books survive a restart (books.ts).
// Legacy V1/V1.2 (bearer tokens, directTransfer) is not emulated: V2 does not need it.
import type { FastifyInstance } from 'fastify';
import type { PersistOptions } from '../common/persist.js';
import { cashfreeBooks } from './books.js';
import { type EmulatorHandle, installErrorShapes, jsonBodies, keepRequests, type ReceivedRequest, startEmulator } from '../common/server.js';
import { registerAdmin } from './admin.js';
import { registerApi } from './api.js';
import type { ValidationRecord } from './validations.js';
import { CfError, invalid, routeNotFound, serverError } from './errors.js';
import { NO_FAULTS, type Faults } from './faults.js';
import { TransferBook, type TransferRecord } from './transfers.js';
import { WebhookSender, type DeliveryRecord } from './webhooks.js';

export interface CashfreePayoutsEmulatorOptions extends PersistOptions {
  port?: number;
  host?: string;
  /** The V2 credentials the emulator accepts; the client secret also signs webhooks [P]. */
  clientId?: string;
  clientSecret?: string;
  /** Where Webhooks V2 are POSTed; null sends none (they are still logged as `no_url`). */
  webhookUrl?: string | null;
  /** Time between lifecycle stages (RECEIVED → SUCCESS → …). */
  pendingMs?: number;
  /** Added to every /payout call. */
  latencyMs?: number;
  /** Fund source balance in paise; a transfer larger than it fails with INSUFFICIENT_BALANCE. */
  balancePaise?: number;
  /** The one fund source (`fundsource_id`) the account has. */
  fundsourceId?: string;
  /** [P] the x-ratelimit-limit per endpoint and minute; 0 switches limiting (and its headers) off. */
  rateLimitPerMinute?: number;
  /** `x-webhook-version` and the default API version. */
  apiVersion?: string;
  webhookAttempts?: number;
  webhookRetryBaseMs?: number;
  webhookTimeoutMs?: number;
}

export const CASHFREE_PAYOUTS_DEFAULTS = {
  port: 0,
  host: '127.0.0.1',
  clientId: 'CF_SANGAM_EMULATOR_CLIENT_ID',
  clientSecret: 'cfsk_ma_test_sangam_emulator_secret',
  webhookUrl: null as string | null,
  pendingMs: 1000,
  latencyMs: 100,
  balancePaise: 10_000_000_000, // ₹10 crore
  // [P] the response sample's fund source
  fundsourceId: 'CASHFREE_1',
  // [P] the documented example limit
  rateLimitPerMinute: 200,
  // [P] the OpenAPI default/example
  apiVersion: '2024-01-01',
  webhookAttempts: 5,
  webhookRetryBaseMs: 500,
  webhookTimeoutMs: 5000,
};

export type CashfreePayoutsSettings = typeof CASHFREE_PAYOUTS_DEFAULTS;

export interface CashfreePayoutsEmulator extends EmulatorHandle<CashfreePayoutsSettings, Faults> {
  /** The API base, `<origin>/payout`, like `https://sandbox.cashfree.com/payout`. */
  url: string;
  origin: string;
  setWebhookUrl(url: string | null): void;
  transfers(): TransferRecord[];
  /** Every Validate Payout call answered, oldest first. */
  validations(): ValidationRecord[];
  webhookLog(): DeliveryRecord[];
  /** The /payout requests received, bodies as sent, with the answers given, oldest first. */
  requests(): ReceivedRequest[];
}

export function startCashfreePayoutsEmulator(opts: CashfreePayoutsEmulatorOptions = {}): Promise<CashfreePayoutsEmulator> {
  return startEmulator({
    kind: 'cashfree-payouts',
    defaults: CASHFREE_PAYOUTS_DEFAULTS,
    opts,
    noFaults: NO_FAULTS,
    errors: installErrorHandling,
    build: async ({ app, settings: s, timers, faults, replaceFaults }) => {
      let webhookUrl = s.webhookUrl;
      const webhooks = new WebhookSender({
        url: () => webhookUrl,
        secret: s.clientSecret,
        version: s.apiVersion,
        faults,
        attempts: s.webhookAttempts,
        retryBaseMs: s.webhookRetryBaseMs,
        timeoutMs: s.webhookTimeoutMs,
        later: timers.later,
      });
      const book = new TransferBook({
        fundsourceId: s.fundsourceId,
        balancePaise: s.balancePaise,
        pendingMs: () => s.pendingMs,
        later: timers.later,
        onChange: (rec, stage) => {
          if (stage.event) webhooks.emit(stage.event, structuredClone(rec.transfer), stage.final === true);
        },
      });
      const validations: ValidationRecord[] = [];
      const lookup = { missing: false };
      const received = keepRequests(app, '/payout/');
      const apiDeps = {
        lookup,
        book,
        validations,
        faults,
        clientId: s.clientId,
        clientSecret: s.clientSecret,
        fundsourceId: s.fundsourceId,
        latencyMs: s.latencyMs,
        rateLimitPerMinute: s.rateLimitPerMinute,
        sleep: timers.sleep,
      };
      await app.register(async (api) => registerApi(api, apiDeps), { prefix: '/payout' });
      const setWebhookUrl = (url: string | null) => void (webhookUrl = url);
      await registerAdmin(app, { book, webhooks, getFaults: faults, setFaults: replaceFaults, webhookUrl: () => webhookUrl, setWebhookUrl, lookup });
      return {
        handle: { setWebhookUrl, transfers: () => [...book.transfers.values()], validations: () => [...validations], webhookLog: () => webhooks.log, requests: () => [...received] },
        basePath: '/payout',
        close: () => webhooks.close(),
        persist: cashfreeBooks(book),
      };
    },
  });
}

/** Every error leaves in Cashfree's `{type, code, message}` shape; a body that is not JSON is a 400 [G]. */
function installErrorHandling(app: FastifyInstance): void {
  jsonBodies(app, () => invalid('request_invalid', 'request body is not valid JSON'));
  installErrorShapes(app, {
    known: (err) => (err instanceof CfError ? { status: err.statusCode, body: err.toJSON(), headers: err.headers } : undefined),
    client: (err) => invalid('request_invalid', err.message).toJSON(),
    server: () => serverError(500).toJSON(),
    notFound: () => routeNotFound().toJSON(),
  });
}
