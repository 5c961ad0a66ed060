// Owns the RazorpayX Payouts emulator (`sangam partner-sim --kind razorpayx`): a Fastify server that
// speaks the real upstream protocol as the partner facts sheet (PARTNERS.md §2) documents it, summed up in
// docs/PARTNER-EMULATORS.md — Basic auth, contacts, VPA fund accounts, payouts with mandatory
// `X-Payout-Idempotency`, the documented statuses and signed webhooks, fund account validations of VPAs
// and bank accounts (validations.ts, §9.1) from a RazorpayX Lite account distinct from the Current Account payouts debit — and
// misbehaves on demand
// (/_sim/faults). With a data dir its books survive a restart (books.ts, common/persist.ts).
import type { FastifyInstance } from 'fastify';
import type { PersistOptions } from '../common/persist.js';
import { type EmulatorHandle, installErrorShapes, jsonBodies, keepRequests, type ReceivedRequest, startEmulator } from '../common/server.js';
import { registerAdmin } from './admin.js';
import { registerApi, withFundAccount } from './api.js';
import { badRequest, RzpError, routeNotFound, serverError } from './errors.js';
import { NO_FAULTS, type Faults } from './faults.js';
import { razorpayxBooks } from './books.js';
import { IdempotencyBook } from './idempotency.js';
import { EVENT_FOR, FINAL } from './outcomes.js';
import { RazorpayxState, type PayoutRecord } from './state.js';
import { WebhookSender, type DeliveryRecord } from './webhooks.js';
import { ValidationBook, type Validation } from './validations.js';

export interface RazorpayxEmulatorOptions extends PersistOptions {
  port?: number;
  host?: string;
  /** HTTP Basic credentials the emulator accepts. */
  keyId?: string;
  keySecret?: string;
  /** The business account (`account_number`): a Current Account, which payouts must debit. */
  accountNumber?: string;
  /**
   * The RazorpayX Lite customer identifier, distinct from the Current Account: fund account validation is
   * "possible only for RazorpayX Lite" and takes this as `source_account_number`; the Current Account's
   * number there is refused (400).
   */
  liteAccountNumber?: string;
  /** `account_id` in webhook envelopes. */
  accountId?: string;
  webhookSecret?: string;
  /** Where events are POSTed; null sends none (they are still logged as `no_url`). */
  webhookUrl?: string | null;
  /** Time between lifecycle steps (processing → processed, …). */
  pendingMs?: number;
  /** How long a fund account validation stays `created` before its verdict; 0 answers `completed` at once. */
  validationMs?: number;
  /** How long a `favslow…@` VPA's or a `…888` account's validation stays `created` (a pending settled by its webhook). */
  slowValidationMs?: number;
  /** Added to every /v1 call. */
  latencyMs?: number;
  /** Business balance in paise; a payout larger than it is queued (queue_if_low_balance) or refused. */
  balancePaise?: number;
  /** Default narration, standing in for the Merchant Billing Label. */
  narration?: string;
  webhookAttempts?: number;
  webhookRetryBaseMs?: number;
  webhookTimeoutMs?: number;
}

export const RAZORPAYX_DEFAULTS = {
  port: 0,
  host: '127.0.0.1',
  keyId: 'rzp_test_SangamEmulator',
  keySecret: 'emulator_key_secret',
  // the docs' own Test Mode sample account number
  accountNumber: '7878780080316316',
  // [G] any identifier of the same form; RazorpayX issues it under Banking → Customer Identifier
  liteAccountNumber: '2323230041626905',
  accountId: 'acc_SangamEmulator',
  webhookSecret: 'emulator_webhook_secret',
  webhookUrl: null as string | null,
  pendingMs: 1000,
  validationMs: 200,
  slowValidationMs: 3000,
  latencyMs: 100,
  balancePaise: 10_000_000_000, // ₹10 crore
  narration: 'Sangam Emulator Payout',
  webhookAttempts: 5,
  webhookRetryBaseMs: 500,
  webhookTimeoutMs: 5000,
};

