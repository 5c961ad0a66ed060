// Owns the emulated Bank Account Verification V2 and UPI Verification V2 routes, as Cashfree's OpenAPI has
// them (docs/partners/cashfree-verification/openapi-VRS.subset.json): POST /bank-account/sync, POST
// /bank-account/async, GET /bank-account (by reference_id or user_id), POST /upi, GET /upi (by
// verification_id or reference_id). Every refusal is one the document shows, with its own code and message
// (`{type: "validation_error", code, message}`); authentication, faults and latency run first (api.ts's
// hooks), and a POST that did its work can still answer a 5xx (error_after_accept_next).
import type { FastifyInstance } from 'fastify';
import { failAfterAccept } from '../common/faults.js';
import type { SyncFaults } from '../sync-faults.js';
import { serverError, VrsError } from './errors.js';
import { bavPlanFor, type PayeeState } from './payee-state.js';

export interface PayeeApiDeps {
  payee: PayeeState;
  faults: () => SyncFaults;
}

/** [P] the documented validation error shape of these calls. */
const refused = (status: number, code: string, message: string): VrsError => new VrsError(status, { type: 'validation_error', code, message });

type Body = Record<string, unknown>;
const objectBody = (b: unknown): Body => {
  if (typeof b !== 'object' || b === null || Array.isArray(b)) throw refused(400, 'invalid_request', 'Bad request, please check API documentation');
  return b as Body;
};
const given = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

/** [P] 400SyncBAVV2 / 400AsyncBAVV2: bank_account, ifsc, name, phone, user_id, in the document's words. */
function validateBav(b: Body, async: boolean): { bank_account: string; ifsc: string; user_id: string | null } {
  if (!given(b.bank_account)) throw refused(400, 'bank_account_missing', 'bank_account is missing in the request.');
  if (typeof b.bank_account !== 'string' || !/^[A-Za-z0-9]+$/.test(b.bank_account)) throw refused(400, 'bank_account_value_invalid', 'bank_account should be alphanumeric.');
  if (b.bank_account.length > 40) throw refused(400, 'bank_account_length_exceeded', 'bank_account can include a maximum of 40 characters.');
  if (b.bank_account.length < 6) throw refused(400, 'bank_account_length_short', 'bank_account should include a minimum of 6 characters.');
  if (!given(b.ifsc)) throw refused(400, 'ifsc_missing', 'ifsc is missing in the request.');
  if (typeof b.ifsc !== 'string' || !/^[A-Z]{4}0[A-Z0-9]{6}$/.test(b.ifsc)) throw refused(400, 'ifsc_value_invalid', 'ifsc should be of 11 characters and 5th character should be 0.');
  if (given(b.name)) {
    if (typeof b.name !== 'string' || !/^[A-Za-z0-9 ./&-]+$/.test(b.name)) throw refused(400, 'name_value_invalid', 'name should not include special characters.');
    if (b.name.length > 100) throw refused(400, 'name_length_exceeded', 'name can include a maximum of 100 characters.');
  }
  if (given(b.phone)) {
    if (typeof b.phone !== 'string' || !/^[0-9]+$/.test(b.phone)) throw refused(400, 'phone_value_invalid', 'phone should be numeric.');
    if (b.phone.length > 13) throw refused(400, 'phone_length_exceeded', 'phone can include a maximum of 13 characters.');
    if (b.phone.length < 8) throw refused(400, 'phone_length_short', 'phone should include a minimum of 8 characters.');
  }
  let user_id: string | null = null;
  if (async && given(b.user_id)) {
    if (typeof b.user_id !== 'string' || !/^[A-Za-z0-9_]+$/.test(b.user_id)) throw refused(400, 'user_id_value_invalid', 'user_id should contain only alphanumeric and underscore characters.');
    if (b.user_id.length > 40) throw refused(400, 'user_id_length_exceeded', 'user_id can include a maximum of 40 characters.');
    user_id = b.user_id;
  }
  return { bank_account: b.bank_account, ifsc: b.ifsc, user_id };
}

