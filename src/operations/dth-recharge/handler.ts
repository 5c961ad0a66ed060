// DTH Recharge: recharges a DTH subscriber; the answer shows the commission earned.
import { paiseOf } from '../../contract/fields.js';
import { commissionPaise, DTH_OPERATORS } from '../../catalog/operators.js';
import { sandboxRecharge } from '../../providers/sandbox/index.js';
import { defineOperation } from '../operation.js';
import { DthRechargeRequest } from './schema.js';
import { RechargeResult } from '../recharge-commission/schema.js';

export const dthRecharge = defineOperation({
  slug: 'dth-recharge',
  operationId: 'dthRecharge',
  method: 'POST',
  path: '/api/v1/dth/dth-recharge',
  tag: 'DTH and telecom',
  summary: 'DTH Recharge',
  description: 'Recharges a DTH subscriber (`subscriber_id`, or `mobile` for the registered mobile number).',
  result: RechargeResult,
  schema: DthRechargeRequest,
  example: { reference_id: 'dth-0001', consent: true, subscriber_id: '1234567890', operator: 'TS', amount: 350 },
  aliases: { mobile: 'subscriber_id' },
  idempotency: { by: 'idempotency_key', required: false },
  charge: 'success',
  feePaise: 0,
  dataClass: 'bodies',
  amountPaise: (input) => paiseOf(input.amount),
  commissionPaise: (input) => commissionPaise(DTH_OPERATORS, input.operator, paiseOf(input.amount)),
  request: (input, ctx) => ({
    operation: 'dth-recharge',
    txnId: ctx.txnId,
    subscriberId: input.subscriber_id,
    operator: input.operator,
    amountPaise: paiseOf(input.amount),
    commissionPaise: commissionPaise(DTH_OPERATORS, input.operator, paiseOf(input.amount)),
  }),
  async sandbox(req, opts) {
    if (req.operation !== 'dth-recharge') throw new Error(`DTH recharge cannot answer ${req.operation}`);
    return sandboxRecharge({ ...req, number: req.subscriberId }, DTH_OPERATORS, opts.pendingMs);
  },
});
