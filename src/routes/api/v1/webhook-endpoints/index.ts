// Owns the webhook endpoints API (CONTRACT §8), one file per resource: the endpoints (endpoints.ts),
// an endpoint's signing secret (secret.ts), its deliveries and replays (deliveries.ts). Endpoints are
// per account and environment; another account's endpoint is a 404. Registered in this order so that
// the OpenAPI document (and the SDK types generated from it) lists them as before.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../../../config.js';
import type { Db } from '../../../../db/client.js';
import { registerDeliveries } from './deliveries.js';
import { registerEndpoints } from './endpoints.js';
import { registerSecretRotation } from './secret.js';

export interface WebhookRouteDeps {
  db: Db;
  config: { webhooks: Pick<Config['webhooks'], 'allowPrivate'> };
}

export function registerWebhookRoutes(app: FastifyInstance, deps: WebhookRouteDeps): void {
  const { db } = deps;
  registerEndpoints(app, { db, allowPrivate: deps.config.webhooks.allowPrivate });
  registerSecretRotation(app, { db });
  registerDeliveries(app, { db });
}
