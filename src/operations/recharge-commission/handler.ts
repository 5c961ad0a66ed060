// Recharge Commission: prepaid or postpaid mobile recharge; the answer shows the commission earned and
// the operator and circle it went to — looked up (CONTRACT §10) when the request left them out.
import { paiseOf } from '../../contract/fields.js';
import { commissionPaise, MOBILE_OPERATORS } from '../../catalog/operators.js';
import { sandboxRecharge } from '../../providers/sandbox/index.js';
import type { OperationRequest } from '../../providers/connector.js';
import { defineOperation, type OperationContext } from '../operation.js';
import { RechargeRequest, MobileRechargeResult } from './schema.js';

/** What the recharge partner is asked: resolve() has run, so the operator is known. */
const request = (input: RechargeRequest, ctx: OperationContext): OperationRequest => ({
  operation: 'recharge-commission',
  txnId: ctx.txnId,
  mobile: input.mobile,
  operator: input.operator!,
  circle: input.circle,
  type: input.type ?? 'prepaid',
  amountPaise: paiseOf(input.amount),
  commissionPaise: commissionPaise(MOBILE_OPERATORS, input.operator!, paiseOf(input.amount)),
});

/** Which operator and circle the recharge goes to: resolve() has run. */
const chosen = (input: RechargeRequest) => ({ operator: input.operator!, circle: input.circle ?? null });

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
  example: { reference_id: 'recharge-0001', consent: true, mobile: '9876543210', operator: 'JIO', amount: 199 },
  idempotency: { by: 'idempotency_key', required: false },
  charge: 'success',
  feePaise: 0,
  dataClass: 'bodies',
  async resolve(input, ctx) {
    if (input.operator) return;
    const found = await ctx.deps.preflight.lookup(ctx.environment, input.mobile);
    input.operator = found.operator;
    input.circle ??= found.circle;
  },
  // resolve() has run: the operator is known from here on.
  amountPaise: (input) => paiseOf(input.amount),
  commissionPaise: (input) => commissionPaise(MOBILE_OPERATORS, input.operator!, paiseOf(input.amount)),
  request,
  async sandbox(req, opts) {
    if (req.operation !== 'recharge-commission') throw new Error(`mobile recharge cannot answer ${req.operation}`);
    return sandboxRecharge({ ...req, number: req.mobile }, MOBILE_OPERATORS, opts.pendingMs);
  },
  // The answer says which operator and circle the recharge went to (looked up when left out), from
  // the recovery point on: a callback may end the recharge before execute's answer is written.
  recorded: chosen,
  async execute(input, ctx) {
    const outcome = await ctx.connector.execute(request(input, ctx));
    return { ...outcome, fields: { ...chosen(input), ...outcome.fields } };
  },
});
