// Owns comparing names for the operations that do (name-match itself, and `data.name_match` in
// mobile-to-bank-account, signature-match and the payout name check) under the account's thresholds.
// A caller's name the engine cannot read never gets here: the schemas' `personName` keyword
// (contract/fields.ts) refuses it first, a 422 naming the field, and so does comparingName's admit for
// an operation whose published schema does not carry the keyword (signature-match's `name`).
import { ApiError } from '../../errors.js';
import { matchNames, NameMatchInputError, type NameMatchResult } from '../../namematch/index.js';
import { NAME_RULE } from './schema.js';
import type { FinalOutcome, OperationRequest, Outcome } from '../../providers/connector.js';
import type { OperationContext, OperationDeps } from '../operation.js';

/** The two names compared under the account's thresholds (both already checked). */
export async function compareNames(deps: OperationDeps, accountId: string, name1: string, name2: string): Promise<NameMatchResult> {
  const { thresholds } = await deps.nameMatch.get(accountId);
  return matchNames(name1, name2, thresholds);
}

/**
 * A successful outcome with `name_match` added: the caller's name against the one the partner gave.
 * Where the partner gave none (a signature partner that reads no name), there is nothing to compare.
 * A pending outcome whose end is already known (the sandbox's) gets it in that end.
 */
export async function withNameMatch(outcome: Outcome, ctx: OperationContext, callers: string | undefined, partners: (fields: Record<string, unknown>) => unknown): Promise<Outcome> {
  const settle = outcome.settle && { ...outcome.settle, final: await compared(outcome.settle.final, ctx, callers, partners) };
  return { ...(await compared(outcome, ctx, callers, partners)), ...(settle ? { settle } : {}) };
}

async function compared<O extends Outcome | FinalOutcome>(outcome: O, ctx: Pick<OperationContext, 'deps' | 'accountId'>, callers: string | undefined, partners: (fields: Record<string, unknown>) => unknown): Promise<O> {
  const other = outcome.status === 'success' ? partners(outcome.fields) : undefined;
  if (callers === undefined || 'name_match' in outcome.fields || other === undefined || other === null) return outcome;
  const name_match = await compareWithPartnerName(ctx.deps, ctx.accountId, callers, other);
  return { ...outcome, fields: { ...outcome.fields, name_match } };
}

/**
 * The request and execute of an operation whose optional `name` is compared with a name its
 * partner returns (`data.name_match`, CONTRACT §11); and, for a live call whose end comes later (a
 * callback, an enquiry), the name kept until then and compared with the name in that end.
 */
export function comparingName<I extends { name?: string }>(
  request: (input: I, ctx: OperationContext) => OperationRequest,
  partnerName: (fields: Record<string, unknown>) => unknown,
  /**
   * What the operation adds to each answer from the input alone: in every outcome, and stored from a
   * live call's recovery point on (OperationDef.recorded), so an end that comes first keeps it too.
   */
  recorded: (input: I) => Record<string, unknown> = () => ({}),
) {
  return {
    recorded,
    /** A `name` the engine cannot read (no letter, another script, over 256 characters after NFKC) is refused before anything is recorded. */
    async admit(input: I) {
      admitName('name', input.name);
    },
    request,
    async execute(input: I, ctx: OperationContext) {
      const outcome = await withNameMatch(await ctx.connector.execute(request(input, ctx)), ctx, input.name, partnerName);
      return { ...outcome, fields: { ...recorded(input), ...outcome.fields } };
    },
    later: {
      keep: (input: I) => input.name ?? null,
      finish: (final: FinalOutcome, name: string, scope: Pick<OperationContext, 'deps' | 'accountId'>) => compared(final, scope, name, partnerName),
    },
  };
}

/** Errors: validation (422 naming `field`) when `name` is given and the engine cannot read it. */
export function admitName(field: string, name: string | undefined): void {
  if (name === undefined) return;
  try {
    matchNames(name, 'A');
  } catch (err) {
    if (!(err instanceof NameMatchInputError)) throw err;
    throw ApiError.validation([{ field, message: `${field} must be ${NAME_RULE}` }]);
  }
}

/**
 * The caller's name against a name a partner returned (an account holder, a VPA holder, a signer).
 * A partner's name the engine cannot read compares as nothing: a reject, never an error.
 */
export async function compareWithPartnerName(deps: OperationDeps, accountId: string, callers: string, partners: unknown): Promise<NameMatchResult> {
  try {
    return await compareNames(deps, accountId, callers, typeof partners === 'string' ? partners : '');
  } catch (err) {
    if (!(err instanceof NameMatchInputError) || err.field !== 'name_2') throw err;
    const { thresholds } = await deps.nameMatch.get(accountId);
    return {
      score: 0,
      optimistic_score: 0,
      pessimistic_score: 0,
      category: 'NO_MATCH',
      decision: 0 >= thresholds.review_at ? 'review' : 'reject',
      match: false,
      reasons: [{ code: 'NO_NAME_LEFT', detail: 'the partner returned no name that can be compared' }],
      algorithm_version: matchNames('A', 'A').algorithm_version,
    };
  }
}
