// Owns bank account verification's sandbox answer (CONTRACT §7, §14), by the account number's last four
// digits: 0001 does not exist and 0003 is closed (invalid), 0004 the bank does not answer (unknown,
// failed), 0002 the bank answers late (unknown, pending, then valid), 0005 is checked pennyless; any
// other is valid by penny drop. The holder of account `91`+M is the person mobile-to-bank-account links
// to M; any other account's holder is a made-up person derived from the number.
import { randomDigits } from '../../ids.js';
import type { OperationRequest, PartnerFinal, PartnerOutcome } from '../../providers/connector.js';
import { sandboxPending } from '../../providers/sandbox/index.js';
import { linkedAccount, person } from '../../../shared/people.js';

const INVALID: Record<string, string> = { '0001': 'The account does not exist', '0003': 'The account is closed' };

/** The sandbox's holder of an account number. */
export function sandboxAccountHolder(accountNumber: string): string {
  const mobile = accountNumber.slice(2);
  return accountNumber.startsWith('91') && /^[6-9]\d{9}$/.test(mobile) ? linkedAccount(mobile).account_holder_name : person(`account:${accountNumber}`).name;
}

export async function accountVerificationSandbox(req: OperationRequest, opts: { pendingMs: number }): Promise<PartnerOutcome> {
  if (req.operation !== 'account-verification') throw new Error(`account verification cannot answer ${req.operation}`);
  const last4 = req.accountNumber.slice(-4);
  const reason = INVALID[last4];
  if (reason) return { status: 'success', message: `Bank account is invalid: ${reason.toLowerCase()}`, bankAccount: { status: 'invalid', reason, nameAtBank: null, method: 'penny_drop' } };
  if (last4 === '0004') return { status: 'failed', message: 'The bank did not answer; try again later', bankAccount: { status: 'unknown', nameAtBank: null } };
  const pennyless = last4 === '0005';
  const valid: PartnerFinal = {
    status: 'success',
    message: 'Bank account is valid',
    bankAccount: { status: 'valid', nameAtBank: sandboxAccountHolder(req.accountNumber), ...(pennyless ? { method: 'pennyless' } : { method: 'penny_drop', utr: randomDigits(12) }) },
  };
  if (last4 === '0002') return sandboxPending('Verification submitted; awaiting the bank', { bankAccount: { status: 'unknown', nameAtBank: null } }, valid, opts.pendingMs);
  return valid;
}
