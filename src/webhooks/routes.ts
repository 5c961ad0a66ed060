// Owns the webhook endpoints API (CONTRACT §8): create (the secret is shown once), list, delete, rotate
// the secret, list deliveries with their attempts, and replay. Endpoints are per account and
// environment; another account's endpoint is a 404.
import type { FastifyInstance } from 'fastify';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ApiError } from '../errors.js';
import { okEnvelope } from '../http/envelope.js';
import type { Services } from '../services.js';
import { refuseUrl } from './ssrf.js';
import { Envelope, Nullable, responses } from '../http/responses.js';
import { createEndpoint, deleteEndpoint, deliveries, EVENT_TYPES, listEndpoints, replay, rotateSecret } from './store.js';

const CreateBody = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'https URL of your receiver (http allowed in sandbox)', errorMessage: 'url must be an http(s) URL of at most 2048 characters' }),
  event_types: Type.Optional(
    Type.Array(Type.String({ enum: [...EVENT_TYPES] }), {
      minItems: 1,
      uniqueItems: true,
      description: 'Only these events (default: all)',
      errorMessage: `event_types must be a non-empty list of ${EVENT_TYPES.join(', ')}`,
    }),
  ),
});
const IdParams = Type.Object({ id: Type.String({ pattern: '^we_[0-9A-Za-z]{20}$', description: 'A webhook endpoint id: we_ and 20 letters or digits', errorMessage: 'id must be a webhook endpoint id (we_…)' }) });
const RotateBody = Type.Object({
  overlap_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 7 * 86_400, default: 86_400, description: 'How long the old secret also signs', errorMessage: 'overlap_seconds must be 0 to 604800' })),
});
const ReplayBody = Type.Object({
  event_id: Type.Optional(Type.String({ pattern: '^msg_[0-9A-Za-z]{24}$', description: 'Send this event again: msg_ and 24 letters or digits (the webhook-id header of its deliveries)', errorMessage: 'event_id must be an event id (msg_…)' })),
  since: Type.Optional(Type.String({ format: 'date-time', description: 'Replay every failed delivery since this time', errorMessage: 'since must be an ISO 8601 date-time' })),
  // Either is required, but the body may be empty (bodyOptional): the handler refuses neither, naming event_id.
}, { description: 'Give event_id, or since (one of them is required; event_id wins when both are given)' });
const TAGS = ['Webhooks'];

const nullable = Nullable;
const DateTime = Type.String({ format: 'date-time' });
const Endpoint = {
  id: Type.String({ pattern: '^we_[0-9A-Za-z]{20}$' }),
  url: Type.String(),
  environment: Type.Union([Type.Literal('sandbox'), Type.Literal('live')]),
  event_types: nullable(Type.Array(Type.String({ enum: [...EVENT_TYPES] }), { description: 'null: every event' })),
  created_at: DateTime,
  disabled_at: nullable(Type.String({ format: 'date-time', description: 'Set when failing deliveries disabled it; a replay enables it again' })),
  disabled_reason: nullable(Type.String()),
};
const Secret = Type.String({ pattern: '^whsec_', description: 'The signing secret (Standard Webhooks, whsec_ and base64); shown only here' });
const Delivery = Type.Object({
  id: Type.Integer(),
  event_id: Type.String(),
  type: Type.String({ enum: [...EVENT_TYPES] }),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  next_attempt_at: nullable(DateTime),
  last_status: nullable(Type.Integer()),
  last_error: nullable(Type.String()),
  created_at: DateTime,
  attempts_log: Type.Array(
    Type.Object({
      attempted_at: DateTime,
      http_status: nullable(Type.Integer()),
      latency_ms: Type.Number(),
      response_excerpt: nullable(Type.String()),
      error: nullable(Type.String()),
    }),
  ),
});
const ENDPOINT_ERRORS = { errors: [404, 413, 415] };

