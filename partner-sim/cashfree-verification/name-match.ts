// Owns the name match of a penny drop: how close the `name` sent is to the name at the bank. [P] the
// response carries `name_match_score` (a string, "95") and `name_match_result`; Cashfree's verification
// suite documents the results DIRECT_MATCH, GOOD_PARTIAL_MATCH, MODERATE_PARTIAL_MATCH,
// POOR_PARTIAL_MATCH (and the sample's MATCH). The scoring and the cut-offs are ours [G]; NO_MATCH below
// the lowest band is [G] too. No name sent: both fields are null [G].
import { distance } from 'fastest-levenshtein';

export type NameMatchResult = 'DIRECT_MATCH' | 'GOOD_PARTIAL_MATCH' | 'MODERATE_PARTIAL_MATCH' | 'POOR_PARTIAL_MATCH' | 'NO_MATCH';

const tokens = (s: string) => s.toUpperCase().replace(/[^A-Z ]/g, ' ').split(/\s+/).filter(Boolean);

function similarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 0 : 1 - distance(a, b) / longest;
}

/** Score 0–100: the better of the names as written and with their words sorted ("DOE JOHN" = "JOHN DOE"). */
export function nameMatch(given: string, atBank: string): { score: number; result: NameMatchResult } {
  const g = tokens(given);
  const b = tokens(atBank);
  const score = Math.round(100 * Math.max(similarity(g.join(' '), b.join(' ')), similarity([...g].sort().join(' '), [...b].sort().join(' '))));
  const result: NameMatchResult = score === 100 ? 'DIRECT_MATCH' : score >= 85 ? 'GOOD_PARTIAL_MATCH' : score >= 70 ? 'MODERATE_PARTIAL_MATCH' : score >= 50 ? 'POOR_PARTIAL_MATCH' : 'NO_MATCH';
  return { score, result };
}