export type RazorpayxSettings = typeof RAZORPAYX_DEFAULTS;

export interface RazorpayxEmulator extends EmulatorHandle<RazorpayxSettings, Faults> {
  setWebhook(t: { url?: string | null; secret?: string }): void;
  payouts(): PayoutRecord[];
  /** Every fund account validation made, oldest first. */
  validations(): Validation[];
  webhookLog(): DeliveryRecord[];
  /** The /v1 requests received, bodies as sent, with the answers given, oldest first. */
  requests(): ReceivedRequest[];
}

export function startRazorpayxEmulator(opts: RazorpayxEmulatorOptions = {}): Promise<RazorpayxEmulator> {
  return startEmulator({
    kind: 'razorpayx',
    defaults: RAZORPAYX_DEFAULTS,
    opts,
    noFaults: NO_FAULTS,
    errors: installErrorHandling,
    build: async ({ app, settings: s, timers, faults, replaceFaults }) => {
      const target = { url: s.webhookUrl, secret: s.webhookSecret };
      const webhooks = new WebhookSender({
        accountId: s.accountId,
        config: () => target,
        faults,
        attempts: s.webhookAttempts,
        retryBaseMs: s.webhookRetryBaseMs,
        timeoutMs: s.webhookTimeoutMs,
        later: timers.later,
      });
      const state = new RazorpayxState({
        accountNumber: s.accountNumber,
        narration: s.narration,
        pendingMs: () => s.pendingMs,
        balancePaise: s.balancePaise,
        later: timers.later,
        onChange: (rec) => {
          // [P] the webhook sample nests the fund account (without its contact) in the payout.
          const entity = withFundAccount(structuredClone(rec.payout), structuredClone(state.fundAccounts.get(rec.payout.fund_account_id)!));
          webhooks.emit(EVENT_FOR[rec.payout.status], entity as { id: string; status: string }, FINAL.has(rec.payout.status));
        },
      });
      const idem = new IdempotencyBook();
      const validations = new ValidationBook({
        validationMs: () => s.validationMs,
        slowValidationMs: () => s.slowValidationMs,
        later: timers.later,
        onFinal: (v) => webhooks.emit(`fund_account.validation.${v.status}`, structuredClone(v), true, 'fund_account.validation'),
      });
      const lookup = { missing: false };
      const received = keepRequests(app, '/v1/');
      const apiDeps = { state, validations, idem, faults, keyId: s.keyId, keySecret: s.keySecret, accountNumber: s.accountNumber, liteAccountNumber: s.liteAccountNumber, lookup, latencyMs: s.latencyMs, sleep: timers.sleep };
      await app.register(async (api) => registerApi(api, apiDeps), { prefix: '/v1' });
      const setWebhook = (t: { url?: string | null; secret?: string }) => void Object.assign(target, t);
      await registerAdmin(app, { state, idem, webhooks, getFaults: faults, setFaults: replaceFaults, webhookTarget: () => ({ ...target }), setWebhookTarget: setWebhook, lookup });
      return {
        handle: { setWebhook, payouts: () => [...state.payouts.values()], validations: () => [...validations.validations.values()], webhookLog: () => webhooks.log, requests: () => [...received] },
        close: () => webhooks.close(),
        persist: razorpayxBooks({ state, idem, validations, pendingMs: () => s.pendingMs, later: timers.later }),
      };
    },
  });
}

/** Every error leaves in RazorpayX's `{error:{…}}` shape; a body that is not JSON is a 400; an empty JSON body is no body
 * (a cancel sent with a JSON content type and nothing else must not fail). */
function installErrorHandling(app: FastifyInstance): void {
  jsonBodies(app, () => badRequest('The request body is not valid JSON.'));
  installErrorShapes(app, {
    known: (err) => (err instanceof RzpError ? { status: err.statusCode, body: err.toJSON() } : undefined),
    client: (err) => badRequest(err.message).toJSON(),
    server: () => serverError(500).toJSON(),
    notFound: () => routeNotFound().toJSON(),
  });
}
