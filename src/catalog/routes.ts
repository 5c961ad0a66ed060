// Owns the operator lookup endpoints the seed refers to ("operator code obtained from a lookup API").
import type { FastifyInstance } from 'fastify';
import { okEnvelope } from '../http/envelope.js';
import { CIRCLES, DTH_OPERATORS, MOBILE_OPERATORS, type Operator } from './operators.js';

const listing = (ops: readonly Operator[], withCircles: boolean) => ({
  operators: ops.map((o) => ({ code: o.code, name: o.name, commission_rate: o.commission_bp / 100 })),
  ...(withCircles ? { circles: CIRCLES } : {}),
});

export function registerCatalogRoutes(app: FastifyInstance): void {
  const schema = (summary: string) => ({ summary, tags: ['Recharge and bill payments'] });
  app.get('/api/v1/mobile-recharge/operators', { schema: schema('Mobile operators, commission rates (%) and circles') }, async () =>
    okEnvelope('Mobile operators', listing(MOBILE_OPERATORS, true)),
  );
  app.get('/api/v1/dth/operators', { schema: schema('DTH operators and commission rates (%)') }, async () =>
    okEnvelope('DTH operators', listing(DTH_OPERATORS, false)),
  );
}
