// Owns the emulated Setu BBPS BillPay v2 API as far as DTH needs it, in the shapes of Setu's own OpenAPI
// (docs/partners/setu-dth/; every answer is schema-tested in test/setu-dth-schema.test.ts): the token
// (`POST /api/v2/auth/token`), and behind `Authorization: Bearer` + `X-PARTNER-ID` the biller list, plans,
// the asynchronous bill fetch (validation) and payment, each a request answering a `refId` and a response
// endpoint to poll. Handlers stay thin: auth and the fault/latency hook first, validate.ts, then state.ts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BILLERS, billerById, plansFor, planView } from './billers.js';
import { badCredentials, badPartnerId, GATEWAY_NOT_FOUND, invalidParams, notFound, serverError, unauthorized, wrongPartnerId } from './errors.js';
import { failAfterAccept, misbehave } from '../common/faults.js';
import { bearer } from '../setu-recharge/tokens.js';
import type { SetuApiDeps } from '../setu-recharge/api.js';
import { rupees } from '../setu-recharge/webhooks.js';
import type { BbpsState, FetchRecord } from './state.js';
import { validateFetch, validatePayment, validateRefId } from './validate.js';

export interface ApiDeps extends SetuApiDeps {
  state: BbpsState;
  partnerId: number;
  /** Test control: payment/response answers as a route the gateway does not have (the conformance "unknown answer"). */
  lookup: { missing: boolean };
}

const ok = (req: FastifyRequest, data: unknown) => ({ success: true, data, traceId: req.id });

/**
 * [P] the fetch (validation) answer. A validation biller answers `bills: []` with the subscriber at data
 * level (quickstart.mdx §4.1: customerName, dueDate); additionalInfo is data-level in the OpenAPI. The
 * additionalInfo names (Current Plan, Account Balance, Next Recharge Date, Account Status) are [G].
 */
export function fetchView(rec: FetchRecord): Record<string, unknown> {
  const s = rec.subscriber;
  if (rec.status === 'Processing') return { refId: rec.refId, status: rec.status };
  if (rec.status === 'Failure') return { refId: rec.refId, status: rec.status, ...(rec.error ? { failureReason: { ...rec.error, type: 'BBPS' } } : {}) };
  return {
    refId: rec.refId,
    status: rec.status,
    exactness: 'Any',
    billerRefId: rec.billerRefId,
    customerName: s?.customerName ?? null,
    dueDate: s?.nextRechargeDate ?? null,
    additionalInfo: s
      ? [
          { name: 'Current Plan', value: s.plan.name },
          { name: 'Account Balance', value: rupees(s.balancePaise) },
          { name: 'Next Recharge Date', value: s.nextRechargeDate },
          { name: 'Account Status', value: 'Active' },
        ]
      : [],
    bills: [],
  };
}

/**
 * [P] a payment as payment/response answers it (Success | Failure | Processing; a refunded payment still
 * Success there) and, with `webhook`, as the BILL_PAY data (where a refund is Credit_Adjustment).
 */
export function paymentView(rec: FetchRecord, webhook = false): Record<string, unknown> {
  const p = rec.payment!;
  const status = !webhook && p.status === 'Credit_Adjustment' ? 'Success' : p.status;
  const paid = status === 'Success' || status === 'Credit_Adjustment';
  const { mode, paymentRefId, amount, timestamp, accountInfo, planId } = p.input;
  return {
    refId: rec.refId,
    status,
    ...(paid ? { billerRefId: p.billerRefId, transactionId: p.transactionId, additionalInfo: [] } : {}),
    ...(p.failureReason && (status === 'Failure' || status === 'Credit_Adjustment') ? { failureReason: { ...p.failureReason, type: 'BBPS' } } : {}),
    paymentDetails: { mode, paymentRefId, amount, timestamp, accountInfo, ...(planId ? { Id: planId } : {}) },
    billerId: rec.input.biller.id,
  };
}

/** [P] `{"clientID", "secret"}` → `{token, expiresIn, success, traceId}`; [G] the 401 body. */
export async function registerToken(app: FastifyInstance, d: ApiDeps): Promise<void> {
  app.post('/api/v2/auth/token', async (req) => {
    d.calls.token = (d.calls.token ?? 0) + 1;
    const b = req.body as Record<string, unknown> | undefined;
    if (typeof b !== 'object' || b === null || typeof b.clientID !== 'string' || typeof b.secret !== 'string') throw invalidParams('clientID and secret are required');
    if (b.clientID !== d.clientId || b.secret !== d.clientSecret) throw badCredentials();
    if (d.latencyMs > 0) await d.sleep(d.latencyMs);
    return { ...d.tokens.issue(d.clientId, 'bbps'), success: true, traceId: req.id };
  });
}

function authenticate(req: FastifyRequest, d: ApiDeps): void {
  const token = bearer(req.headers.authorization);
  if (!token || !d.tokens.verify(token)) throw unauthorized();
  const pid = req.headers['x-partner-id'];
  if (typeof pid !== 'string' || !/^[0-9]+$/.test(pid)) throw badPartnerId();
  if (Number(pid) !== d.partnerId) throw wrongPartnerId();
}

export async function registerApi(api: FastifyInstance, d: ApiDeps): Promise<void> {
  api.addHook('onRequest', async (req) => authenticate(req, d));
  api.addHook('preHandler', async (req) => {
    const route = req.routeOptions.url ?? '?';
    d.calls[route] = (d.calls[route] ?? 0) + 1;
    await misbehave(d.faults(), route === '/api/v2/bbps/bills/payment/request', { failed: serverError, sleep: d.sleep, latencyMs: d.latencyMs });
  });

  // [P] filter parameter `categoryName`; only DTH billers exist here. One page (no `nextPage`).
  api.get<{ Querystring: { categoryName?: string } }>('/api/v2/bbps/billers', async (req) => {
    const cat = req.query.categoryName;
    const billers = cat === undefined || cat === 'DTH' ? BILLERS : [];
    return ok(req, { billers, total: billers.length });
  });
  // [P] plan-mdm-integration.mdx §4.2.1: `?billerIds=` (comma-separated [G]) → data{plans, total}.
  api.get<{ Querystring: { billerIds?: string } }>('/api/v2/bbps/billers/plans', async (req) => {
    const ids = req.query.billerIds?.split(',').filter(Boolean) ?? [];
    if (!ids.length) throw invalidParams('billerIds is required');
    const plans = ids.flatMap((id) => {
      const b = billerById(id);
      if (!b) throw notFound('biller', id);
      return plansFor(b).map((p) => planView(b, p));
    });
    return ok(req, { plans, total: plans.length });
  });

  api.post('/api/v2/bbps/bills/fetch/request', async (req) => ok(req, { refId: d.state.fetch(validateFetch(req.body), req.id).refId }));
  api.post('/api/v2/bbps/bills/fetch/response', async (req) => ok(req, fetchView(d.state.get(validateRefId(req.body)))));

  api.post('/api/v2/bbps/bills/payment/request', async (req) => {
    const rec = d.state.pay(validatePayment(req.body));
    if (failAfterAccept(d.faults())) throw serverError(d.faults().error_status);
    return ok(req, { refId: rec.refId });
  });
  api.post('/api/v2/bbps/bills/payment/response', async (req, reply) => {
    if (d.lookup.missing) return reply.code(GATEWAY_NOT_FOUND.status).send(GATEWAY_NOT_FOUND.body);
    const rec = d.state.get(validateRefId(req.body));
    if (!rec.payment) throw notFound('payment', rec.refId);
    return ok(req, paymentView(rec));
  });
}
