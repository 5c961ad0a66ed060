// Owns the Cashfree Mobile Penny Drop emulator (`sangam partner-sim --kind cashfree-verification`): a
// Fastify server speaking Cashfree's Verification API as PARTNERS.md §5.1 documents it — header auth,
// `POST /verification/mobile/penny-drop` answering the account linked to a mobile number with real IFSC
// codes, Cashfree's `{type, code, message}` errors — plus a status call, and misbehaviour on demand
// (/_sim/faults). Synchronous, no webhooks (none documented). Everything lives in memory.
import Fastify, { type FastifyInstance } from 'fastify';
import { definedOnly, NO_SYNC_FAULTS, Timers, type SyncFaults } from '../sync-faults.js';
import { registerAdmin } from './admin.js';
import { registerApi } from './api.js';
import { CfError, invalid, routeNotFound, serverError } from './errors.js';
import { PennyDropState, type PennyDropRecord } from './state.js';

export interface CashfreeVerificationEmulatorOptions {
  port?: number;
  host?: string;
  /** The Verification Suite keys the emulator accepts (`x-client-id`, `x-client-secret`). */
  clientId?: string;
  clientSecret?: string;
  /** How long a pending penny drop (magic 9000000002 / 9000000003) stays PENDING. */
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

export interface CashfreeVerificationEmulator {
  app: FastifyInstance;
  /** The API base, like `https://sandbox.cashfree.com/verification`: the penny drop is `${url}/mobile/penny-drop`. */
  url: string;
  origin: string;
  settings: CashfreeVerificationSettings;
  /** Replaces the fault set (fields left out reset), as POST /_sim/faults does. */
  setFaults(f: Partial<SyncFaults>): void;
  verifications(): PennyDropRecord[];
  close(): Promise<void>;
}

export async function startCashfreeVerificationEmulator(opts: CashfreeVerificationEmulatorOptions = {}): Promise<CashfreeVerificationEmulator> {
  const s: CashfreeVerificationSettings = { ...CASHFREE_VERIFICATION_DEFAULTS, ...definedOnly(opts) };
  const app = Fastify({ logger: false, forceCloseConnections: true });
  const timers = new Timers();
  let faults: SyncFaults = { ...NO_SYNC_FAULTS };
  const state = new PennyDropState({ pendingMs: () => s.pendingMs, later: (ms, fn) => timers.later(ms, fn) });

  installErrorHandling(app);
  await app.register(
    async (api) =>
      registerApi(api, {
        state,
        faults: () => faults,
        clientId: s.clientId,
        clientSecret: s.clientSecret,
        latencyMs: s.latencyMs,
        sleep: (ms) => timers.sleep(ms),
      }),
    { prefix: '/verification' },
  );
  await registerAdmin(app, { state, getFaults: () => faults, setFaults: (f) => void (faults = f) });

  const origin = await app.listen({ port: s.port, host: s.host });
  return {
    app,
    url: `${origin}/verification`,
    origin,
    settings: { ...s, port: Number(new URL(origin).port) },
    setFaults: (f) => void (faults = { ...NO_SYNC_FAULTS, ...f }),
    verifications: () => [...state.byId.values()],
    async close() {
      timers.clear();
      await app.close();
    },
  };
}

/** Every error leaves in Cashfree's `{type, code, message}` shape; a body that is not JSON is a 400 [G]. */
function installErrorHandling(app: FastifyInstance): void {
  // JSON only: Fastify's default text/plain parser goes too, so any other body is a 415.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(invalid('request_invalid', 'request body is not valid JSON'), undefined);
    }
  });
  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, _req, reply) => {
    if (err instanceof CfError) return reply.code(err.statusCode).send(err.toJSON());
    // [G] Cashfree's 415/413 bodies are not documented; keep the status, answer in its shape.
    if (err.statusCode === 415) return reply.code(415).send(invalid('content_type_invalid', 'Content-Type should be application/json').toJSON());
    if (err.statusCode && err.statusCode < 500) return reply.code(err.statusCode).send(invalid('request_invalid', err.message).toJSON());
    return reply.code(500).send(serverError(500).toJSON());
  });
  app.setNotFoundHandler((_req, reply) => reply.code(404).send(routeNotFound().toJSON()));
}
