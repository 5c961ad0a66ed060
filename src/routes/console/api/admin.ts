// Owns the operators' pages (admins only, for every route registered here): accounts with their wallets
// and approvals, creating an account, top-ups, approvals and the sandbox wallet setting through the shared admin actions (audited as
// console:<email>); console users (admin-users.ts), pricing and rate limits (admin-pricing.ts). The
// manual-review queue is part of "Needs attention" (attention.ts).
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Db } from '../../../db/client.js';
import { okEnvelope } from '../../../http/envelope.js';
import { OPERATION_SLUGS as SLUGS } from '../../../operations/registry.js';
import { inrToPaise, paiseToInr } from '../../../money.js';
import { accounts, wallet } from '../../../admin/actions/index.js';
import { Amount } from '../../../contract/fields.js';
import type { Services } from '../../../services.js';
import { actorOf, requireAdmin } from './context.js';
import { registerAdminUsers } from './admin-users.js';
import { registerAdminPricing } from './admin-pricing.js';

const NewAccount = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) });
const TopUp = Type.Object({ amount: Amount(10_000_000) });
const SandboxWallet = Type.Object({ sandbox_wallet: Type.Union([Type.Literal('simulated'), Type.Literal('live')], { errorMessage: 'sandbox_wallet must be simulated or live' }) });
const Approval = Type.Object({ operation: Type.String({ enum: ['all', ...SLUGS] }), approved: Type.Boolean() });
type Id = { Params: { id: string } };

export function registerAdmin(api: FastifyInstance, services: Services): void {
  const { db } = services;
  api.addHook('onRequest', async (req) => requireAdmin(req));
  registerAdminUsers(api, db);
  registerAdminPricing(api, services);

  api.get('/console/api/admin/accounts', { schema: { hide: true } }, async () => okEnvelope('Accounts', { operations: SLUGS, items: await accountList(db) }));

  api.post<{ Body: Static<typeof NewAccount> }>('/console/api/admin/accounts', { schema: { hide: true, body: NewAccount } }, async (req) =>
    okEnvelope('Account created', await accounts.create(db, actorOf(req), { name: req.body.name })),
  );

  api.post<Id & { Body: Static<typeof TopUp> }>('/console/api/admin/accounts/:id/topup', { schema: { hide: true, body: TopUp } }, async (req) => {
    const r = await wallet.topUp(db, actorOf(req), { accountId: req.params.id, amountPaise: inrToPaise(req.body.amount) });
    return okEnvelope('Wallet topped up', { balance: paiseToInr(r.balance_paise) });
  });

  api.post<Id & { Body: Static<typeof SandboxWallet> }>('/console/api/admin/accounts/:id/sandbox-wallet', { schema: { hide: true, body: SandboxWallet } }, async (req) =>
    okEnvelope('Sandbox wallet setting updated', await accounts.setSandboxWallet(db, actorOf(req), { accountId: req.params.id, show: req.body.sandbox_wallet })),
  );

  api.post<Id & { Body: Static<typeof Approval> }>('/console/api/admin/accounts/:id/approvals', { schema: { hide: true, body: Approval } }, async (req) => {
    const r = await accounts.setApproval(db, actorOf(req), { accountId: req.params.id, ...req.body });
    return okEnvelope('Approvals updated', { approved: r.approved });
  });

}

async function accountList(db: Db) {
  const rows = await db
    .selectFrom('accounts as a')
    .innerJoin('wallet_balances as w', 'w.account_id', 'a.id')
    .select(['a.id', 'a.name', 'a.created_at', 'a.sandbox_live_wallet', 'w.balance_paise', 'w.held_paise'])
    .orderBy('a.created_at', 'desc')
    .limit(500)
    .execute();
  const approvals = await db.selectFrom('approvals').select(['account_id', 'operation']).execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    created_at: r.created_at.toISOString(),
    balance: paiseToInr(r.balance_paise),
    held: paiseToInr(r.held_paise),
    sandbox_wallet: r.sandbox_live_wallet ? 'live' : 'simulated',
    approvals: approvals.filter((a) => a.account_id === r.id).map((a) => a.operation),
  }));
}
