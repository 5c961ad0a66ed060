// Owns the payout name check (CONTRACT §11): before a UPI payout with `beneficiary_name`, the VPA's
// registered holder is learnt from the payout partner (a validation moves no money), compared under
// the account's thresholds, and the payout refused — failed, nothing paid — on a reject, on a VPA that
// does not exist, or on a review when the account holds reviews. Otherwise it goes ahead with
// `name_match` in its answer. A validation that could not be made is a PartnerError: nothing is paid
// and nothing is charged (502), the client may retry.
// Verify once, pay many (CONTRACT §14): a valid vpa-verification of the same VPA by the same account,
// younger than its reuse window, answers instead of a new validation; `name_match` then says so
// (`source: "vpa-verification"` and which `verification`), and the saving is counted in the metrics.
import { moneyFields } from '../../providers/answer.js';
import { PartnerError, type Outcome, type VpaHolder } from '../../providers/connector.js';
import type { NameMatchResult } from '../../namematch/index.js';
import type { OperationContext } from '../operation.js';
import { compareWithPartnerName } from '../name-match/compare.js';
import { recentVpaVerification } from '../vpa-verification/reuse.js';

/** The comparison a payout shows, and where the holder's name came from when it was not a new validation. */
export type PayoutNameMatch = NameMatchResult & { source?: 'vpa-verification'; verification?: { txn_id: string; reference_id: string; verified_at: string } };

/** The VPA's holder: from a recent verification of it, or from the payout partner's validation. */
async function holderOf(ctx: OperationContext, vpa: string): Promise<{ holder: VpaHolder; via: Pick<PayoutNameMatch, 'source' | 'verification'> }> {
  const reused = await recentVpaVerification(ctx.deps.db, ctx.accountId, ctx.environment, vpa);
  if (reused) {
    ctx.deps.metrics.verificationReused('vpa-verification', ctx.environment);
    const verification = { txn_id: reused.txnId, reference_id: reused.referenceId, verified_at: reused.verifiedAt.toISOString() };
    return { holder: { exists: true, name: reused.nameAtBank }, via: { source: 'vpa-verification', verification } };
  }
  if (!ctx.connector.vpaHolder) throw new PartnerError('unavailable', 'No payout partner here validates VPAs, so the beneficiary name cannot be checked; nothing was paid');
  try {
    return { holder: await ctx.connector.vpaHolder(vpa), via: {} };
  } catch (err) {
    if (err instanceof PartnerError) throw err;
    throw new PartnerError('unavailable', `The VPA could not be validated (${(err as Error).message}); nothing was paid`);
  }
}

/** The refusal to pay, or null to go ahead with `nameMatch` shown. */
export async function nameCheck(ctx: OperationContext, vpa: string, beneficiaryName: string, amountPaise: number): Promise<{ refusal: Outcome | null; nameMatch: PayoutNameMatch | null }> {
  const { holder, via } = await holderOf(ctx, vpa);
  const refused = (message: string, nameMatch: PayoutNameMatch | null): Outcome => ({
    status: 'failed',
    message,
    fields: { ...moneyFields({ txnId: ctx.txnId, amountPaise, utr: null }), ...(nameMatch ? { name_match: nameMatch } : {}) },
  });
  if (!holder.exists) return { refusal: refused('The VPA does not exist; nothing was paid', null), nameMatch: null };
  const nameMatch: PayoutNameMatch = { ...(await compareWithPartnerName(ctx.deps, ctx.accountId, beneficiaryName, holder.name)), ...via };
  if (nameMatch.decision === 'reject') {
    return { refusal: refused("The beneficiary name does not match the VPA holder's registered name; nothing was paid", nameMatch), nameMatch };
  }
  if (nameMatch.decision === 'review' && (await ctx.deps.nameMatch.get(ctx.accountId)).on_review === 'hold') {
    return { refusal: refused("The beneficiary name needs a review against the VPA holder's registered name, and this account holds such payouts; nothing was paid", nameMatch), nameMatch };
  }
  return { refusal: null, nameMatch };
}
