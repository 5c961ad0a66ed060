// Owns the client's webhook pages: endpoints with their delivery status; registering one (its secret
// shown once), rotating its secret, sending it a test event (limited per endpoint and per account: each
// one is an outbound signed delivery, retried; a 429 with Retry-After past the limit), deleting it;
// its recent deliveries and replays. Every change goes through the same webhook services the API routes use (webhooks/).
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Services } from '../../../services.js';
import { okEnvelope } from '../../../http/envelope.js';
import { deleteEndpoint, deliveries, EVENT_TYPES, replay, rotateSecret } from '../../../webhooks/store.js';
import { endpointsWithStatus, registerEndpoint, sendTestEvent } from '../../../webhooks/endpoints.js';
import { DEFAULT_OVERLAP_S } from '../../api/v1/webhook-endpoints/secret.js';
import { accountOf, Env } from './context.js';

const Query = Type.Object({ environment: Env });
const Replay = Type.Object({ environment: Env, event_id: Type.Optional(Type.String({ maxLength: 64 })), since: Type.Optional(Type.String({ format: 'date-time' })) });
const Create = Type.Object({
  environment: Env,
  url: Type.String({ minLength: 1, maxLength: 2048, errorMessage: 'url must be an http(s) URL of at most 2048 characters' }),
  event_types: Type.Optional(Type.Array(Type.String({ enum: [...EVENT_TYPES] }), { minItems: 1, uniqueItems: true, errorMessage: `event_types must be a non-empty list of ${EVENT_TYPES.join(', ')}` })),
});
const Rotate = Type.Object({ environment: Env, overlap_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 7 * 86_400, errorMessage: 'overlap_seconds must be 0 to 604800' })) });
const Id = Type.Object({ id: Type.String({ pattern: '^we_[0-9A-Za-z]{20}$', errorMessage: 'id must be a webhook endpoint id (we_…)' }) });
type One<B = unknown> = { Params: Static<typeof Id>; Body: B; Querystring: Static<typeof Query> };

export function registerWebhooks(api: FastifyInstance, services: Pick<Services, 'db' | 'config' | 'testEvents'>): void {
  const { db } = services;
  const scopeOf = (req: Parameters<typeof accountOf>[0], environment: 'sandbox' | 'live') => ({ accountId: accountOf(req), environment });

  api.get<{ Querystring: Static<typeof Query> }>('/console/api/webhooks', { schema: { hide: true, querystring: Query } }, async (req) =>
    okEnvelope('Webhook endpoints', { items: await endpointsWithStatus(db, scopeOf(req, req.query.environment)), event_types: EVENT_TYPES }),
  );

  api.post<{ Body: Static<typeof Create> }>('/console/api/webhooks', { schema: { hide: true, body: Create } }, async (req) => {
    const input = { url: req.body.url, eventTypes: req.body.event_types ?? null };
    const created = await registerEndpoint(db, scopeOf(req, req.body.environment), input, services.config.webhooks.allowPrivate);
    return okEnvelope('Webhook endpoint created: copy its secret now, it is not shown again', created);
  });

  api.post<One<Static<typeof Rotate>>>('/console/api/webhooks/:id/rotate', { schema: { hide: true, params: Id, body: Rotate } }, async (req) =>
    okEnvelope('Secret rotated: copy it now', await rotateSecret(db, scopeOf(req, req.body.environment), req.params.id, req.body.overlap_seconds ?? DEFAULT_OVERLAP_S)),
  );

  api.post<One<Static<typeof Query>>>('/console/api/webhooks/:id/test', { schema: { hide: true, params: Id, body: Query } }, async (req) => {
    const scope = scopeOf(req, req.body.environment);
    await services.testEvents.perEndpoint.take(`${scope.accountId}:${scope.environment}:${req.params.id}`);
    await services.testEvents.perAccount.take(scope.accountId);
    return okEnvelope('Test event queued', await sendTestEvent(db, scope, req.params.id));
  });

  api.delete<One>('/console/api/webhooks/:id', { schema: { hide: true, params: Id, querystring: Query } }, async (req) => {
    await deleteEndpoint(db, scopeOf(req, req.query.environment), req.params.id);
    return okEnvelope('Webhook endpoint deleted', { id: req.params.id, deleted: true });
  });

  api.get<One>('/console/api/webhooks/:id/deliveries', { schema: { hide: true, params: Id, querystring: Query } }, async (req) =>
    okEnvelope('Deliveries', { items: await deliveries(db, scopeOf(req, req.query.environment), req.params.id, 50) }),
  );

  api.post<One<Static<typeof Replay>>>('/console/api/webhooks/:id/replay', { schema: { hide: true, params: Id, body: Replay } }, async (req) => {
    const n = await replay(db, scopeOf(req, req.body.environment), req.params.id, {
      eventId: req.body.event_id,
      since: req.body.since ? new Date(req.body.since) : req.body.event_id ? undefined : new Date(0),
    });
    return okEnvelope('Replay scheduled', { replayed: n });
  });
}
