// Owns mobile to bank account's sandbox answer: 9000000000 has no linked account (CONTRACT §7); any
// other mobile has a made-up account at a real branch, compared with the account and IFSC given.
import type { OperationRequest, PartnerOutcome } from '../../providers/connector.js';
import { accountMatches } from '../../providers/sandbox/index.js';
import { linkedAccount } from '../../../shared/people.js';

export async function mobileToBankSandbox(req: OperationRequest): Promise<PartnerOutcome> {
  if (req.operation !== 'mobile-to-bank-account') throw new Error(`mobile to bank account cannot answer ${req.operation}`);
  if (req.mobile === '9000000000') {
    return { status: 'failed', message: 'No bank account is linked to this mobile number', account: {} };
  }
  const acc = linkedAccount(req.mobile);
  const account = {
    holderName: acc.account_holder_name,
    maskedNumber: 'X'.repeat(acc.account_number.length - 4) + acc.account_number.slice(-4),
    ifsc: acc.ifsc,
    bankName: acc.bank_name,
    branch: acc.branch,
  };
  return { status: 'success', message: 'Bank account found', account: { account, ...accountMatches(acc, req) } };
}
