// Recharge Commission: prepaid or postpaid mobile recharge; the answer shows the commission earned.
import { inrToPaise } from '../../money.js';
import { commissionPaise, MOBILE_OPERATORS } from '../../catalog/operators.js';
import { defineOperation } from '../operation.js';
import { RechargeRequest } from './schema.js';

export const rechargeCommission = defineOperation({
  slug: 'recharge-commission',
  method: 'POST',
  path: '/api/v1/mobile-recharge/recharge-commission',
  tag: 'Recharge and bill payments',
  summary: 'Recharge Commission',
  description: 'Recharges a mobile number. `commission` is what the operator pays on this recharge, in INR.',
  schema: RechargeRequest,
  idempotency: { by: 'idempotency_key', required: false },
  charge: 'success',
  amountPaise: (input) => inrToPaise(input.amount),
  commissionPaise: (input) => commissionPaise(MOBILE_OPERATORS, input.operator, inrToPaise(input.amount)),
  execute: (input, ctx) =>
    ctx.services.connector(ctx.environment, 'recharge-commission').execute({
      operation: 'recharge-commission',
      txnId: ctx.txnId,
      mobile: input.mobile,
      operator: input.operator,
      circle: input.circle,
      type: input.type ?? 'prepaid',
      amountPaise: inrToPaise(input.amount),
      commissionPaise: commissionPaise(MOBILE_OPERATORS, input.operator, inrToPaise(input.amount)),
    }),
});
