// Owns an endpoint's deliveries: listing them with every attempt, newest first, and replaying them
// (one event again, or every failed delivery since a time; a replay enables a disabled endpoint).
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Db } from '../../../../db/client.js';
import { okEnvelope } from '../../../../http/envelope.js';
import { Envelope, Nullable, responses } from '../../../../http/responses.js';
import { deliveries, EVENT_TYPES, replay } from '../../../../webhooks/store.js';
import { TEST_EVENT } from '../../../../webhooks/endpoints.js';
import { DateTime, ENDPOINT_ERRORS, IdParams, scope, TAGS } from './schemas.js';

const Delivery = Type.Object({
  id: Type.Integer(),
  event_id: Type.String(),
  type: Type.String({ enum: [...EVENT_TYPES, TEST_EVENT], description: `${TEST_EVENT}: a test event sent from the console` }),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  next_attempt_at: Nullable(DateTime),
  last_status: Nullable(Type.Integer()),
  last_error: Nullable(Type.String()),
  created_at: DateTime,
  attempts_log: Type.Array(
    Type.Object({
      attempted_at: DateTime,
      http_status: Nullable(Type.Integer()),
      latency_ms: Type.Number(),
      response_excerpt: Nullable(Type.String()),
      error: Nullable(Type.String()),
    }),
  ),
});

const EventId = Type.String({ pattern: '^msg_[0-9A-Za-z]{24}$', description: 'Send this event again: msg_ and 24 letters or digits (the webhook-id header of its deliveries)', errorMessage: 'event_id must be an event id (msg_…)' });
const Since = Type.String({ format: 'date-time', description: 'Replay every failed delivery since this time', errorMessage: 'since must be an ISO 8601 date-time' });
/**
 * One of event_id and since is required: an anyOf of the two required sets (in an allOf, as operations
 * declare a field or its alias), which the document publishes and the server's validation enforces: a
 * body with neither, or none, is a 422 naming event_id. Each branch names its property, so generated
 * clients type the body as (event_id | since).
 */
const ReplayBody = Type.Object(
  { event_id: Type.Optional(EventId), since: Type.Optional(Since) },
  {
    description: 'Give event_id, or since (one of them is required; event_id wins when both are given)',
    allOf: [
      {
        anyOf: [
          { type: 'object', required: ['event_id'], properties: { event_id: EventId } },
          { type: 'object', required: ['since'], properties: { since: Since } },
        ],
        errorMessage: 'give event_id, or since',
      },
    ],
  },
);

const listSchema = {
  operationId: 'listWebhookDeliveries',
  summary: 'Deliveries to this endpoint, newest first, with every attempt',
  tags: TAGS,
  params: IdParams,
  querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })) }),
  response: responses(Envelope(Type.Object({ items: Type.Array(Delivery) })), { errors: [404] }),
};
const replaySchema = {
  operationId: 'replayWebhookEvents',
  summary: 'Send one event again, or every failed delivery since a time',
  description: 'Give event_id, or since; a body with neither is a 422 naming event_id. Enables a disabled endpoint again.',
  tags: TAGS,
  params: IdParams,
  body: ReplayBody,
  response: responses(Envelope(Type.Object({ replayed: Type.Integer({ description: 'How many events were scheduled again' }) })), ENDPOINT_ERRORS),
};

export function registerDeliveries(app: FastifyInstance, deps: { db: Db }): void {
  app.get<{ Params: Static<typeof IdParams>; Querystring: { limit?: number } }>('/api/v1/webhook-endpoints/:id/deliveries', { schema: listSchema }, async (req) =>
    okEnvelope('Webhook deliveries', { items: await deliveries(deps.db, scope(req), req.params.id, req.query.limit ?? 50) }),
  );

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof ReplayBody> }>(
    '/api/v1/webhook-endpoints/:id/replay',
    { config: { bodyOptional: true }, schema: replaySchema },
    async (req) => {
      const b = req.body;
      const n = await replay(deps.db, scope(req), req.params.id, { eventId: b.event_id, since: b.since ? new Date(b.since) : undefined });
      return okEnvelope('Replay scheduled', { replayed: n });
    },
  );
}
