// Owns the engine's vocabulary: the result CONTRACT §11 returns, its categories and decisions, the
// thresholds an account sets, and the closed list of reason codes with what each one means.

export const ALGORITHM_VERSION = 'sangam-name-match/1.3.0';

/** Cashfree's five bands, so that integrators migrating from it keep their rules. */
export const CATEGORIES = ['DIRECT_MATCH', 'GOOD_PARTIAL_MATCH', 'MODERATE_PARTIAL_MATCH', 'POOR_PARTIAL_MATCH', 'NO_MATCH'] as const;
export type NameMatchCategory = (typeof CATEGORIES)[number];

export type NameMatchDecision = 'approve' | 'review' | 'reject';

/** An account's two thresholds on `score`: approve at or above `approve_at`, review at or above `review_at`. */
export interface NameMatchThresholds {
  approve_at: number;
  review_at: number;
}

/** What a reason code says; the `detail` beside it names the words concerned. */
export const REASON_CODES = {
  EXACT_MATCH: 'the names are the same once case, spacing and punctuation are set aside',
  HONORIFIC_REMOVED: 'a title or honorific (Mr, Smt, Dr, Shri, Late…) was dropped',
  RELATION_REMOVED: 'a relation marker (S/O, D/O, W/O, C/O…) and the other person named after it were dropped',
  ALIAS_SPLIT: 'the name gives two forms (alias, urf, @); the better-matching form was compared',
  DIGITS_IGNORED: 'digits in the name were ignored',
  TRANSLITERATED: 'a name in an Indian script was read in Latin letters',
  CONSONANTS_ONLY: 'Perso-Arabic script writes few vowels: words were compared on their consonants, which caps the score below an approval at the default thresholds',
  SPELLING_VARIANT: 'two words are spellings of one name (sh/s, ee/i, bh/b, w/v, ph/f, ksh/x, doubled letters, a final vowel…)',
  NAME_VARIANT: 'two words are known forms of one name (Mohammed/Mohd/Md, Lakshmi/Laxmi, Banerjee/Bandyopadhyay…)',
  INITIAL_MATCHED: 'an initial stands for a word of the other name',
  TOKENS_JOINED: 'words written apart in one name are written as one in the other (Ram Kumar/Ramkumar)',
  JOINED_SUFFIX: 'a suffix or prefix written joined to a name (Rameshbhai, Jamshedji, Srilakshmi) was set aside',
  TRUNCATED: 'the last word of a long name is cut short (a length limit) and begins the other name\'s word',
  ORDER_SWAPPED: 'the words that match stand in a different order',
  NEAR_MISS: 'two words are neighbouring names (vowels no spelling explains, or one consonant in a long word): taken as different, possibly a typing slip',
  TOKEN_MISSING: 'a word of one name has no counterpart in the other, which has none left over (a middle name, surname or clan name omitted)',
  TOKEN_MISMATCH: 'words of the two names contradict each other (different given names or surnames)',
  NO_NAME_LEFT: 'nothing is left of a name once honorifics and relation markers are dropped',
} as const;
export type ReasonCode = keyof typeof REASON_CODES;

export interface NameMatchReason {
  code: ReasonCode;
  detail: string;
}

/** The engine's answer: exactly the name-match fields of CONTRACT §11. */
export interface NameMatchResult {
  /** 0 to 100: the weighted share of the two names that corresponds, at the central reading. */
  score: number;
  /** 0 to 100: the score if every ambiguity resolves in favour of a match. */
  optimistic_score: number;
  /** 0 to 100: the score if every ambiguity resolves against a match. */
  pessimistic_score: number;
  category: NameMatchCategory;
  decision: NameMatchDecision;
  /** `decision === 'approve'`. */
  match: boolean;
  reasons: NameMatchReason[];
  algorithm_version: string;
}
