// Owns the prepaid emulator's test-control surface under /_sim (not part of Setu): faults, the ledger of
// every recharge created and every request per paymentRefId (to prove "never recharged twice"), the webhook
// log, forced transitions, the wallet (balance and top-ups, which send `wallet.credit`), the webhook base URL,
// token expiry and call counters. Answers here use a plain `{ error }` body.
import type { FastifyInstance } from 'fastify';
import { registerWebhookLog, registerWebhookUrl } from '../common/admin.js';
import { registerFaultRoutes } from '../common/faults.js';
import { CIRCLES, OPERATORS } from './catalogue.js';
import { parseFaults, type Faults } from './faults.js';
import { MAGIC_SUFFIXES } from './outcomes.js';
import { FORCEABLE, type RechargeRecord, type RechargeState } from './state.js';
import type { TokenIssuer } from './tokens.js';
import type { WebhookSender } from './webhooks.js';

export interface AdminDeps {
  state: RechargeState;
  tokens: TokenIssuer;
  webhooks: WebhookSender;
  calls: Record<string, number>;
  getFaults: () => Faults;
  setFaults: (f: Faults) => void;
  webhookBase: () => string | null;
  setWebhookBase: (url: string | null) => void;
  topUp: (paise: number) => void;
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
  app.post<{ Params: { ref: string }; Body: { status?: string } }>('/_sim/recharges/:ref/settle', async (req, reply) => {
    const status = req.body?.status;
    if (!status || !(status in FORCEABLE)) return reply.code(400).send({ error: `status must be one of ${Object.keys(FORCEABLE).join(', ')}` });
    const r = d.state.force(req.params.ref, status);
    if (typeof r === 'string') return reply.code(r === 'unknown recharge' ? 404 : 409).send({ error: r });
    return rechargeLedgerRow(r);
  });

  registerWebhookLog(app, () => d.webhooks.log);
  registerWebhookUrl(app, d.webhookBase, d.setWebhookBase);

  app.get('/_sim/wallet', async () => ({ balance: d.state.wallet }));
  app.post<{ Body: { balance?: unknown } }>('/_sim/wallet', async (req, reply) => {
    const b = req.body?.balance;
    if (!wholePaise(b)) return reply.code(400).send({ error: 'balance must be a whole number of paise ≥ 0' });
    d.state.setWallet(b);
    return { balance: b };
  });
  app.post<{ Body: { amount?: unknown } }>('/_sim/wallet/topup', async (req, reply) => {
    const a = req.body?.amount;
    if (!wholePaise(a) || a === 0) return reply.code(400).send({ error: 'amount must be a whole number of paise > 0' });
    d.topUp(a);
    return { balance: d.state.wallet };
  });

  app.post('/_sim/tokens/expire', async () => {
    d.tokens.expireAll();
    return { expired: true };
  });
  app.get('/_sim/calls', async () => ({ ...d.calls, tokens_issued: d.tokens.issued }));
  app.get('/_sim/catalogue', async () => ({ operators: OPERATORS, circles: CIRCLES, magic_suffixes: MAGIC_SUFFIXES }));
}
