// Owns GET /health: the operator's liveness probe (the store's kind, each partner's breaker, the cluster's
// workers: cluster/health.ts). Not in the OpenAPI document, like /metrics.
import type { FastifyInstance } from 'fastify';
import type { Store } from '../db/client.js';
import type { PartnerRouter } from '../providers/router.js';
import { workersHealth } from '../cluster/health.js';

export function registerHealth(app: FastifyInstance, deps: { store: Store; partners: PartnerRouter | null }): void {
  app.get('/health', { schema: { hide: true } }, async () => ({ ok: true, store: deps.store.kind, partners: deps.partners?.health() ?? {}, workers: workersHealth() }));
}
