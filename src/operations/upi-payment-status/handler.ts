// UPI Payment Status: pays a VPA once per idempotency key and reports txn_id and the bank's UTR.
import { paiseOf } from '../../contract/fields.js';
import type { OperationRequest } from '../../providers/connector.js';
import { defineOperation, type OperationContext } from '../operation.js';
import { UpiPaymentRequest, UpiPaymentResult } from './schema.js';
import { upiPaymentSandbox } from './sandbox.js';
import { nameCheck } from './name-check.js';

/** The payout a partner is asked to make. */
const request = (input: UpiPaymentRequest, ctx: OperationContext): OperationRequest => ({ operation: 'upi-payment-status', txnId: ctx.txnId, vpa: input.vpa, amountPaise: paiseOf(input.amount) });

export const upiPaymentStatus = defineOperation({
  slug: 'upi-payment-status',
  operationId: 'upiPaymentStatus',
  method: 'GET',
  path: '/api/v1/upi-payment/upi-payment-status',
  tag: 'Banking and payments',
  summary: 'UPI Payment Status',
  description:
    'Pays `amount` INR to `vpa`. Fields travel in the query string or a JSON body; POST is accepted too. ' +
    '`idempotency_key` (or the Idempotency-Key header) is required: the same key replays the first answer.',
  result: UpiPaymentResult,
  schema: UpiPaymentRequest,
  example: { reference_id: 'upi-0001', consent: true, vpa: 'success@sandbox', amount: 100.5, idempotency_key: '6f1c2a9e-3b7d-4c55-9a0e-2d4b8f7c1e90' },
  idempotency: { by: 'idempotency_key', required: true },
  charge: 'success',
  feePaise: 100,
  dataClass: 'bodies',
  amountPaise: (input) => paiseOf(input.amount),
  request,
  sandbox: upiPaymentSandbox,
  // With `beneficiary_name`, the VPA holder's name is checked before anything is paid (name-check.ts).
  own: ['name_match'],
  async execute(input, ctx) {
    const req = request(input, ctx);
    if (input.beneficiary_name === undefined) return ctx.connector.execute(req);
    const { refusal, nameMatch } = await nameCheck(ctx, input.vpa, input.beneficiary_name, paiseOf(input.amount));
    if (refusal) return refusal;
    const outcome = await ctx.connector.execute(req);
    return { ...outcome, fields: { ...outcome.fields, name_match: nameMatch } };
  },
});
