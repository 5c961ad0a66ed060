// Owns the console's go-live pages (issue #26 item 5): the account's user keeps the go-live profile,
// reads the checklist and submits operations; an admin reads the submissions with each account's
// checklist and approves or rejects them. Everything goes through the shared go-live actions
// (admin/actions/go-live.ts: maker-checker, audited as console:<email>). Each operation comes with its
// name for people (contract/operation-names.ts) beside its slug.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Db } from '../../../db/client.js';
import { okEnvelope } from '../../../http/envelope.js';
import { goLive } from '../../../admin/actions/index.js';
import { submissionQueue } from '../../../golive/store.js';
import { operationName } from '../../../contract/operation-names.js';
import { accountOf, actorOf, requireAdmin } from './context.js';

const text = (name: string, max: number, shape?: { pattern: string; what: string }) =>
  Type.Optional(Type.String({ maxLength: max, ...(shape && { pattern: shape.pattern }), errorMessage: `${name} must be ${shape ? `${shape.what} of` : 'text of'} at most ${max} characters` }));

const Profile = Type.Object(
  {
    legal_name: text('legal_name', 200),
    address: text('address', 500),
    website: text('website', 300, { pattern: '^$|^https?://[^\\s]+$', what: 'an http(s) URL' }),
    contact_name: text('contact_name', 200),
    contact_email: text('contact_email', 254, { pattern: '^$|^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$', what: 'an e-mail address' }),
    contact_phone: text('contact_phone', 20, { pattern: '^$|^\\+?[0-9 -]{6,20}$', what: 'a phone number' }),
    use_case: text('use_case', 4000),
    notice_version: text('notice_version', 64),
    notice_text: text('notice_text', 20_000),
  },
  { additionalProperties: false },
);
// Operations are checked by the action (unknown, not ready), so that every caller answers the same.
const Submit = Type.Object({ operations: Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 20, errorMessage: 'operations must be a list of 1 to 20 operation slugs' }) });
const Queue = Type.Object({ all: Type.Optional(Type.Boolean()) });
const Reject = Type.Object({ reason: Type.Optional(Type.String()) });
type Id = { Params: { id: string } };

export function registerGoLive(api: FastifyInstance, db: Db): void {
  api.get('/console/api/go-live', { schema: { hide: true } }, async (req) => {
    const state = await goLive.goLiveState(db, accountOf(req));
    return okEnvelope('Go-live checklist', { ...state, operations: state.operations.map((o) => ({ ...o, name: operationName(o.operation) })) });
  });

  api.put<{ Body: Static<typeof Profile> }>('/console/api/go-live/profile', { schema: { hide: true, body: Profile } }, async (req) =>
    okEnvelope('Go-live profile saved', await goLive.saveProfile(db, actorOf(req), { accountId: accountOf(req), change: req.body })),
  );

  api.post<{ Body: Static<typeof Submit> }>('/console/api/go-live/submissions', { schema: { hide: true, body: Submit } }, async (req) =>
    okEnvelope('Submitted for review', await goLive.submit(db, actorOf(req), { accountId: accountOf(req), operations: req.body.operations })),
  );
}

export function registerGoLiveReview(api: FastifyInstance, db: Db): void {
  api.addHook('onRequest', async (req) => requireAdmin(req));

  api.get<{ Querystring: Static<typeof Queue> }>('/console/api/admin/go-live', { schema: { hide: true, querystring: Queue } }, async (req) => {
    const rows = await submissionQueue(db, { all: req.query.all ?? false, limit: 200 });
    const checklists = new Map<string, Awaited<ReturnType<typeof goLive.goLiveState>>>();
    for (const id of new Set(rows.map((r) => r.account_id))) checklists.set(id, await goLive.goLiveState(db, id));
    const items = rows.map((r) => {
      const state = checklists.get(r.account_id)!;
      const now = state.operations.find((o) => o.operation === r.operation);
      return { ...goLive.submissionOf(r), account_id: r.account_id, account_name: r.account_name, operation: r.operation, name: operationName(r.operation), profile: state.profile, items: now?.items ?? [], submitted_items: JSON.parse(r.checklist) };
    });
    return okEnvelope('Go-live submissions', { items });
  });

  api.post<Id>('/console/api/admin/go-live/:id/approve', { schema: { hide: true } }, async (req) => okEnvelope('Approved for live use', await goLive.approve(db, actorOf(req), { id: req.params.id })));

  api.post<Id & { Body: Static<typeof Reject> }>('/console/api/admin/go-live/:id/reject', { schema: { hide: true, body: Reject } }, async (req) =>
    okEnvelope('Rejected', await goLive.reject(db, actorOf(req), { id: req.params.id, reason: req.body?.reason })),
  );
}
