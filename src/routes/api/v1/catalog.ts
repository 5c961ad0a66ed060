// Owns the catalogue endpoints the seed refers to ("operator code obtained from a lookup API"): the
// operator listings, and recharge pre-flight (CONTRACT §10) — the operator and circle of a mobile,
// and the plans of an operator in a circle (preflight.ts) —, and its DTH counterpart: a subscriber's name,
// pack, balance and next recharge date.
import type { FastifyInstance } from 'fastify';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { okEnvelope } from '../../../http/envelope.js';
import { paiseToInr } from '../../../money.js';
import { DthOperator, SubscriberId } from '../../../operations/dth-recharge/schema.js';
import { Code, Mobile } from '../../../contract/fields.js';
import type { RechargePreflight } from '../../../catalog/preflight.js';
import { CIRCLES, codes, DTH_OPERATORS, MOBILE_OPERATORS, type Operator } from '../../../catalog/operators.js';
import { Envelope, Nullable, responses } from '../../../http/responses.js';

const nullable = <T extends TSchema>(s: T, description?: string) => Nullable(s, description ? { description } : {});
const CodeName = Type.Object({ code: Type.String(), name: Type.String() });
const Listing = (withCircles: boolean) =>
  Type.Object({
    operators: Type.Array(Type.Object({ ...CodeName.properties, commission_rate: Type.Number({ description: 'Commission the operator pays, in % of the amount' }) })),
    ...(withCircles ? { circles: Type.Array(CodeName) } : {}),
  });
const LookupData = Type.Object({
  mobile: Type.String(),
  operator: Type.String({ description: 'Mobile operator code' }),
  circle: Type.String({ description: 'Telecom circle code' }),
  ported: Type.Boolean({ description: 'The number was ported from another operator' }),
});
const PlansData = Type.Object({
  operator: Type.String(),
  circle: Type.String(),
  plans: Type.Array(
    Type.Object({
      amount: Type.Number({ description: 'INR' }),
      validity: Type.String({ description: 'Such as "28 days", "no expiry"' }),
      description: Type.String(),
      category: Type.Union(['unlimited', 'data', 'talktime', 'annual', 'other'].map((c) => Type.Literal(c))),
    }),
  ),
});
const SubscriberData = Type.Object({
  operator: Type.String(),
  subscriber_id: Type.String(),
  name: nullable(Type.String()),
  pack: nullable(Type.String(), 'The current pack'),
  balance: nullable(Type.Number(), 'INR'),
  next_recharge_date: nullable(Type.String({ format: 'date' }), 'YYYY-MM-DD'),
});

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

export function registerCatalogRoutes(app: FastifyInstance, services: { preflight: RechargePreflight }): void {
  // Pre-flight asks the live partner (502/504) and may find nobody (404: an unknown DTH subscriber).
  const schema = (operationId: string, summary: string, data: TSchema, errors: number[] = []) => ({
    operationId,
    summary,
    tags: ['Recharge and bill payments'],
    response: responses(Envelope(data), { errors }),
  });
  const PREFLIGHT = [404, 502, 504];
  app.get('/api/v1/mobile-recharge/operators', { schema: schema('listMobileOperators', 'Mobile operators, commission rates (%) and circles', Listing(true)) }, async () =>
    okEnvelope('Mobile operators', listing(MOBILE_OPERATORS, true)),
  );
  app.get('/api/v1/dth/operators', { schema: schema('listDthOperators', 'DTH operators and commission rates (%)', Listing(false)) }, async () =>
    okEnvelope('DTH operators', listing(DTH_OPERATORS, false)),
  );
  app.get<{ Querystring: Static<typeof LookupQuery> }>(
    '/api/v1/mobile-recharge/operator-lookup',
    { schema: { ...schema('lookupOperator', 'The operator and circle of a mobile number (sandbox: deterministic; live: the recharge partner, cached)', LookupData, PREFLIGHT), querystring: LookupQuery } },
    async (req) => {
      const { mobile } = req.query;
      const found = await services.preflight.lookup(req.auth!.environment, mobile);
      return okEnvelope('Operator found', { mobile, operator: found.operator, circle: found.circle, ported: found.ported });
    },
  );
  app.get<{ Querystring: Static<typeof PlansQuery> }>(
    '/api/v1/mobile-recharge/plans',
    { schema: { ...schema('listPlans', 'Prepaid plans of an operator in a circle (amounts in INR)', PlansData, PREFLIGHT), querystring: PlansQuery } },
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
    {
      schema: {
        ...schema(
          'getDthSubscriber',
          "A DTH subscriber's name, current pack, balance (INR) and next recharge date (sandbox: deterministic; live: the DTH partner's bill fetch, cached briefly)",
          SubscriberData,
          PREFLIGHT,
        ),
        querystring: SubscriberQuery,
      },
    },
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
