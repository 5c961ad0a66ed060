// Owns the payout name check (CONTRACT §11): before a UPI payout with `beneficiary_name`, the VPA's
// registered holder is learnt from the payout partner (a validation moves no money), compared under
// the account's thresholds, and the payout refused — failed, nothing paid — on a reject, on a VPA that
// does not exist, or on a review when the account holds reviews. Otherwise it goes ahead with
// `name_match` in its answer. A validation that could not be made is a PartnerError: nothing is paid
// and nothing is charged (502), the client may retry.
import { moneyFields } from '../../providers/answer.js';
import { PartnerError, type Outcome } from '../../providers/connector.js';
import type { NameMatchResult } from '../../namematch/index.js';
import type { OperationContext } from '../operation.js';
import { compareWithPartnerName } from '../name-match/compare.js';

/** The refusal to pay, or null to go ahead with `nameMatch` shown. */
export async function nameCheck(ctx: OperationContext, vpa: string, beneficiaryName: string, amountPaise: number): Promise<{ refusal: Outcome | null; nameMatch: NameMatchResult | null }> {
  if (!ctx.connector.vpaHolder) throw new PartnerError('unavailable', 'No payout partner here validates VPAs, so the beneficiary name cannot be checked; nothing was paid');
  let holder;
  try {
    holder = await ctx.connector.vpaHolder(vpa);
  } catch (err) {
    if (err instanceof PartnerError) throw err;
    throw new PartnerError('unavailable', `The VPA could not be validated (${(err as Error).message}); nothing was paid`);
  }
  const refused = (message: string, nameMatch: NameMatchResult | null): Outcome => ({
    status: 'failed',
    message,
    fields: { ...moneyFields({ txnId: ctx.txnId, amountPaise, utr: null }), ...(nameMatch ? { name_match: nameMatch } : {}) },
  });
  if (!holder.exists) return { refusal: refused('The VPA does not exist; nothing was paid', null), nameMatch: null };
  const nameMatch = await compareWithPartnerName(ctx.deps, ctx.accountId, beneficiaryName, holder.name);
  if (nameMatch.decision === 'reject') {
    return { refusal: refused("The beneficiary name does not match the VPA holder's registered name; nothing was paid", nameMatch), nameMatch };
  }
  if (nameMatch.decision === 'review' && (await ctx.deps.nameMatch.get(ctx.accountId)).on_review === 'hold') {
    return { refusal: refused("The beneficiary name needs a review against the VPA holder's registered name, and this account holds such payouts; nothing was paid", nameMatch), nameMatch };
  }
  return { refusal: null, nameMatch };
}
