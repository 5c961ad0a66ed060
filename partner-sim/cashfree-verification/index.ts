// Owns the Cashfree Verification API emulator (`sangam partner-sim --kind cashfree-verification`): a
// Fastify server speaking Cashfree's Verification API as PARTNERS.md §5.1 and Cashfree's OpenAPI document
// it — header auth, `POST /verification/mobile/penny-drop` answering the account linked to a mobile number
// with real IFSC codes, Bank Account Verification V2 (sync, async, status) and UPI Verification V2 (and its
// status) (payee-api.ts), Cashfree's `{type, code, message}` errors — and misbehaviour on demand
// (/_sim/faults). No status call for the penny drop and no webhooks (none documented). Every request body is kept as sent (`requests()`), so tests can
// hold what a connector really sends against the partner's document. With a data dir its books survive a restart (books.ts).
import type { PersistOptions } from '../common/persist.js';
import { pennyDropBooks } from './books.js';
import type { FastifyInstance } from 'fastify';
import { type EmulatorHandle, installErrorShapes, jsonBodies, keepRequests, type ReceivedRequest, startEmulator } from '../common/server.js';
import { NO_SYNC_FAULTS, type SyncFaults } from '../sync-faults.js';
import { registerAdmin } from './admin.js';
import { registerApi } from './api.js';
import { CfError } from '../cashfree-payouts/errors.js';
import { invalid, routeNotFound, serverError } from './errors.js';
import { PennyDropState, type PennyDropRecord } from './state.js';
import { PayeeState } from './payee-state.js';

export interface CashfreeVerificationEmulatorOptions extends PersistOptions {
  port?: number;
  host?: string;
  /** The Verification Suite keys the emulator accepts (`x-client-id`, `x-client-secret`). */
  clientId?: string;
  clientSecret?: string;
  /** How long a pending penny drop (magic 9000000002 / 9000000003), BAV check (RECEIVED) or UPI check stays pending. */
  pendingMs?: number;
  /** Added to every API call. */
  latencyMs?: number;
}

export const CASHFREE_VERIFICATION_DEFAULTS = {
  port: 0,
  host: '127.0.0.1',
  clientId: 'CF_TEST_SANGAM_EMULATOR',
  clientSecret: 'cfsk_ma_test_sangam_emulator_secret',
  pendingMs: 3000,
  latencyMs: 200,
};

export type CashfreeVerificationSettings = typeof CASHFREE_VERIFICATION_DEFAULTS;

/** [P] the API version the docs give as the default. */
export const CASHFREE_VERIFICATION_API_VERSION = '2024-12-01';

export interface CashfreeVerificationEmulator extends EmulatorHandle<CashfreeVerificationSettings, SyncFaults> {
  /** The API base, like `https://sandbox.cashfree.com/verification`: the penny drop is `${url}/mobile/penny-drop`. */
  url: string;
  origin: string;
  verifications(): PennyDropRecord[];
  /** The API requests received, bodies as sent (parsed JSON), oldest first. */
  requests(): ReceivedRequest[];
}

export function startCashfreeVerificationEmulator(opts: CashfreeVerificationEmulatorOptions = {}): Promise<CashfreeVerificationEmulator> {
  return startEmulator({
    kind: 'cashfree-verification',
    defaults: CASHFREE_VERIFICATION_DEFAULTS,
    opts,
    noFaults: NO_SYNC_FAULTS,
    errors: installErrorHandling,
    build: async ({ app, settings: s, timers, faults, replaceFaults }) => {
      const state = new PennyDropState({ pendingMs: () => s.pendingMs, later: timers.later });
      const payee = new PayeeState({ pendingMs: () => s.pendingMs, later: timers.later });
      const apiDeps = { state, payee, faults, clientId: s.clientId, clientSecret: s.clientSecret, latencyMs: s.latencyMs, sleep: timers.sleep };
      const received = keepRequests(app, '/verification/');
      await app.register(async (api) => registerApi(api, apiDeps), { prefix: '/verification' });
      await registerAdmin(app, { state, payee, getFaults: faults, setFaults: replaceFaults });
      const persist = pennyDropBooks(state, payee, { pendingMs: () => s.pendingMs, later: timers.later });
      return { handle: { verifications: () => [...state.byId.values()], requests: () => [...received] }, basePath: '/verification', persist };
    },
  });
}

/** Every error leaves in Cashfree's `{type, code, message}` shape; a body that is not JSON is a 400 [G]. */
function installErrorHandling(app: FastifyInstance): void {
  // JSON only: Fastify's default text/plain parser goes too, so any other body is a 415.
  app.removeContentTypeParser('text/plain');
  jsonBodies(app, () => invalid('request_invalid', 'request body is not valid JSON'), false);
  installErrorShapes(app, {
    known: (err) => (err instanceof CfError ? { status: err.statusCode, body: err.toJSON() } : undefined),
    // [G] Cashfree's 415/413 bodies are not documented; keep the status, answer in its shape.
    client: (err) =>
      err.statusCode === 415 ? invalid('content_type_invalid', 'Content-Type should be application/json').toJSON() : invalid('request_invalid', err.message).toJSON(),
    server: () => serverError(500).toJSON(),
    notFound: () => routeNotFound().toJSON(),
  });
}
