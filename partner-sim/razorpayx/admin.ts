// Owns the emulator's test-control surface under /_sim (not part of RazorpayX): faults, the ledger of
// every payout created (to prove "never paid twice"), the webhook delivery log, forced transitions,
// the business balance and the webhook target. Answers here use a plain `{ error }` body.
import type { FastifyInstance } from 'fastify';
import { registerBalance, registerSettle, registerWebhookLog } from '../common/admin.js';
import { registerFaultRoutes } from '../common/faults.js';
import { parseFaults, type Faults } from './faults.js';
import type { IdempotencyBook } from './idempotency.js';
import type { PayoutStatus } from './entities.js';
import type { RazorpayxState } from './state.js';
import type { WebhookSender } from './webhooks.js';

export interface AdminDeps {
  state: RazorpayxState;
  idem: IdempotencyBook;
  webhooks: WebhookSender;
  getFaults: () => Faults;
  setFaults: (f: Faults) => void;
  webhookTarget: () => { url: string | null; secret: string };
  setWebhookTarget: (t: { url?: string | null; secret?: string }) => void;
  /** The payout lookups answered as a route the gateway does not have. */
  lookup: { missing: boolean };
}

/** Every payout with the key that created it, and per idempotency key: requests seen and payouts made. */
export function payoutLedger(d: Pick<AdminDeps, 'state' | 'idem'>) {
  const payouts = [...d.state.payouts.values()].map((r) => ({
    ...r.payout,
    idempotency_key: r.idempotencyKey,
    vpa: d.state.fundAccounts.get(r.payout.fund_account_id)?.vpa.address ?? null,
    plan: r.plan,
    history: r.history,
  }));
  const idempotency: Record<string, { requests: number; payouts: number }> = {};
  for (const [key, requests] of d.idem.requests) idempotency[key] = { requests, payouts: 0 };
  for (const p of payouts) (idempotency[p.idempotency_key] ??= { requests: 0, payouts: 0 }).payouts++;
  return { count: payouts.length, balance: d.state.balance, payouts, idempotency };
}

const SETTLEABLE: readonly PayoutStatus[] = ['processing', 'processed', 'failed', 'reversed', 'rejected'];

export async function registerAdmin(app: FastifyInstance, d: AdminDeps): Promise<void> {
  registerFaultRoutes(app, d.getFaults, d.setFaults, parseFaults);
  // GET /v1/payouts/{id} and GET /v1/payouts answered as a route the gateway does not have (`{"missing": true}`), or as RazorpayX again.
  app.post<{ Body: { missing?: unknown } }>('/_sim/lookup', async (req, reply) => {
    if (typeof req.body?.missing !== 'boolean') return reply.code(400).send({ error: 'missing must be a boolean' });
    d.lookup.missing = req.body.missing;
    return { missing: d.lookup.missing };
  });

  app.get('/_sim/payouts', async () => payoutLedger(d));
  registerWebhookLog(app, () => d.webhooks.log);

  registerSettle(app, '/_sim/payouts/:id/settle', {
    statuses: SETTLEABLE,
    force: (id, { status, ...details }: { status?: string; reason?: string; description?: string; source?: string }) => d.state.force(id, status as PayoutStatus, details as never),
    unknown: 'unknown payout',
    view: (r) => r.payout,
  });

  registerBalance(app, '/_sim/balance', 'balance', { get: () => d.state.balance, set: (b) => ({ released: d.state.setBalance(b) }), refusal: 'balance must be a whole number of paise ≥ 0' });

  app.get('/_sim/webhook', async () => d.webhookTarget());
  app.post<{ Body: { url?: unknown; secret?: unknown } }>('/_sim/webhook', async (req, reply) => {
    const { url, secret } = req.body ?? {};
    if (url !== undefined && url !== null && (typeof url !== 'string' || !URL.canParse(url))) return reply.code(400).send({ error: 'url must be an absolute URL or null' });
    if (secret !== undefined && (typeof secret !== 'string' || !secret)) return reply.code(400).send({ error: 'secret must be a non-empty string' });
    d.setWebhookTarget({ ...(url === undefined ? {} : { url: url as string | null }), ...(secret === undefined ? {} : { secret: secret as string }) });
    return d.webhookTarget();
  });
}
