// Owns the lexicon (lexicon.ts) as the comparison sees it: looked up by phonetic key, so that a
// transliterated or differently spelt word finds its entry. Built once at load.
import { COMMON_WEIGHTS, DISTINCT_NAMES, GENDERED, JOINED_NAME_SUFFIXES, JOINED_PREFIXES, JOINED_SUFFIXES, VARIANT_GROUPS } from './lexicon.js';
import { memo } from './memo.js';
import { fold, keyLength, phoneticKey } from './phonetic.js';

const keyOf = (latin: string) => phoneticKey(fold(latin));
/** The forms of a key a lexicon entry may be stored under: '@' read as "a", or dropped at the end. */
const lookups = (key: string) => [key, phoneticKey(key.replace(/@/g, 'a')), phoneticKey(key.replace(/@$/, '').replace(/@/g, 'a')), phoneticKey(key.replace(/@/g, ''))];

const WEIGHTS = new Map<string, number>();
for (const [w, list] of COMMON_WEIGHTS) for (const word of list) if (!WEIGHTS.has(keyOf(word))) WEIGHTS.set(keyOf(word), w);

const GROUPS = new Map<string, string>();
for (const group of VARIANT_GROUPS) for (const word of group) GROUPS.set(keyOf(word), group[0]!);

const GENDER = new Map<string, 'male' | 'female'>();
for (const g of ['male', 'female'] as const) for (const word of GENDERED[g]) GENDER.set(keyOf(word), g);

const DISTINCT = new Set(DISTINCT_NAMES.flatMap(([x, y]) => [`${keyOf(x)} ${keyOf(y)}`, `${keyOf(y)} ${keyOf(x)}`]));
const DISTINCT_WORDS = new Set(DISTINCT_NAMES.flat().map(keyOf));

const SUFFIXES = JOINED_SUFFIXES.map(keyOf);
const NAME_SUFFIXES = JOINED_NAME_SUFFIXES.map(keyOf);
const PREFIXES = JOINED_PREFIXES.map(keyOf);

/** How much sharing this word says: 1 for a rare word, down to 0.3 for Kumar, Singh, Devi… */
export const tokenWeight = memo((key: string): number => {
  for (const k of lookups(key)) {
    const w = WEIGHTS.get(k) ?? (GROUPS.has(k) ? WEIGHTS.get(keyOf(GROUPS.get(k)!)) : undefined);
    if (w !== undefined) return w;
  }
  // A given name with a joined suffix (Rameshbhai) is most often a father's name in the middle.
  return stems(key).length > 0 ? 0.6 : 1;
});

/** The name a word is a known form of (Mohd → mohammed), if any. */
export const variantGroup = memo((key: string): string | undefined => {
  for (const k of lookups(key)) {
    const g = GROUPS.get(k);
    if (g) return g;
  }
  return undefined;
});

/** The word without a joined name word (Sanjaykumar → Sanjay, kumar), at least 3 letters left: [stem, the name word's key]. */
export const nameStems = memo((key: string): Array<[string, string]> => {
  const k = key.replace(/@$/, '');
  return NAME_SUFFIXES.filter((s) => k.endsWith(s) && keyLength(k.slice(0, -s.length)) >= 3).map((s) => [k.slice(0, -s.length).replace(/@$/, ''), s]);
});

/**
 * The word without a joined suffix or prefix (Rameshbhai → Ramesh, Srilakshmi → Lakshmi), at least 3 letters
 * left. A stem that ends in a vowel may have lost a last consonant equal to the suffix's first, merged
 * with it as a doubled letter in the key (Vallabhbhai → Vallabh), so that reading is offered too.
 */
export const stems = memo((key: string): string[] => {
  const out: string[] = [];
  const k = key.replace(/@$/, '');
  for (const s of SUFFIXES) {
    if (!k.endsWith(s) || keyLength(k.slice(0, -s.length)) < 3) continue;
    const stem = k.slice(0, -s.length).replace(/@$/, '');
    out.push(stem);
    if (!/[aeiou@]$/.test(stem)) continue;
    out.push(stem + s[0]!);
  }
  for (const p of PREFIXES) if (k.startsWith(p) && keyLength(k.slice(p.length)) >= 3) out.push(k.slice(p.length));
  return out;
});

/** Whether a word marks a man's or a woman's name (Singh, Kaur, Devi…). */
export const genderOf = memo((key: string): 'male' | 'female' | undefined => {
  for (const k of lookups(key)) {
    const g = GENDER.get(k);
    if (g) return g;
  }
  return undefined;
});

/** Two words known to be different names though they look like spellings of one (Khan, Khanna). */
export function distinctNames(a: string, b: string): boolean {
  const x = a.endsWith('@') ? a.slice(0, -1) : a;
  const y = b.endsWith('@') ? b.slice(0, -1) : b;
  return DISTINCT_WORDS.has(x) && DISTINCT_WORDS.has(y) && DISTINCT.has(`${x} ${y}`);
}
