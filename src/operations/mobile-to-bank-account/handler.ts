// Mobile to Bank Account: the bank account linked to a mobile number, and whether it matches the
// account number / IFSC the client holds.
import { defineOperation } from '../operation.js';
import { MobileToBankRequest } from './schema.js';

export const mobileToBankAccount = defineOperation({
  slug: 'mobile-to-bank-account',
  method: 'POST',
  path: '/api/v1/bank-account/mobile-to-bank-account',
  tag: 'Banking and payments',
  summary: 'Mobile to Bank Account',
  description: 'Returns the bank account linked to a mobile number (account number masked), and `account_match` when account_number or ifsc is given.',
  schema: MobileToBankRequest,
  aliases: { input: 'mobile' },
  idempotency: { by: 'reference_id' },
  charge: 'completion',
  execute: (input, ctx) =>
    ctx.services.connector(ctx.environment, 'mobile-to-bank-account').mobileToBank({
      txnId: ctx.txnId,
      mobile: input.mobile,
      accountNumber: input.account_number,
      ifsc: input.ifsc,
    }),
});
