// Owns the prepaid emulator's test-control surface under /_sim (not part of Setu): faults, the ledger of
// every recharge created and every request per paymentRefId (to prove "never recharged twice"), the webhook
// log, forced transitions, the wallet (balance and top-ups, which send `wallet.credit`), the webhook base URL,
// token expiry and call counters; a switch that makes /recharge/status answer like a route the gateway does
// not have (POST /_sim/lookup), and which reference the payment webhooks name (POST /_sim/webhook-reference). Answers here use a plain `{ error }` body.
import type { FastifyInstance } from 'fastify';
import { registerBalance, registerSettle, registerWebhookLog, registerWebhookUrl } from '../common/admin.js';
import { registerFaultRoutes } from '../common/faults.js';
import { CIRCLES, OPERATORS } from './catalogue.js';
import { parseFaults, type Faults } from './faults.js';
import { MAGIC_SUFFIXES } from './outcomes.js';
import { FORCEABLE, type RechargeRecord, type RechargeState } from './state.js';
import type { TokenIssuer } from './tokens.js';
import type { WebhookSender } from './webhooks.js';

/** What both Setu emulators' admin routes reach: their tokens, webhooks, call counts and faults. */
export interface SetuAdminDeps {
  tokens: TokenIssuer;
  webhooks: WebhookSender;
  calls: Record<string, number>;
  getFaults: () => Faults;
  setFaults: (f: Faults) => void;
}

/** Which reference the payment webhooks name as `transactionRefId`: Setu's answer's, or the request's refId. */
export type WebhookReference = 'transactionRefId' | 'refId';

export interface AdminDeps extends SetuAdminDeps {
  state: RechargeState;
  webhookBase: () => string | null;
  setWebhookBase: (url: string | null) => void;
  topUp: (paise: number) => void;
  /** /recharge/status answered as a route the gateway does not have. */
  lookup: { missing: boolean };
  reference: { field: WebhookReference };
}

export function rechargeLedgerRow(r: RechargeRecord) {
  const i = r.input;
  return {
    paymentRefId: i.paymentRefId,
    refId: i.refId,
    transactionRefId: r.transactionRefId,
    mobile_number: i.mobile,
    customer_mobile: i.customerMobile,
    operator: i.operator,
    location: i.location,
    amount: i.amount,
    mode: i.mode,
    status: r.status,
    reversed: r.reversed,
    operatorRefId: r.operatorRefId,
    error: r.error,
    plan: r.plan,
    trace_id: r.traceId,
    history: r.history,
  };
}

export function rechargeLedger(state: RechargeState) {
  const recharges = [...state.recharges.values()].map(rechargeLedgerRow);
  const requests: Record<string, { requests: number; recharges: number }> = {};
  for (const [ref, n] of state.requests) requests[ref] = { requests: n, recharges: state.recharges.has(ref) ? 1 : 0 };
  return { count: recharges.length, wallet_balance: state.wallet, recharges, requests };
}

const wholePaise = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

export async function registerAdmin(app: FastifyInstance, d: AdminDeps): Promise<void> {
  registerFaultRoutes(app, d.getFaults, d.setFaults, parseFaults);

  app.get('/_sim/recharges', async () => rechargeLedger(d.state));
  registerSettle(app, '/_sim/recharges/:id/settle', { statuses: Object.keys(FORCEABLE), force: (ref, b: { status: string }) => d.state.force(ref, b.status), unknown: 'unknown recharge', view: rechargeLedgerRow });

  registerWebhookLog(app, () => d.webhooks.log);
  registerWebhookUrl(app, d.webhookBase, d.setWebhookBase);

  registerBalance(app, '/_sim/wallet', 'balance', { get: () => d.state.wallet, set: (b) => d.state.setWallet(b), refusal: 'balance must be a whole number of paise ≥ 0' });
  app.post<{ Body: { amount?: unknown } }>('/_sim/wallet/topup', async (req, reply) => {
    const a = req.body?.amount;
    if (!wholePaise(a) || a === 0) return reply.code(400).send({ error: 'amount must be a whole number of paise > 0' });
    d.topUp(a);
    return { balance: d.state.wallet };
  });

  registerTokenAdmin(app, d.tokens, d.calls);
  // /recharge/status answered as a route the gateway does not have (`{"missing": true}`), or as Setu again.
  app.post<{ Body: { missing?: unknown } }>('/_sim/lookup', async (req, reply) => {
    if (typeof req.body?.missing !== 'boolean') return reply.code(400).send({ error: 'missing must be a boolean' });
    d.lookup.missing = req.body.missing;
    return { missing: d.lookup.missing };
  });
  // Setu's page: `transactionRefId` is the reference "from the original recharge request" — either reading.
  app.post<{ Body: { field?: unknown } }>('/_sim/webhook-reference', async (req, reply) => {
    const f = req.body?.field;
    if (f !== 'transactionRefId' && f !== 'refId') return reply.code(400).send({ error: 'field must be "transactionRefId" or "refId"' });
    d.reference.field = f;
    return { field: f };
  });
  app.get('/_sim/catalogue', async () => ({ operators: OPERATORS, circles: CIRCLES, magic_suffixes: MAGIC_SUFFIXES }));
}

/** Both Setu emulators': POST /_sim/tokens/expire (every token refused from now), GET /_sim/calls (calls counted, tokens issued). */
export function registerTokenAdmin(app: FastifyInstance, tokens: TokenIssuer, calls: Record<string, number>): void {
  app.post('/_sim/tokens/expire', async () => {
    tokens.expireAll();
    return { expired: true };
  });
  app.get('/_sim/calls', async () => ({ ...calls, tokens_issued: tokens.issued }));
}
