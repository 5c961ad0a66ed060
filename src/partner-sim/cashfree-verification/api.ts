// Owns the emulated Cashfree Verification API (PARTNERS.md §5.1): the headers every call must carry,
// `POST /verification/mobile/penny-drop` and the status call beside it. Handlers stay thin: auth, the
// fault/latency hook and the `x-request-id` echo run first, validate.ts checks the body, state.ts works.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalid, missing, serverError, throttled, unauthenticated } from './errors.js';
import { failAfterAccept, misbehave as misbehaveAs, type CallDeps } from '../common/faults.js';
import type { SyncFaults } from '../sync-faults.js';
import { planFor } from './directory.js';
import type { PennyDropState } from './state.js';
import { validatePennyDrop, VERIFICATION_ID } from './validate.js';

export const PENNY_DROP_PATH = '/mobile/penny-drop';

export interface ApiDeps extends CallDeps<SyncFaults> {
  state: PennyDropState;
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

/** [G] the status call: `?verification_id=` or `?reference_id=`, as Cashfree's other status calls take their ids. */
function statusQuery(q: Record<string, string | undefined>): { verification_id?: string; reference_id?: number } {
  if (q.verification_id !== undefined) {
    if (!VERIFICATION_ID.test(q.verification_id)) throw invalid('verification_id_invalid', 'verification_id is invalid');
    return { verification_id: q.verification_id };
  }
  if (q.reference_id !== undefined) {
    if (!/^[1-9][0-9]{0,15}$/.test(q.reference_id)) throw invalid('reference_id_invalid', 'reference_id should be a number');
    return { reference_id: Number(q.reference_id) };
  }
  throw missing('verification_id');
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
  api.get<{ Querystring: Record<string, string | undefined> }>(PENNY_DROP_PATH, async (req) => d.state.find(statusQuery(req.query)).view);
}
