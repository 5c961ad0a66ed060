// Owns GET /api/v1/account/go-live: the go-live checklist of the calling key's account, per
// operation (items done or not with a detail, and the submission's status and decision); changes
// happen in the console. A live key reads all of it. A sandbox key reads the progress (statuses,
// readiness, which items are done and what is missing) but nothing of the live configuration or the
// business profile: no profile (null), and the details that would name the live allow-list's addresses,
// the live webhook URL or the profile's contacts say only that the item is done (docs/CONSENT.md,
// "Go-live checklist"; a sandbox key is the one handed to developers and CI, and a leaked one must not
// map the live set-up).
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Db } from '../../../../db/client.js';
import { okEnvelope } from '../../../../http/envelope.js';
import { Envelope, Nullable, responses } from '../../../../http/responses.js';
import { OPERATION_SLUGS } from '../../../../operations/registry.js';
import { checklist, ITEM_IDS, sandboxView } from '../../../../golive/checklist.js';
import { PROFILE_FIELDS } from '../../../../golive/store.js';

const When = (description: string) => Nullable(Type.String({ format: 'date-time' }), { description });
const Item = Type.Object({
  id: Type.Union(ITEM_IDS.map((i) => Type.Literal(i)), { description: 'What is checked: docs/CONSENT.md, "Go-live checklist"' }),
  done: Type.Boolean(),
  detail: Type.String({ description: 'What was found, or what is missing' }),
});
const Submission = Type.Object({
  id: Type.String(),
  state: Type.Union([Type.Literal('submitted'), Type.Literal('approved'), Type.Literal('rejected')]),
  submitted_by: Type.String({ description: 'The console user who submitted it' }),
  submitted_at: Type.String({ format: 'date-time' }),
  decided_by: Nullable(Type.String(), { description: 'The admin who approved or rejected it' }),
  decided_at: When('When it was decided'),
  reason: Nullable(Type.String(), { description: 'Why it was rejected' }),
});
const OperationState = Type.Object({
  operation: Type.String({ enum: [...OPERATION_SLUGS] }),
  status: Type.Union([Type.Literal('not_submitted'), Type.Literal('submitted'), Type.Literal('approved'), Type.Literal('rejected')], {
    description: 'approved: live use is granted (by a reviewer, or an operator\'s `sangam approve`)',
  }),
  ready: Type.Boolean({ description: 'Every item is done: the operation can be submitted' }),
  items: Type.Array(Item),
  submission: Nullable(Submission, { description: 'The latest submission, with its decision' }),
});
const ProfileSchema = Type.Object({
  ...Object.fromEntries(PROFILE_FIELDS.map((f) => [f, Type.String()])),
  updated_at: When('When the profile last changed'),
  updated_by: Nullable(Type.String()),
});

export function registerGoLiveRoutes(app: FastifyInstance, services: { db: Db }): void {
  app.get(
    '/api/v1/account/go-live',
    {
      schema: {
        operationId: 'getGoLive',
        summary: "The account's go-live checklist per operation: what a reviewer needs before approving live use, and the submission's status",
        description:
          'A live key reads everything. A sandbox key reads the progress only: profile is null, and a done item whose detail would show the business profile, the live allow-list or the live webhook URL says only that it is done.',
        tags: ['Account'],
        response: responses(
          Envelope(
            Type.Object({
              profile: Nullable(ProfileSchema, { description: 'The go-live profile; null for a sandbox key' }),
              operations: Type.Array(OperationState),
            }),
          ),
        ),
      },
    },
    async (req) => {
      const c = await checklist(services.db, req.auth!.accountId, OPERATION_SLUGS);
      return okEnvelope('Go-live checklist', req.auth!.environment === 'live' ? c : sandboxView(c));
    },
  );
}
