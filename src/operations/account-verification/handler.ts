// Bank Account Verification (CONTRACT §14): does an account exist at this IFSC and can it be credited,
// and whose is it. The partner's finding (valid, invalid, or unknown when the bank did not answer) is
// shown as it is; Sangam adds the bank from the IFSC directory and, with `name`, the §11 name match
// against name_at_bank. A well-formed IFSC not in the directory is a 422 from the schema.
import { bankNameOf } from '../../../shared/ifsc.js';
import { defineOperation } from '../operation.js';
import { comparingName } from '../name-match/compare.js';
import { AccountVerificationRequest, AccountVerificationResult } from './schema.js';
import { accountVerificationSandbox } from './sandbox.js';


export const accountVerification = defineOperation({
  slug: 'account-verification',
  operationId: 'accountVerification',
  method: 'POST',
  path: '/api/v1/bank-account/account-verification',
  tag: 'Banking and payments',
  summary: 'Bank Account Verification',
  description:
    'Verifies a bank account before paying it: `account_status` valid, invalid (with `reason`) or unknown (the bank did not answer: failed or pending, never a guess), ' +
    "the holder's `name_at_bank`, the `bank` from the IFSC directory and the partner's `method` (penny_drop with its `utr`, or pennyless). With `name`, `name_match` compares it with name_at_bank. " +
    'The fee is paid once, whatever the check found. An ifsc that is well-formed but not in the IFSC directory is a 422 before any partner call or fee.',
  schema: AccountVerificationRequest,
  example: { reference_id: 'acv-0001', consent: true, account_number: '919876543210', ifsc: 'HDFC0000001', name: 'Priya Sharma' },
  result: AccountVerificationResult,
  idempotency: { by: 'reference_id' },
  charge: 'completion',
  feePaise: 200,
  dataClass: 'identity',
  sandbox: accountVerificationSandbox,
  ...comparingName<AccountVerificationRequest>(
    (input, ctx) => ({ operation: 'account-verification', txnId: ctx.txnId, accountNumber: input.account_number, ifsc: input.ifsc, name: input.name }),
    (f) => f.name_at_bank,
    // The bank the IFSC names.
    (input) => ({ bank: { name: bankNameOf(input.ifsc), branch: null, ifsc: input.ifsc } }),
  ),
});
