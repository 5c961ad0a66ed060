// Owns the catalogue endpoints the seed refers to ("operator code obtained from a lookup API"): the
// operator listings, and recharge pre-flight (CONTRACT §10) — the operator and circle of a mobile,
// and the plans of an operator in a circle (preflight.ts) —, and its DTH counterpart: a subscriber's name,
// pack, balance and next recharge date.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { okEnvelope } from '../http/envelope.js';
import { paiseToInr } from '../money.js';
import { DthOperator, SubscriberId } from '../operations/dth-recharge/schema.js';
import { Code, Mobile } from '../operations/fields.js';
import type { Services } from '../services.js';
import { CIRCLES, codes, DTH_OPERATORS, MOBILE_OPERATORS, type Operator } from './operators.js';

const listing = (ops: readonly Operator[], withCircles: boolean) => ({
  operators: ops.map((o) => ({ code: o.code, name: o.name, commission_rate: o.commission_bp / 100 })),
  ...(withCircles ? { circles: CIRCLES } : {}),
});

const LookupQuery = Type.Object({ mobile: Mobile });
const PlansQuery = Type.Object({
  operator: Code('operator', codes(MOBILE_OPERATORS), 'Mobile operator code'),
  circle: Code('circle', codes(CIRCLES), 'Telecom circle code'),
});
const SubscriberQuery = Type.Object({ operator: DthOperator, subscriber_id: SubscriberId });

export function registerCatalogRoutes(app: FastifyInstance, services: Services): void {
  const schema = (summary: string) => ({ summary, tags: ['Recharge and bill payments'] });
  app.get('/api/v1/mobile-recharge/operators', { schema: schema('Mobile operators, commission rates (%) and circles') }, async () =>
    okEnvelope('Mobile operators', listing(MOBILE_OPERATORS, true)),
  );
  app.get('/api/v1/dth/operators', { schema: schema('DTH operators and commission rates (%)') }, async () =>
    okEnvelope('DTH operators', listing(DTH_OPERATORS, false)),
  );
  app.get<{ Querystring: Static<typeof LookupQuery> }>(
    '/api/v1/mobile-recharge/operator-lookup',
    { schema: { ...schema('The operator and circle of a mobile number (sandbox: deterministic; live: the recharge partner, cached)'), querystring: LookupQuery } },
    async (req) => {
      const { mobile } = req.query;
      const found = await services.preflight.lookup(req.auth!.environment, mobile);
      return okEnvelope('Operator found', { mobile, operator: found.operator, circle: found.circle, ported: found.ported });
    },
  );
  app.get<{ Querystring: Static<typeof PlansQuery> }>(
    '/api/v1/mobile-recharge/plans',
    { schema: { ...schema('Prepaid plans of an operator in a circle (amounts in INR)'), querystring: PlansQuery } },
    async (req) => {
      const { operator, circle } = req.query;
      const plans = await services.preflight.plans(req.auth!.environment, operator, circle);
      return okEnvelope('Plans', {
        operator,
        circle,
        plans: plans.map((p) => ({ amount: paiseToInr(p.amountPaise), validity: p.validity, description: p.description, category: p.category })),
      });
    },
  );
  app.get<{ Querystring: Static<typeof SubscriberQuery> }>(
    '/api/v1/dth/subscriber-info',
    { schema: { ...schema("A DTH subscriber's name, current pack, balance (INR) and next recharge date (sandbox: deterministic; live: the DTH partner's bill fetch, cached briefly)"), querystring: SubscriberQuery } },
    async (req) => {
      const { operator, subscriber_id } = req.query;
      const s = await services.preflight.dthSubscriber(req.auth!.environment, operator, subscriber_id);
      return okEnvelope('Subscriber found', {
        operator,
        subscriber_id,
        name: s.name,
        pack: s.pack,
        balance: s.balancePaise === null ? null : paiseToInr(s.balancePaise),
        next_recharge_date: s.nextRechargeDate,
      });
    },
  );
}
