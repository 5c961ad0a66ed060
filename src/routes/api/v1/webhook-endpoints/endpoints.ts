// Owns the webhook endpoints resource: register one (the secret is shown once; its URL passes the
// SSRF guard), list them, delete one. Another account's endpoint is a 404.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Db } from '../../../../db/client.js';
import { okEnvelope } from '../../../../http/envelope.js';
import { Envelope, responses } from '../../../../http/responses.js';
import { deleteEndpoint, EVENT_TYPES, listEndpoints } from '../../../../webhooks/store.js';
import { registerEndpoint } from '../../../../webhooks/endpoints.js';
import { Endpoint, ENDPOINT_ERRORS, IdParams, scope, Secret, TAGS } from './schemas.js';

export interface EndpointDeps {
  db: Db;
  /** SANGAM_WEBHOOK_ALLOW_PRIVATE: private and loopback receivers are allowed (tests, a local setup). */
  allowPrivate: boolean;
}

const CreateBody = Type.Object({
  url: Type.String({ format: 'uri', minLength: 1, maxLength: 2048, description: 'https URL of your receiver (http allowed in sandbox)', errorMessage: 'url must be an http(s) URL of at most 2048 characters' }),
  event_types: Type.Optional(
    Type.Array(Type.String({ enum: [...EVENT_TYPES] }), {
      minItems: 1,
      uniqueItems: true,
      description: 'Only these events (default: all)',
      errorMessage: `event_types must be a non-empty list of ${EVENT_TYPES.join(', ')}`,
    }),
  ),
});

const createSchema = {
  operationId: 'createWebhookEndpoint',
  summary: 'Register a webhook endpoint; the signing secret is shown once',
  tags: TAGS,
  body: CreateBody,
  response: responses(Envelope(Type.Object({ ...Endpoint, secret: Secret })), { errors: [413, 415] }),
};
const listSchema = { operationId: 'listWebhookEndpoints', summary: 'List webhook endpoints', tags: TAGS, response: responses(Envelope(Type.Object({ items: Type.Array(Type.Object(Endpoint)) }))) };
const deleteSchema = {
  operationId: 'deleteWebhookEndpoint',
  summary: 'Delete a webhook endpoint (pending deliveries to it stop)',
  tags: TAGS,
  params: IdParams,
  response: responses(Envelope(Type.Object({ id: Type.String(), deleted: Type.Literal(true) })), ENDPOINT_ERRORS),
};

export function registerEndpoints(app: FastifyInstance, deps: EndpointDeps): void {
  app.post<{ Body: Static<typeof CreateBody> }>('/api/v1/webhook-endpoints', { schema: createSchema }, async (req) => {
    const created = await registerEndpoint(deps.db, scope(req), { url: req.body.url, eventTypes: req.body.event_types ?? null }, deps.allowPrivate);
    return okEnvelope('Webhook endpoint created', created);
  });

  app.get('/api/v1/webhook-endpoints', { schema: listSchema }, async (req) => okEnvelope('Webhook endpoints', { items: await listEndpoints(deps.db, scope(req)) }));

  app.delete<{ Params: Static<typeof IdParams> }>('/api/v1/webhook-endpoints/:id', { schema: deleteSchema }, async (req) => {
    await deleteEndpoint(deps.db, scope(req), req.params.id);
    return okEnvelope('Webhook endpoint deleted', { id: req.params.id, deleted: true });
  });
}