/** [P] 400UPIv2: verification_id, vpa, name. */
function validateUpi(b: Body): { verification_id: string; vpa: string } {
  if (!given(b.verification_id)) throw refused(400, 'verification_id_missing', 'verification_id is missing in the request.');
  if (typeof b.verification_id !== 'string' || !/^[A-Za-z0-9._-]+$/.test(b.verification_id)) {
    throw refused(400, 'verification_id_value_invalid', 'verification_id can include only alphanum, dot, hyphen, and underscores.');
  }
  if (b.verification_id.length > 50) throw refused(400, 'verification_id_length_exceeded', 'verification_id can include a maximum of 50 characters.');
  if (!given(b.vpa)) throw refused(400, 'vpa_missing', 'vpa is missing in the request.');
  if (typeof b.vpa !== 'string' || !/^[A-Za-z0-9._-]+@[A-Za-z0-9._-]+$/.test(b.vpa)) throw refused(400, 'vpa_value_invalid', 'vpa should be valid.');
  if (given(b.name)) {
    if (typeof b.name !== 'string' || !/^[A-Za-z0-9 .-]+$/.test(b.name)) throw refused(400, 'name_value_invalid', 'name should only contains alphanumeric, space, dot and hyphen.');
    if (b.name.length > 100) throw refused(400, 'name_length_exceeded', 'Name can include a maximum of 100 characters.');
  }
  return { verification_id: b.verification_id, vpa: b.vpa };
}

function afterWork(d: PayeeApiDeps): void {
  if (failAfterAccept(d.faults())) throw serverError(d.faults().error_status);
}

function bavCreate(d: PayeeApiDeps, body: unknown, mode: 'sync' | 'async') {
  const input = validateBav(objectBody(body), mode === 'async');
  if (input.user_id !== null && d.payee.bavByUserId(input.user_id)) throw refused(400, 'user_id_already_exists', 'user_id already exists.');
  const plan = bavPlanFor(input.bank_account, input.ifsc);
  if (plan.kind === 'error') throw serverError(500);
  if (plan.kind === 'bank422') {
    const reference_id = d.payee.takeReference();
    afterWork(d);
    throw new VrsError(422, { type: 'validation_error', code: plan.code, message: plan.message, error: { reference_id } });
  }
  const rec = d.payee.createBav({ ...input, mode }, plan);
  afterWork(d);
  if (mode === 'sync') return rec.view;
  const { reference_id, user_id, account_status, account_status_code } = rec.view;
  return { reference_id, ...(user_id !== undefined ? { user_id } : {}), account_status, account_status_code };
}

export async function registerPayeeApi(api: FastifyInstance, d: PayeeApiDeps): Promise<void> {
  api.post('/bank-account/sync', async (req) => bavCreate(d, req.body, 'sync'));
  api.post('/bank-account/async', async (req) => bavCreate(d, req.body, 'async'));

  api.get('/bank-account', async (req) => {
    const q = req.query as Record<string, string | undefined>;
    if (!given(q.reference_id) && !given(q.user_id)) throw refused(400, 'invalid_request', 'Please provide reference_id or user_id');
    if (given(q.reference_id)) {
      if (!/^\d+$/.test(q.reference_id!)) throw refused(400, 'reference_id_value_invalid', 'reference_id should be a number.');
      const rec = d.payee.bavByRef.get(Number(q.reference_id));
      if (!rec) throw refused(404, 'reference_id_not_found', 'reference_id does not exist.');
      return rec.view;
    }
    if (!/^[A-Za-z0-9_]+$/.test(q.user_id!)) throw refused(400, 'user_id_value_invalid', 'user_id should contain only alphanumeric and underscore characters.');
    const rec = d.payee.bavByUserId(q.user_id!);
    if (!rec) throw refused(404, 'user_id_not_found', 'user_id does not exist.');
    return rec.view;
  });

  api.post('/upi', async (req) => {
    const input = validateUpi(objectBody(req.body));
    const seen = d.payee.upiById.get(input.verification_id);
    if (seen) {
      seen.requests++;
      throw refused(409, 'verification_id_already_exists', 'verification id already exists');
    }
    const rec = d.payee.createUpi(input.verification_id, input.vpa);
    afterWork(d);
    return rec.view;
  });

  api.get('/upi', async (req) => {
    const q = req.query as Record<string, string | undefined>;
    if (!given(q.verification_id) && !given(q.reference_id)) throw refused(400, 'invalid_request', 'provide verification_id or reference_id');
    if (given(q.verification_id)) {
      if (!/^[A-Za-z0-9._-]+$/.test(q.verification_id!)) throw refused(400, 'verification_id_value_invalid', 'verification_id can include only alphanum, dot, hyphen, and underscores.');
      const rec = d.payee.upiById.get(q.verification_id!);
      if (!rec) throw refused(404, 'verification_id_not_found', 'verification_id does not exist.');
      return rec.view;
    }
    if (!/^\d+$/.test(q.reference_id!)) throw refused(400, 'reference_id_value_invalid', 'Bad request, please check API documentation');
    const rec = d.payee.upiByRef(Number(q.reference_id));
    if (!rec) throw refused(404, 'reference_id_not_found', 'reference_id does not exist.');
    return rec.view;
  });
}
