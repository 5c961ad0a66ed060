// Owns the console's "Needs attention" pages (admins only): the queue of live transactions that are
// overdue, in manual review, flagged or waiting for a second admin, its counts (the navigation badge),
// one transaction's page with its whole partner history, and resolving by hand through the shared
// admin actions (admin/actions/attention.ts, audited as console:<email>, maker-checker for money).
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { ApiError } from '../../../errors.js';
import { okEnvelope } from '../../../http/envelope.js';
import type { Services } from '../../../services.js';
import { attention } from '../../../admin/actions/index.js';
import { attentionCounts, attentionQueue, REASONS, transactionPage, type Reason } from '../../../attention/queue.js';
import { actorOf, requireAdmin } from './context.js';

const Queue = Type.Object({
  reason: Type.Optional(Type.Union(REASONS.map((r) => Type.Literal(r)), { errorMessage: `reason must be one of ${REASONS.join(', ')}` })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, errorMessage: 'limit must be a whole number from 1 to 1000' })),
});
// Action, reason and evidence are checked by the action itself, so that the CLI answers the same.
const Propose = Type.Object({ action: Type.String(), reason: Type.Optional(Type.String()), evidence: Type.Optional(Type.String()) });
const Reject = Type.Object({ reason: Type.Optional(Type.String()) });
type Txn = { Params: { txnId: string } };
type Id = { Params: { id: string } };

export function registerAttention(api: FastifyInstance, services: Services): void {
  const { db, expectations } = services;
  api.addHook('onRequest', async (req) => requireAdmin(req));

  api.get<{ Querystring: Static<typeof Queue> }>('/console/api/admin/attention', { schema: { hide: true, querystring: Queue } }, async (req) =>
    okEnvelope('Needs attention', { items: await attentionQueue(db, { reason: req.query.reason as Reason | undefined, limit: req.query.limit ?? 500 }) }),
  );

  api.get('/console/api/admin/attention/summary', { schema: { hide: true } }, async () => okEnvelope('Needs attention', await attentionCounts(db)));

  api.get<Txn>('/console/api/admin/attention/:txnId', { schema: { hide: true } }, async (req) => {
    const page = await transactionPage(db, req.params.txnId, expectations);
    if (!page) throw new ApiError('not_found', `No transaction ${req.params.txnId}`);
    return okEnvelope('Transaction', page);
  });

  api.post<Txn & { Body: Static<typeof Propose> }>('/console/api/admin/attention/:txnId/resolutions', { schema: { hide: true, body: Propose } }, async (req) => {
    const r = await attention.propose(services, actorOf(req), { txnId: req.params.txnId, ...req.body });
    return okEnvelope(r.state === 'proposed' ? 'Proposed: a second admin must approve it' : 'Resolved', r);
  });

  api.post<Id>('/console/api/admin/resolutions/:id/approve', { schema: { hide: true } }, async (req) =>
    okEnvelope('Approved and applied', await attention.approve(services, actorOf(req), { id: req.params.id })),
  );

  api.post<Id & { Body: Static<typeof Reject> }>('/console/api/admin/resolutions/:id/reject', { schema: { hide: true, body: Reject } }, async (req) =>
    okEnvelope('Rejected', await attention.reject(services, actorOf(req), { id: req.params.id, reason: req.body?.reason })),
  );
}
