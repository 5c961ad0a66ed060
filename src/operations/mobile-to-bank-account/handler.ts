// Mobile to Bank Account: the bank account linked to a mobile number, and whether it matches the
// account number / IFSC the client holds. The IFSC is checked against the directory by its schema.
import { defineOperation } from '../operation.js';
import { MobileToBankRequest, MobileToBankResult } from './schema.js';
import { mobileToBankSandbox } from './sandbox.js';
import { comparingName } from '../name-match/compare.js';

export const mobileToBankAccount = defineOperation({
  slug: 'mobile-to-bank-account',
  operationId: 'mobileToBankAccount',
  method: 'POST',
  path: '/api/v1/bank-account/mobile-to-bank-account',
  tag: 'Banking and payments',
  summary: 'Mobile to Bank Account',
  description:
    'Returns the bank account linked to a mobile number (account number masked, bank name from the IFSC directory), and `account_number_match` / `ifsc_match` when account_number / ifsc is given. An ifsc that is well-formed but not in the IFSC directory is a 422 before any partner call or fee.',
  schema: MobileToBankRequest,
  example: { reference_id: 'bank-0001', consent: true, mobile: '9876543210' },
  result: MobileToBankResult,
  aliases: { input: 'mobile' },
  idempotency: { by: 'reference_id' },
  charge: 'completion',
  feePaise: 200,
  dataClass: 'identity',
  sandbox: mobileToBankSandbox,
  // With `name`, the account holder's name is compared with it (CONTRACT §11).
  ...comparingName<MobileToBankRequest>(
    (input, ctx) => ({ operation: 'mobile-to-bank-account', txnId: ctx.txnId, mobile: input.mobile, accountNumber: input.account_number, ifsc: input.ifsc }),
    (f) => (f.account as { account_holder_name?: unknown } | undefined)?.account_holder_name,
  ),
});
