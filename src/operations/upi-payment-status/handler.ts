// UPI Payment Status: pays a VPA once per idempotency key and reports txn_id and the bank's UTR.
import { inrToPaise } from '../../money.js';
import { defineOperation } from '../operation.js';
import { UpiPaymentRequest, UpiPaymentResult } from './schema.js';
import { upiPaymentSandbox } from './sandbox.js';

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
  amountPaise: (input) => inrToPaise(input.amount),
  request: (input, ctx) => ({ operation: 'upi-payment-status', txnId: ctx.txnId, vpa: input.vpa, amountPaise: inrToPaise(input.amount) }),
  sandbox: upiPaymentSandbox,
});
