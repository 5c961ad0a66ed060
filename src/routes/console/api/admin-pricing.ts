// Owns the admin area's pricing and rate-limit screens (admins only, checked by admin.ts's hook): each
// operation's fee (the table's, or the one it declares) and each account's rate limits (its own, or the
// server's SANGAM_RATE_LIMIT_PER_SEC / _BURST), changed through the shared admin actions (audited as
// console:<email>, the same actions `sangam pricing set` and `sangam accounts limits` take).
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Services } from '../../../services.js';
import { okEnvelope } from '../../../http/envelope.js';
import { inrToPaise, paiseToInr } from '../../../money.js';
import { OPERATION_SLUGS } from '../../../operations/registry.js';
import { accounts, pricing } from '../../../admin/actions/index.js';
import { actorOf } from './context.js';

const MAX_FEE_INR = 100_000;
const Fee = Type.Object({
  fee: Type.Number({ minimum: 0, maximum: MAX_FEE_INR, paise: true, errorMessage: `fee must be an INR amount from 0 to ${MAX_FEE_INR}, with at most 2 decimals` }),
});
const Operation = Type.Object({ operation: Type.String({ enum: [...OPERATION_SLUGS], errorMessage: `operation must be one of ${OPERATION_SLUGS.join(', ')}` }) });
const Limit = (field: string) =>
  Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000 }), Type.Null()], { errorMessage: `${field} must be a whole number from 1 to 1000000, or null for the server's default` });
const Limits = Type.Object({ per_sec: Limit('per_sec'), burst: Limit('burst') });
const AccountId = Type.Object({ id: Type.String({ maxLength: 64 }) });

export function registerAdminPricing(api: FastifyInstance, services: Pick<Services, 'db' | 'config'>): void {
  const { db } = services;

  api.get('/console/api/admin/pricing', { schema: { hide: true } }, async () => {
    const fees = await pricing.list(db);
    const items = fees.map((f) => ({ operation: f.operation, fee: paiseToInr(f.fee_paise), default_fee: f.default_fee_paise === null ? null : paiseToInr(f.default_fee_paise) }));
    return okEnvelope('Pricing', { currency: 'INR', items });
  });

  api.put<{ Params: Static<typeof Operation>; Body: Static<typeof Fee> }>('/console/api/admin/pricing/:operation', { schema: { hide: true, params: Operation, body: Fee } }, async (req) => {
    const r = await pricing.setFee(db, actorOf(req), { operation: req.params.operation, feePaise: inrToPaise(req.body.fee) });
    return okEnvelope('Fee updated', { operation: r.operation, fee: paiseToInr(r.fee_paise) });
  });

  api.get('/console/api/admin/limits', { schema: { hide: true } }, async () => {
    const rows = await db.selectFrom('accounts').select(['id', 'name', 'rate_limit_per_sec', 'rate_limit_burst']).orderBy('created_at', 'desc').limit(500).execute();
    const { perSec, burst } = services.config.rateLimit;
    return okEnvelope('Rate limits', { scope: 'account', defaults: { per_sec: perSec, burst }, items: rows });
  });

  api.put<{ Params: Static<typeof AccountId>; Body: Static<typeof Limits> }>('/console/api/admin/accounts/:id/limits', { schema: { hide: true, params: AccountId, body: Limits } }, async (req) =>
    okEnvelope('Rate limits updated', await accounts.setLimits(db, actorOf(req), { accountId: req.params.id, perSec: req.body.per_sec, burst: req.body.burst })),
  );
}
