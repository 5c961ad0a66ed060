// Owns the name-match engine's public face (CONTRACT §11): matchNames compares two names, in Latin or
// any of ten Indian scripts, and answers score, optimistic and pessimistic scores, Cashfree's category,
// the decision against an account's thresholds, and the reasons. Pure, deterministic and synchronous:
// the same two names and thresholds always give the same answer, with no I/O.
//
// Errors: NameMatchInputError — a name that is not a string, empty, over 200 characters (or 256 after
// NFKC), without letters or in a script not read (`field` names it); thresholds out of 0–100 or
// review_at above approve_at.
import { align, explain, MAX_SEARCHED_PAIRS, type Alignment } from './align.js';
import { NameMatchInputError } from './errors.js';
import { parseName, type ParsedName } from './parse.js';
import { startComparison } from './work.js';
import { ALGORITHM_VERSION, type NameMatchCategory, type NameMatchDecision, type NameMatchReason, type NameMatchResult, type NameMatchThresholds } from './types.js';

export { NameMatchInputError, type NameMatchErrorCode, type NameMatchField } from './errors.js';
export { ALGORITHM_VERSION, CATEGORIES, REASON_CODES, type NameMatchCategory, type NameMatchDecision, type NameMatchReason, type NameMatchResult, type NameMatchThresholds, type ReasonCode } from './types.js';
export { MAX_NAME_LENGTH, MAX_NORMALISED_LENGTH } from './parse.js';

/**
 * The defaults, set on the development split of the labelled set (bench/name-match.ts; the table is in
 * docs/NAME-MATCH.md). There, different people score at most 54 and the same person (Latin or an
 * Indic script) at least 84: approval at 75 sits in that gap nearer the same-person side, because
 * approving a stranger costs more than a review; 55 is the lowest review threshold that rejects every
 * different pair there.
 */
export const DEFAULT_THRESHOLDS: Readonly<NameMatchThresholds> = Object.freeze({ approve_at: 75, review_at: 55 });

/** Perso-Arabic words compared on consonants alone never score above this: at most a review by default. */
const CONSONANTS_ONLY_CAP = (DEFAULT_THRESHOLDS.approve_at - 1) / 100;
/** Names titled as a man and as a woman (Mr, Mrs) are two people however alike the words: a reject by default. */
const OPPOSED_TITLES_CAP = (DEFAULT_THRESHOLDS.review_at - 1) / 100;

/** A man's title on one name and a woman's on the other (Mr Kiran Rao, Mrs Kiran Rao), as a reason. */
function opposedTitles(p1: ParsedName, p2: ParsedName): NameMatchReason | null {
  if (!p1.title || !p2.title || p1.title.gender === p2.title.gender) return null;
  return { code: 'TOKEN_MISMATCH', detail: `${p1.title.text} (name_1) against ${p2.title.text} (name_2): titles of a ${p1.title.gender === 'male' ? 'man and a woman' : 'woman and a man'}` };
}

function checkThresholds(t: Partial<NameMatchThresholds>): NameMatchThresholds {
  const out = { ...DEFAULT_THRESHOLDS, ...t };
  for (const field of ['approve_at', 'review_at'] as const) {
    const v = out[field];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 100) throw new NameMatchInputError(field, 'invalid', `${field} must be a number from 0 to 100`);
  }
  if (out.review_at > out.approve_at) throw new NameMatchInputError('review_at', 'invalid', 'review_at must not be above approve_at');
  return out;
}

/**
 * The category from the scores alone (the account's thresholds do not move it). DIRECT_MATCH needs
 * the pessimistic reading to hold too; NO_MATCH needs the optimistic reading to fail too.
 */
export function categoryOf(score: number, optimistic: number, pessimistic: number): NameMatchCategory {
  if (score >= 95 && pessimistic >= 85) return 'DIRECT_MATCH';
  if (score >= 85) return 'GOOD_PARTIAL_MATCH';
  if (score >= 70) return 'MODERATE_PARTIAL_MATCH';
  if (score >= 45 || optimistic >= 70) return 'POOR_PARTIAL_MATCH';
  return 'NO_MATCH';
}

function decisionOf(score: number, t: NameMatchThresholds): NameMatchDecision {
  return score >= t.approve_at ? 'approve' : score >= t.review_at ? 'review' : 'reject';
}

const pct = (x: number) => Math.round(100 * Math.min(1, Math.max(0, x)));

/** Every pairing of the two names' forms (aliases), the best kept; the forms share the search's bound. */
function best(p1: ParsedName, p2: ParsedName): Alignment | null {
  let top: Alignment | null = null;
  const maxPairs = Math.max(1, Math.floor(MAX_SEARCHED_PAIRS / (p1.forms.length * p2.forms.length)));
  for (const a of p1.forms) {
    for (const b of p2.forms) {
      const al = align(a, b, p1.length, p2.length, maxPairs);
      if (!top || al.score > top.score) top = al;
    }
  }
  return top;
}

/** Compares two names (CONTRACT §11). Throws NameMatchInputError on input it cannot compare. */
export function matchNames(name1: unknown, name2: unknown, thresholds: Partial<NameMatchThresholds> = {}): NameMatchResult {
  const t = checkThresholds(thresholds);
  startComparison();
  const p1 = parseName(name1, 'name_1');
  const p2 = parseName(name2, 'name_2');
  const al = best(p1, p2);
  const reasons: NameMatchReason[] = [...p1.reasons, ...p2.reasons, ...(al ? explain(al) : [])];
  let [s, o, p] = al ? [al.score, al.optimistic, al.pessimistic] : [0, 0, 0];
  if (al?.pairs.some((x) => x.ev.kind === 'consonants')) [s, o, p] = [Math.min(s, CONSONANTS_ONLY_CAP), Math.min(o, CONSONANTS_ONLY_CAP), Math.min(p, CONSONANTS_ONLY_CAP)];
  const titles = opposedTitles(p1, p2);
  if (titles) {
    reasons.splice(0, reasons.length, ...reasons.filter((r) => r.code !== 'EXACT_MATCH'), titles);
    [s, p] = [Math.min(s, OPPOSED_TITLES_CAP), Math.min(p, OPPOSED_TITLES_CAP)];
  }
  const score = pct(s);
  const optimistic_score = Math.max(score, pct(o));
  const pessimistic_score = Math.min(score, pct(p));
  const decision = decisionOf(score, t);
  return {
    score,
    optimistic_score,
    pessimistic_score,
    category: categoryOf(score, optimistic_score, pessimistic_score),
    decision,
    match: decision === 'approve',
    reasons,
    algorithm_version: ALGORITHM_VERSION,
  };
}
