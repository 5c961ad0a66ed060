// Owns /api/v1 behind the key: one plugin scope whose access guard (http/guard.ts) authenticates every
// request before its body is read, then each resource's routes, in this order so that the OpenAPI
// document (and the SDK types generated from it) lists them as before. The receipt key's public route
// (/api/v1/consents/public-key) is outside this scope (routes/index.ts).
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../../services.js';
import type { Batches } from '../../../batches/index.js';
import { accessGuard } from '../../../http/guard.js';
import { OPERATIONS } from '../../../operations/registry.js';
import { registerOperation } from './operations.js';
import { registerTransactionRoutes } from './transactions.js';
import { registerAccountRoutes } from './account/wallet.js';
import { registerCatalogRoutes } from './catalog.js';
import { registerWebhookRoutes } from './webhook-endpoints/index.js';
import { registerAuditRoutes } from './audit-logs/index.js';
import { registerConsentRoutes } from './consents.js';
import { registerBatchRoutes } from './batches.js';
import { registerGoLiveRoutes } from './account/go-live.js';

export async function registerApi(app: FastifyInstance, services: Services, batches: Batches): Promise<void> {
  await app.register(async (api) => {
    api.addHook('onRequest', accessGuard(services));
    for (const def of OPERATIONS) registerOperation(api, def, services.operations);
    registerTransactionRoutes(api, services);
    registerAccountRoutes(api, services);
    registerCatalogRoutes(api, services);
    registerWebhookRoutes(api, services);
    registerAuditRoutes(api, services);
    registerConsentRoutes(api, services);
    await api.register(async (scope) => registerBatchRoutes(scope, batches)); // its own scope: it reads CSV and NDJSON
    registerGoLiveRoutes(api, services);
  });
}
