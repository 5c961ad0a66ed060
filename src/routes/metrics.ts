// Owns GET /metrics: the Prometheus exposition of metrics.ts, pending gauges collected first. An
// operator's route, not in the OpenAPI document.
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../metrics.js';

export function registerMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
    await metrics.collectPending();
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
