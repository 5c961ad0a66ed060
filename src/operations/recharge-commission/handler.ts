// Recharge Commission: prepaid or postpaid mobile recharge; the answer shows the commission earned and
// the operator and circle it went to — looked up (CONTRACT §10) when the request left them out.
import { inrToPaise } from '../../money.js';
import { commissionPaise, MOBILE_OPERATORS } from '../../catalog/operators.js';
import { defineOperation } from '../operation.js';
import { RechargeRequest, MobileRechargeResult } from './schema.js';

export const rechargeCommission = defineOperation({
  slug: 'recharge-commission',
  operationId: 'rechargeCommission',
  method: 'POST',
  path: '/api/v1/mobile-recharge/recharge-commission',
  tag: 'Recharge and bill payments',
  summary: 'Recharge Commission',
  description: 'Recharges a mobile number. `commission` is what the operator pays on this recharge, in INR.',
  result: MobileRechargeResult,
  schema: RechargeRequest,
  idempotency: { by: 'idempotency_key', required: false },
  charge: 'success',
  async resolve(input, ctx) {
    if (input.operator) return;
    const found = await ctx.services.preflight.lookup(ctx.environment, input.mobile);
    input.operator = found.operator;
    input.circle ??= found.circle;
  },
  // resolve() has run: the operator is known from here on.
  amountPaise: (input) => inrToPaise(input.amount),
  commissionPaise: (input) => commissionPaise(MOBILE_OPERATORS, input.operator!, inrToPaise(input.amount)),
  async execute(input, ctx) {
    const operator = input.operator!;
    const outcome = await ctx.services.connector(ctx.environment, 'recharge-commission').execute({
      operation: 'recharge-commission',
      txnId: ctx.txnId,
      mobile: input.mobile,
      operator,
      circle: input.circle,
      type: input.type ?? 'prepaid',
      amountPaise: inrToPaise(input.amount),
      commissionPaise: commissionPaise(MOBILE_OPERATORS, operator, inrToPaise(input.amount)),
    });
    return { ...outcome, fields: { operator, circle: input.circle ?? null, ...outcome.fields } };
  },
});
