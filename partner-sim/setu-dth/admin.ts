// Owns the BBPS emulator's test-control surface under /_sim (not part of Setu): faults, the ledger of every
// fetch and payment with the payment requests seen per paymentRefId (to prove "never paid twice"), the
// webhook log, forced payment transitions, the webhook URL, token expiry, call counters, and a switch that
// makes payment/response answer like a route the gateway does not have (POST /_sim/lookup).
import type { FastifyInstance } from 'fastify';
import { registerSettle, registerWebhookLog, registerWebhookUrl } from '../common/admin.js';
import { registerTokenAdmin, type SetuAdminDeps } from '../setu-recharge/admin.js';
import { registerFaultRoutes } from '../common/faults.js';
import { parseFaults } from '../setu-recharge/faults.js';
import { BILLERS } from './billers.js';
import { FORCEABLE, MAGIC_SUFFIXES, type BbpsState, type FetchRecord } from './state.js';

export interface AdminDeps extends SetuAdminDeps {
  state: BbpsState;
  webhookUrl: () => string | null;
  setWebhookUrl: (url: string | null) => void;
  lookup: { missing: boolean };
}

function row(r: FetchRecord) {
  const p = r.payment;
  return {
    refId: r.refId,
    billerId: r.input.biller.id,
    subscriber: r.input.subscriber,
    plan: r.plan,
    fetch_status: r.status,
    payment: p && { paymentRefId: p.input.paymentRefId, amount: p.input.amount, mode: p.input.mode, status: p.status, transactionId: p.transactionId, billerRefId: p.billerRefId, history: p.history },
  };
}

export async function registerAdmin(app: FastifyInstance, d: AdminDeps): Promise<void> {
  registerFaultRoutes(app, d.getFaults, d.setFaults, parseFaults);

  app.get('/_sim/bills', async () => {
    const bills = [...d.state.fetches.values()].map(row);
    const requests: Record<string, { requests: number; payments: number }> = {};
    for (const [ref, n] of d.state.paymentRequests) requests[ref] = { requests: n, payments: d.state.byPaymentRef.has(ref) ? 1 : 0 };
    return { count: bills.length, payments: bills.filter((b) => b.payment).length, bills, requests };
  });
  registerSettle(app, '/_sim/payments/:id/settle', { statuses: Object.keys(FORCEABLE), force: (ref, b: { status: string }) => d.state.force(ref, b.status), unknown: 'unknown payment', view: row });

  registerWebhookLog(app, () => d.webhooks.log);
  registerWebhookUrl(app, d.webhookUrl, d.setWebhookUrl);

  registerTokenAdmin(app, d.tokens, d.calls);
  // payment/response answered as a route the gateway does not have (`{"missing": true}`), or as Setu again.
  app.post<{ Body: { missing?: unknown } }>('/_sim/lookup', async (req, reply) => {
    if (typeof req.body?.missing !== 'boolean') return reply.code(400).send({ error: 'missing must be a boolean' });
    d.lookup.missing = req.body.missing;
    return { missing: d.lookup.missing };
  });
  app.get('/_sim/catalogue', async () => ({ billers: BILLERS.map((b) => ({ id: b.id, name: b.name, param: b.customerParams[0] })), magic_suffixes: MAGIC_SUFFIXES }));
}
