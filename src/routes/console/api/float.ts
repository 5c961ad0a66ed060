// Owns the console's float pages (admins only; docs/RELIABILITY.md, "Float reconciliation"): each
// prepaid partner's float as last checked with its open drift and its opening balance (none recorded:
// the check concludes nothing; a configured partner never checked is listed too), one drift's page, recording an opening
// balance or a funding, and resolving a drift through the shared admin actions
// (admin/actions/float.ts, audited as console:<email>; a reversal or an adjustment waits for a second
// admin, a candidate's reversal through the transaction's own resolution).
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { ApiError } from '../../../errors.js';
import { okEnvelope } from '../../../http/envelope.js';
import type { Services } from '../../../services.js';
import { float } from '../../../admin/actions/index.js';
import { driftPage, floatQueue, floatStatus } from '../../../attention/float.js';
import { latestOpening } from '../../../float/store.js';
import { actorOf, requireAdmin } from './context.js';

const Movement = Type.Object({
  partner: Type.String(),
  amount_paise: Type.Integer({ errorMessage: 'amount_paise must be a whole number of paise' }),
  memo: Type.Optional(Type.String()),
});
// Action, reason, evidence and amount are checked by the action itself, so that the CLI answers the same.
const Propose = Type.Object({
  action: Type.String(),
  txn_id: Type.Optional(Type.String()),
  amount_paise: Type.Optional(Type.Integer({ errorMessage: 'amount_paise must be a whole number of paise' })),
  reason: Type.Optional(Type.String()),
  evidence: Type.Optional(Type.String()),
});
const Reject = Type.Object({ reason: Type.Optional(Type.String()) });
type Id = { Params: { id: string } };

/**
 * Every partner with a float (configured now, or checked before) as `floatStatus` shows it, with
 * `configured` and its latest `opening` (null: none recorded, so the check concludes nothing).
 */
async function floatPartners({ db, partners }: Services) {
  const checked = await floatStatus(db);
  const configured = partners?.floats().map((f) => f.partner) ?? [];
  const names = [...new Set([...configured, ...checked.map((c) => c.partner)])];
  return Promise.all(
    names.map(async (partner) => {
      const check = checked.find((c) => c.partner === partner);
      const o = await latestOpening(db, partner);
      const opening = o ? { id: o.id, amount_paise: o.amount_paise, memo: o.memo, recorded_by: o.recorded_by, at: o.at.toISOString() } : null;
      const never = { checked_at: null, expected_paise: null, actual_paise: null, drift_paise: null, streak: 0, error: null, error_at: null, open_item: null };
      return { ...(check ?? { partner, ...never }), configured: configured.includes(partner), opening };
    }),
  );
}

export function registerFloat(api: FastifyInstance, services: Services): void {
  const { db } = services;
  api.addHook('onRequest', async (req) => requireAdmin(req));

  api.get('/console/api/admin/float', { schema: { hide: true } }, async () => okEnvelope('Float', { partners: await floatPartners(services), drifts: await floatQueue(db) }));

  api.get<Id>('/console/api/admin/float/drifts/:id', { schema: { hide: true } }, async (req) => {
    const page = await driftPage(db, req.params.id);
    if (!page) throw new ApiError('not_found', `No float drift ${req.params.id}`);
    return okEnvelope('Float drift', page);
  });

  for (const kind of ['opening', 'funding'] as const) {
    api.post<{ Body: Static<typeof Movement> }>(`/console/api/admin/float/${kind}`, { schema: { hide: true, body: Movement } }, async (req) => {
      const input = { partner: req.body.partner, amountPaise: req.body.amount_paise, memo: req.body.memo };
      return okEnvelope('Recorded', await (kind === 'opening' ? float.opening : float.fund)(db, actorOf(req), input));
    });
  }

  api.post<Id & { Body: Static<typeof Propose> }>('/console/api/admin/float/drifts/:id/resolutions', { schema: { hide: true, body: Propose } }, async (req) => {
    const b = req.body;
    const r = await float.propose(services, actorOf(req), { driftId: req.params.id, action: b.action, txnId: b.txn_id, amountPaise: b.amount_paise, reason: b.reason, evidence: b.evidence });
    return okEnvelope(r.resolution.state === 'proposed' ? 'Proposed: a second admin must approve it' : 'Resolved', r);
  });

  api.post<Id>('/console/api/admin/float/resolutions/:id/approve', { schema: { hide: true } }, async (req) =>
    okEnvelope('Approved and applied', await float.approve(db, actorOf(req), { id: req.params.id })),
  );

  api.post<Id & { Body: Static<typeof Reject> }>('/console/api/admin/float/resolutions/:id/reject', { schema: { hide: true, body: Reject } }, async (req) =>
    okEnvelope('Rejected', await float.reject(db, actorOf(req), { id: req.params.id, reason: req.body?.reason })),
  );
}
