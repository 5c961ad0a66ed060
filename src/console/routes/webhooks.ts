// Owns the client's webhook pages: endpoints, recent deliveries, and replays.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Db } from '../../db/client.js';
import { okEnvelope } from '../../http/envelope.js';
import { deliveries, listEndpoints, pingEndpoint, replay } from '../../webhooks/store.js';
import { accountOf, Env } from './context.js';

const Query = Type.Object({ environment: Env });
const Replay = Type.Object({ environment: Env, event_id: Type.Optional(Type.String({ maxLength: 64 })), since: Type.Optional(Type.String({ format: 'date-time' })) });

export function registerWebhooks(api: FastifyInstance, db: Db): void {
  api.get<{ Querystring: Static<typeof Query> }>('/console/api/webhooks', { schema: { hide: true, querystring: Query } }, async (req) =>
    okEnvelope('Webhook endpoints', { items: await listEndpoints(db, { accountId: accountOf(req), environment: req.query.environment }) }),
  );

  api.get<{ Params: { id: string }; Querystring: Static<typeof Query> }>('/console/api/webhooks/:id/deliveries', { schema: { hide: true, querystring: Query } }, async (req) =>
    okEnvelope('Deliveries', { items: await deliveries(db, { accountId: accountOf(req), environment: req.query.environment }, req.params.id, 50) }),
  );

  api.post<{ Params: { id: string }; Body: Static<typeof Replay> }>('/console/api/webhooks/:id/replay', { schema: { hide: true, body: Replay } }, async (req) => {
    const n = await replay(db, { accountId: accountOf(req), environment: req.body.environment }, req.params.id, {
      eventId: req.body.event_id,
      since: req.body.since ? new Date(req.body.since) : req.body.event_id ? undefined : new Date(0),
    });
    return okEnvelope('Replay scheduled', { replayed: n });
  });

  // A test event to one endpoint; a 2xx answer to it verifies the endpoint for the go-live checklist.
  api.post<{ Params: { id: string }; Body: Static<typeof Query> }>('/console/api/webhooks/:id/ping', { schema: { hide: true, body: Query } }, async (req) =>
    okEnvelope('Test ping queued', await pingEndpoint(db, { accountId: accountOf(req), environment: req.body.environment }, req.params.id)),
  );
}
