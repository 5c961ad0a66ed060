// Owns UPI ID verification's sandbox answer (CONTRACT §7, §14), with the UPI magic values: novpa@sandbox
// does not exist (invalid), failure@sandbox the bank does not answer (unknown, failed), pending@sandbox
// and pendingfail@sandbox answer late (unknown, pending, then valid or failed). Any other UPI ID is
// valid, held by the same person the payout name check finds (shared/people.ts vpaHolderName), with a
// savings account at a real branch derived from it.
import type { OperationRequest, PartnerFinal, PartnerOutcome } from '../../providers/connector.js';
import { sandboxPending } from '../../providers/sandbox/index.js';
import { SANDBOX_NO_SUCH_VPA, vpaHolderName } from '../../../shared/people.js';
import { ownBranchesOf } from '../../../shared/ifsc.js';
import { SeededRandom } from '../../../shared/random.js';

const BANKS = ['HDFC', 'ICIC', 'SBIN', 'UTIB', 'KKBK'] as const;

export async function vpaVerificationSandbox(req: OperationRequest, opts: { pendingMs: number }): Promise<PartnerOutcome> {
  if (req.operation !== 'vpa-verification') throw new Error(`UPI ID verification cannot answer ${req.operation}`);
  const vpa = req.vpa.toLowerCase();
  const unknown = { vpa: { status: 'unknown', nameAtBank: null } } as const;
  const noAnswer: PartnerFinal = { status: 'failed', message: 'The bank did not answer; try again later', ...unknown };
  if (vpa === SANDBOX_NO_SUCH_VPA) return { status: 'success', message: 'UPI ID is invalid: it does not exist', vpa: { status: 'invalid', reason: 'The UPI ID does not exist', nameAtBank: null } };
  if (vpa === 'failure@sandbox') return noAnswer;
  const r = new SeededRandom(`vpa-account:${vpa}`);
  const valid: PartnerFinal = {
    status: 'success',
    message: 'UPI ID is valid',
    vpa: { status: 'valid', nameAtBank: vpaHolderName(req.vpa), ifsc: r.pick(ownBranchesOf(r.pick(BANKS))), accountType: 'savings' },
  };
  if (vpa === 'pending@sandbox' || vpa === 'pendingfail@sandbox') {
    return sandboxPending('Verification submitted; awaiting the bank', unknown, vpa === 'pending@sandbox' ? valid : noAnswer, opts.pendingMs);
  }
  return valid;
}
