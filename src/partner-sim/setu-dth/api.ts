// Owns the emulated Setu BBPS BillPay v2 API (PARTNERS.md §4.7) as far as DTH needs it: the token
// (`POST /api/v2/auth/token`), and behind `Authorization: Bearer` + `X-PARTNER-ID` the biller list, plans,
// the asynchronous bill fetch (validation) and payment, each a request answering a `refId` and a response
// endpoint to poll. Handlers stay thin: auth and the fault/latency hook first, validate.ts, then state.ts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BILLERS, billerById, plansFor } from './billers.js';
import { badCredentials, badPartnerId, invalidParams, notFound, serverError, unauthorized, wrongPartnerId } from './errors.js';
import { failAfterAccept, misbehave } from '../common/faults.js';
import { bearer } from '../setu-recharge/tokens.js';
import type { SetuApiDeps } from '../setu-recharge/api.js';
import { rupees } from '../setu-recharge/webhooks.js';
import type { BbpsState, FetchRecord } from './state.js';
import { validateFetch, validatePayment, validateRefId } from './validate.js';

export interface ApiDeps extends SetuApiDeps {
  state: BbpsState;
  partnerId: number;
}

const ok = (req: FastifyRequest, data: unknown) => ({ success: true, data, traceId: req.id });

/** [G] the fetch (validation) answer: the subscriber's current pack, balance and next recharge date. */
export function fetchView(rec: FetchRecord): Record<string, unknown> {
  const s = rec.subscriber;
  return {
    refId: rec.refId,
    status: rec.status,
    billerId: rec.input.biller.id,
    customer: { mobile: rec.input.customerMobile, billParameters: rec.input.billParameters },
    bills: s
      ? [
          {
            amount: s.plan.amount,
            customerName: s.customerName,
            dueDate: s.nextRechargeDate,
            planId: s.plan.id,
            additionalInfo: [
              { name: 'Current Plan', value: s.plan.name },
              { name: 'Account Balance', value: rupees(s.balancePaise) },
              { name: 'Next Recharge Date', value: s.nextRechargeDate },
              { name: 'Account Status', value: 'Active' },
            ],
          },
        ]
      : [],
    ...(rec.error ? { failureReason: rec.error } : {}),
  };
}

/** [P] the BILL_PAY data: refId, status, billerRefId, transactionId, failureReason?, paymentDetails, billerId. */
export function paymentView(rec: FetchRecord): Record<string, unknown> {
  const p = rec.payment!;
  return {
    refId: rec.refId,
    status: p.status,
    billerRefId: p.billerRefId,
    transactionId: p.transactionId,
    ...(p.failureReason ? { failureReason: p.failureReason } : {}),
    paymentDetails: { mode: p.input.mode, paymentRefId: p.input.paymentRefId, amount: p.input.amount, timestamp: p.input.timestamp },
    billerId: rec.input.biller.id,
  };
}

/** [P] `{"clientID", "secret"}` → `{token, expiresIn}`; [G] the 401 body. */
export async function registerToken(app: FastifyInstance, d: ApiDeps): Promise<void> {
  app.post('/api/v2/auth/token', async (req) => {
    d.calls.token = (d.calls.token ?? 0) + 1;
    const b = req.body as Record<string, unknown> | undefined;
    if (typeof b !== 'object' || b === null || typeof b.clientID !== 'string' || typeof b.secret !== 'string') throw invalidParams('clientID and secret are required');
    if (b.clientID !== d.clientId || b.secret !== d.clientSecret) throw badCredentials();
    if (d.latencyMs > 0) await d.sleep(d.latencyMs);
    return d.tokens.issue(d.clientId, 'bbps');
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

  // [G] filter parameter `categoryName`; only DTH billers exist here.
  api.get<{ Querystring: { categoryName?: string } }>('/api/v2/bbps/billers', async (req) => {
    const cat = req.query.categoryName;
    return ok(req, { billers: cat === undefined || cat === 'DTH' ? BILLERS : [] });
  });
  api.get<{ Querystring: { billerId?: string } }>('/api/v2/bbps/billers/plans', async (req) => {
    const id = req.query.billerId;
    if (!id) throw invalidParams('billerId is required');
    const b = billerById(id);
    if (!b) throw notFound('biller', id);
    return ok(req, { billerId: b.id, plans: plansFor(b) });
  });

  api.post('/api/v2/bbps/bills/fetch/request', async (req) => ok(req, { refId: d.state.fetch(validateFetch(req.body), req.id).refId }));
  api.post('/api/v2/bbps/bills/fetch/response', async (req) => ok(req, fetchView(d.state.get(validateRefId(req.body)))));

  api.post('/api/v2/bbps/bills/payment/request', async (req) => {
    const rec = d.state.pay(validatePayment(req.body));
    if (failAfterAccept(d.faults())) throw serverError(d.faults().error_status);
    return ok(req, { refId: rec.refId });
  });
  api.post('/api/v2/bbps/bills/payment/response', async (req) => {
    const rec = d.state.get(validateRefId(req.body));
    if (!rec.payment) throw notFound('payment', rec.refId);
    return ok(req, paymentView(rec));
  });
}
