// Owns the emulator's test-control surface under /_sim (not part of Cashfree): faults, the ledger of
// every transfer created (to prove "never paid twice"), the webhook delivery log, forced outcomes, the
// fund source balance, pre-created beneficiaries, the webhook URL, and a switch that makes the status
// lookup answer like a route the gateway does not have (POST /_sim/lookup). Answers here use a plain
// `{ error }` body.
import type { FastifyInstance } from 'fastify';
import { registerBalance, registerSettle, registerWebhookLog, registerWebhookUrl } from '../common/admin.js';
import { registerFaultRoutes } from '../common/faults.js';
import { parseFaults, type Faults } from './faults.js';
import type { TransferBook } from './transfers.js';
import { VPA } from './validate.js';
import type { WebhookSender } from './webhooks.js';

export interface AdminDeps {
  book: TransferBook;
  webhooks: WebhookSender;
  getFaults: () => Faults;
  setFaults: (f: Faults) => void;
  webhookUrl: () => string | null;
  setWebhookUrl: (url: string | null) => void;
  /** GET /payout/transfers answered as a route the gateway does not have. */
  lookup: { missing: boolean };
}

/** Every transfer with how it was asked for, and per transfer_id how many create requests arrived. */
export function transferLedger(book: TransferBook) {
  const transfers = [...book.transfers.values()].map((r) => ({
    ...r.transfer,
    plan: r.plan,
    beneficiary_name: r.beneficiaryName,
    transfer_remarks: r.remarks,
    api_version: r.apiVersion,
    requests: book.requests.get(r.transfer.transfer_id) ?? 0,
    history: r.history,
  }));
  return { count: transfers.length, balance_paise: book.balance, transfers };
}

const SETTLEABLE = ['SUCCESS', 'FAILED', 'REJECTED', 'REVERSED'] as const;
type Settle = { status?: string; status_code?: unknown; status_description?: unknown };

export async function registerAdmin(app: FastifyInstance, d: AdminDeps): Promise<void> {
  registerFaultRoutes(app, d.getFaults, d.setFaults, parseFaults);

  app.get('/_sim/transfers', async () => transferLedger(d.book));
  // The status lookup answered as a route the gateway does not have (`{"missing": true}`), or as Cashfree again.
  app.post<{ Body: { missing?: unknown } }>('/_sim/lookup', async (req, reply) => {
    if (typeof req.body?.missing !== 'boolean') return reply.code(400).send({ error: 'missing must be a boolean' });
    d.lookup.missing = req.body.missing;
    return { missing: d.lookup.missing };
  });
  registerWebhookLog(app, () => d.webhooks.log);

  registerSettle(app, '/_sim/transfers/:id/settle', {
    statuses: SETTLEABLE,
    refuse: (b: Settle) => {
      const bad = (['status_code', 'status_description'] as const).find((k) => b[k] !== undefined && (typeof b[k] !== 'string' || !b[k]));
      return bad ? `${bad} must be a non-empty string` : null;
    },
    force: (id, { status, status_code, status_description }) =>
      d.book.force(id, status as (typeof SETTLEABLE)[number], { status_code: status_code as string | undefined, status_description: status_description as string | undefined }),
    unknown: 'unknown transfer',
    view: (r) => r.transfer,
  });

  registerBalance(app, '/_sim/balance', 'balance_paise', { get: () => d.book.balance, set: (b) => d.book.setBalance(b), refusal: 'balance_paise must be a whole number ≥ 0' });

  app.get('/_sim/beneficiaries', async () => ({ beneficiaries: [...d.book.beneficiaries.values()] }));
  app.post<{ Body: { beneficiary_id?: unknown; beneficiary_name?: unknown; vpa?: unknown } }>('/_sim/beneficiaries', async (req, reply) => {
    const { beneficiary_id: id, beneficiary_name: name, vpa } = req.body ?? {};
    if (typeof id !== 'string' || !/^[A-Za-z0-9]+$/.test(id)) return reply.code(400).send({ error: 'beneficiary_id must be alphanumeric' });
    if (typeof name !== 'string' || !/^[A-Za-z ]{1,100}$/.test(name)) return reply.code(400).send({ error: 'beneficiary_name must be alphabets and spaces' });
    if (typeof vpa !== 'string' || !VPA.test(vpa)) return reply.code(400).send({ error: 'vpa must be a valid VPA' });
    const bene = { beneficiary_id: id, beneficiary_name: name, vpa };
    d.book.beneficiaries.set(id, bene);
    return reply.code(201).send(bene);
  });

  registerWebhookUrl(app, d.webhookUrl, d.setWebhookUrl);
}
