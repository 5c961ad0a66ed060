// Owns the emulated Cashfree Verification API (PARTNERS.md §5.1): the headers every call must carry,
// `POST /verification/mobile/penny-drop` — the only call Cashfree documents for it — and the BAV V2 and UPI
// V2 routes (payee-api.ts). The penny drop has no status call (Cashfree's reference and its Secure ID
// endpoint list show none): a GET on the same path is a route the gateway does not have (index.ts). Handlers stay thin: auth, the fault/latency hook and the `x-request-id`
// echo run first, validate.ts checks the body, state.ts works.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalid, missing, serverError, throttled, unauthenticated } from './errors.js';
import { failAfterAccept, misbehave as misbehaveAs, type CallDeps } from '../common/faults.js';
import type { SyncFaults } from '../sync-faults.js';
import { planFor } from './directory.js';
import type { PennyDropState } from './state.js';
import { registerPayeeApi } from './payee-api.js';
import type { PayeeState } from './payee-state.js';
import { validatePennyDrop } from './validate.js';

export const PENNY_DROP_PATH = '/mobile/penny-drop';

export interface ApiDeps extends CallDeps<SyncFaults> {
  state: PennyDropState;
  payee: PayeeState;
  clientId: string;
  clientSecret: string;
}

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * [P] `x-client-id` + `x-client-secret` (Verification Suite keys) and a required `x-api-version`
 * (YYYY-MM-DD, default 2024-12-01). [G] any well-formed version is accepted; `x-cf-signature` (2FA) is
 * optional and not checked. Credentials are checked before the version, as a gateway would.
 */
function authenticate(req: FastifyRequest, d: ApiDeps): void {
  if (header(req, 'x-client-id') !== d.clientId || header(req, 'x-client-secret') !== d.clientSecret) throw unauthenticated();
  const version = header(req, 'x-api-version');
  if (version === undefined || version === '') throw missing('x-api-version');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(version)) throw invalid('x-api-version_invalid', 'x-api-version should be a date in the format YYYY-MM-DD');
}

async function misbehave(req: FastifyRequest, d: ApiDeps): Promise<void> {
  await misbehaveAs(d.faults(), req.method === 'POST', { throttled, failed: serverError, sleep: d.sleep, latencyMs: d.latencyMs });
}

export async function registerApi(api: FastifyInstance, d: ApiDeps): Promise<void> {
  api.addHook('onRequest', async (req, reply) => {
    // [P] an `x-request-id` sent is echoed back (Cashfree V2 headers); on every answer, errors included.
    const rid = header(req, 'x-request-id');
    if (rid !== undefined) reply.header('x-request-id', rid);
    authenticate(req, d);
  });
  api.addHook('preHandler', async (req) => misbehave(req, d));

  api.post(PENNY_DROP_PATH, async (req) => {
    const input = validatePennyDrop(req.body);
    const plan = planFor(input.mobile_number);
    if (plan.kind === 'error') throw serverError(500);
    const rec = d.state.create(input, plan);
    if (failAfterAccept(d.faults())) throw serverError(d.faults().error_status);
    return rec.view;
  });
  await registerPayeeApi(api, d);
}
