// Owns the emulated Setu Prepaid Recharge API (PARTNERS.md §4.1–4.2): the token endpoint
// (`POST /v1/users/login`, which upstream lives on accountservice.setu.co) and, behind
// `Authorization: Bearer` + `X-PRODUCT-INSTANCE-ID`, fetch-operator-details, fetch-plans, recharge
// validate/request/status and the wallet balance. Handlers stay thin: auth and the fault/latency hook run
// first, validate.ts checks the body, state.ts does the work.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isSpecial, lookup, plansFor } from './catalogue.js';
import { badTokenRequest, GATEWAY_NOT_FOUND, invalidInstance, notAuthenticated, serverError } from './errors.js';
import { failAfterAccept, misbehave, type CallDeps } from '../common/faults.js';
import type { Faults } from './faults.js';
import { amountError } from './outcomes.js';
import type { RechargeRecord, RechargeState } from './state.js';
import { bearer, type TokenIssuer } from './tokens.js';
import { validateCustomer, validateRecharge, validateStatus, validateValidate, RECHARGE_PARAMS } from './validate.js';

/** What both Setu emulators' API handlers are given: the call faults, their token issuer, credentials and call counts. */
export interface SetuApiDeps extends CallDeps<Faults> {
  tokens: TokenIssuer;
  clientId: string;
  clientSecret: string;
  /** Counts the token requests and API calls served, for /_sim/calls. */
  calls: Record<string, number>;
}

export interface ApiDeps extends SetuApiDeps {
  state: RechargeState;
  productInstanceId: string;
  /** /recharge/status answered as a route the gateway does not have (POST /_sim/lookup). */
  lookup: { missing: boolean };
}

const ok = (req: FastifyRequest, data: unknown) => ({ success: true, data, trace_id: req.id });

/**
 * [P] the data of /recharge/request and /recharge/status. Setu's OpenAPI types `error` as `object|null` in
 * the request's answer and as `string|null` in the status answer: the status answer carries the message.
 */
export function rechargeView(rec: RechargeRecord, of: 'request' | 'status' = 'request'): Record<string, unknown> {
  return {
    error: of === 'status' && rec.error ? rec.error.message : rec.error,
    details: { mobile_number: rec.input.mobile, provider: rec.input.operator, service_type: 'M', is_postpaid: false, is_special: rec.isSpecial },
    amount: rec.input.amount,
    transactionRefId: rec.transactionRefId,
    status: rec.status,
    // Setu's OpenAPI types operatorRefId as a string (never null): absent until the operator gives one.
    ...(rec.operatorRefId ? { operatorRefId: rec.operatorRefId } : {}),
  };
}

/** [P] `{"ClientID", "Secret", "grant_type": "client_credentials"}` → `{access_token, refresh_token: ""}`; wrong credentials 401. */
export async function registerLogin(app: FastifyInstance, d: ApiDeps): Promise<void> {
  app.post('/v1/users/login', async (req) => {
    d.calls.login = (d.calls.login ?? 0) + 1;
    const b = req.body as Record<string, unknown> | undefined;
    if (typeof b !== 'object' || b === null) throw badTokenRequest('Request body must be a JSON object with ClientID, Secret and grant_type');
    const missing = ['ClientID', 'Secret', 'grant_type'].filter((k) => typeof b[k] !== 'string' || b[k] === '');
    if (missing.length) throw badTokenRequest(`Missing required fields: ${missing.join(', ')}`);
    if (b.grant_type !== 'client_credentials') throw badTokenRequest('grant_type must be client_credentials');
    if (b.ClientID !== d.clientId || b.Secret !== d.clientSecret) throw notAuthenticated();
    if (d.latencyMs > 0) await d.sleep(d.latencyMs);
    // [P] refresh tokens are "currently not used"; the spec names the scope cou:wl_partner.
    return { access_token: d.tokens.issue(d.clientId, 'cou:wl_partner').token, refresh_token: '' };
  });
}

function authenticate(req: FastifyRequest, d: ApiDeps): void {
  const token = bearer(req.headers.authorization);
  if (!token || !d.tokens.verify(token)) throw notAuthenticated();
  // [P] ERR009 invalid-instance-id is the documented answer for a wrong instance id (under HTTP 500 on
  // /recharge/request, as its OpenAPI example shows; 422 elsewhere); [G] also for a missing one.
  if (req.headers['x-product-instance-id'] !== d.productInstanceId) throw invalidInstance(req.url.split('?')[0] === '/recharge/request' ? 500 : 422);
}

export async function registerApi(api: FastifyInstance, d: ApiDeps): Promise<void> {
  api.addHook('onRequest', async (req) => authenticate(req, d));
  api.addHook('preHandler', async (req) => {
    d.calls[req.routeOptions.url ?? '?'] = (d.calls[req.routeOptions.url ?? '?'] ?? 0) + 1;
    await misbehave(d.faults(), req.routeOptions.url === '/recharge/request', { failed: serverError, sleep: d.sleep, latencyMs: d.latencyMs });
  });

  api.post('/fetch-operator-details', async (req) => ok(req, lookup(validateCustomer(req.body, ['Mobile Number']).mobile)));

  api.post('/fetch-plans', async (req) => {
    const c = validateCustomer(req.body, RECHARGE_PARAMS);
    return ok(req, plansFor(c.operator!, c.location!));
  });

  // [P] `success: true` even when validation fails; [G] ValidationRefNo's form.
  api.post('/recharge/validate', async (req) => {
    const v = validateValidate(req.body);
    const error = amountError(v.amount);
    return ok(req, {
      error,
      details: { mobile_number: v.mobile, provider: v.operator, service_type: 'M', is_special: isSpecial(v.operator!, v.location!, v.amount) },
      amount: v.amount,
      ValidationRefNo: `VAL${Date.now()}${Math.floor(Math.random() * 1000).toString().padStart(3, '0')}`,
      status: error ? 'Validation Failed' : 'Validation Successful',
    });
  });

  api.post('/recharge/request', async (req) => {
    const input = validateRecharge(req.body);
    d.state.claim(input.paymentRefId);
    const rec = d.state.create(input, req.id);
    if (failAfterAccept(d.faults())) throw serverError(d.faults().error_status);
    return ok(req, rechargeView(rec));
  });

  api.post('/recharge/status', async (req, reply) => {
    if (d.lookup.missing) return reply.code(GATEWAY_NOT_FOUND.status).send(GATEWAY_NOT_FOUND.body);
    return ok(req, rechargeView(d.state.get(validateStatus(req.body)), 'status'));
  });

  // [P] balance in rupees as a number (e.g. 1500.75); [G] the emulator always serves it (UAT answers balance-api-unavailable-in-uat).
  api.get('/wallet/balance', async (req) => ok(req, { balance: d.state.wallet / 100, currency: 'INR' }));
}