export function registerWebhookRoutes(app: FastifyInstance, services: Services): void {
  const scope = (req: { auth?: { accountId: string; environment: 'sandbox' | 'live' } }) => ({ accountId: req.auth!.accountId, environment: req.auth!.environment });

  app.post<{ Body: Static<typeof CreateBody> }>(
    '/api/v1/webhook-endpoints',
    {
      schema: {
        operationId: 'createWebhookEndpoint',
        summary: 'Register a webhook endpoint; the signing secret is shown once',
        tags: TAGS,
        body: CreateBody,
        response: responses(Envelope(Type.Object({ ...Endpoint, secret: Secret })), { errors: [413, 415] }),
      },
    },
    async (req) => {
      const s = scope(req);
      const why = await refuseUrl(req.body.url, { live: s.environment === 'live', allowPrivate: services.config.webhooks.allowPrivate });
      if (why) throw ApiError.validation([{ field: 'url', message: why }]);
      return okEnvelope('Webhook endpoint created', await createEndpoint(services.db, s, req.body.url, req.body.event_types ?? null));
    },
  );

  const listSchema = { operationId: 'listWebhookEndpoints', summary: 'List webhook endpoints', tags: TAGS, response: responses(Envelope(Type.Object({ items: Type.Array(Type.Object(Endpoint)) }))) };
  app.get('/api/v1/webhook-endpoints', { schema: listSchema }, async (req) =>
    okEnvelope('Webhook endpoints', { items: await listEndpoints(services.db, scope(req)) }),
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/api/v1/webhook-endpoints/:id',
    {
      schema: {
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete a webhook endpoint (pending deliveries to it stop)',
        tags: TAGS,
        params: IdParams,
        response: responses(Envelope(Type.Object({ id: Type.String(), deleted: Type.Literal(true) })), ENDPOINT_ERRORS),
      },
    },
    async (req) => {
      await deleteEndpoint(services.db, scope(req), req.params.id);
      return okEnvelope('Webhook endpoint deleted', { id: req.params.id, deleted: true });
    },
  );

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof RotateBody> }>(
    '/api/v1/webhook-endpoints/:id/rotate-secret',
    {
      config: { bodyOptional: true },
      schema: {
        operationId: 'rotateWebhookSecret',
        summary: 'New signing secret; both sign during the overlap',
        tags: TAGS,
        params: IdParams,
        body: RotateBody,
        response: responses(
          Envelope(Type.Object({ id: Type.String(), secret: Secret, previous_secret_until: Type.String({ format: 'date-time', description: 'The old secret also signs until then' }) })),
          ENDPOINT_ERRORS,
        ),
      },
    },
    async (req) => okEnvelope('Secret rotated', await rotateSecret(services.db, scope(req), req.params.id, req.body?.overlap_seconds ?? 86_400)),
  );

  app.get<{ Params: Static<typeof IdParams>; Querystring: { limit?: number } }>(
    '/api/v1/webhook-endpoints/:id/deliveries',
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: 'Deliveries to this endpoint, newest first, with every attempt',
        tags: TAGS,
        params: IdParams,
        querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })) }),
        response: responses(Envelope(Type.Object({ items: Type.Array(Delivery) })), { errors: [404] }),
      },
    },
    async (req) => okEnvelope('Webhook deliveries', { items: await deliveries(services.db, scope(req), req.params.id, req.query.limit ?? 50) }),
  );

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof ReplayBody> }>(
    '/api/v1/webhook-endpoints/:id/replay',
    {
      config: { bodyOptional: true },
      schema: {
        operationId: 'replayWebhookEvents',
        summary: 'Send one event again, or every failed delivery since a time',
        description: 'Give event_id, or since; a body with neither is a 422 naming event_id. Enables a disabled endpoint again.',
        tags: TAGS,
        params: IdParams,
        body: ReplayBody,
        response: responses(Envelope(Type.Object({ replayed: Type.Integer({ description: 'How many events were scheduled again' }) })), ENDPOINT_ERRORS),
      },
    },
    async (req) => {
      const b = req.body ?? {};
      if (!b.event_id && !b.since) throw ApiError.validation([{ field: 'event_id', message: 'give event_id, or since' }]);
      const n = await replay(services.db, scope(req), req.params.id, { eventId: b.event_id, since: b.since ? new Date(b.since) : undefined });
      return okEnvelope('Replay scheduled', { replayed: n });
    },
  );
}
