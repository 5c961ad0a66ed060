// UPI ID Verification (CONTRACT §14): does a VPA exist, and whose is it. The partner's finding (valid,
// invalid, or unknown when the bank did not answer) is shown as it is, with the VPA itself (so that a
// payout's name check can find this verification: reuse.ts) and, with `name`, the §11 name match
// against name_at_bank.
import { defineOperation } from '../operation.js';
import { comparingName } from '../name-match/compare.js';
import { VpaVerificationRequest, VpaVerificationResult } from './schema.js';
import { vpaVerificationSandbox } from './sandbox.js';


export const vpaVerification = defineOperation({
  slug: 'vpa-verification',
  operationId: 'vpaVerification',
  method: 'POST',
  path: '/api/v1/upi-payment/vpa-verification',
  tag: 'Banking and payments',
  summary: 'UPI ID Verification',
  description:
    'Verifies a UPI ID (VPA) before paying it: `vpa_status` valid, invalid (with `reason`) or unknown (the bank did not answer: failed or pending, never a guess), ' +
    "the holder's `name_at_bank`, and `ifsc` / `account_type` where the partner returns them. With `name`, `name_match` compares it with name_at_bank. " +
    "The fee is paid once, whatever the check found. A UPI payout with beneficiary_name to the same VPA within the account's reuse window uses this answer instead of a new validation.",
  schema: VpaVerificationRequest,
  example: { reference_id: 'vpav-0001', consent: true, vpa: 'ramesh.kumar@okbank', name: 'Ramesh Kumar' },
  result: VpaVerificationResult,
  idempotency: { by: 'reference_id' },
  charge: 'completion',
  feePaise: 100,
  dataClass: 'identity',
  sandbox: vpaVerificationSandbox,
  ...comparingName<VpaVerificationRequest>(
    (input, ctx) => ({ operation: 'vpa-verification', txnId: ctx.txnId, vpa: input.vpa, name: input.name }),
    (f) => f.name_at_bank,
    // The VPA itself (a payout's name check finds this verification by it: reuse.ts).
    (input) => ({ vpa: input.vpa }),
  ),
});
