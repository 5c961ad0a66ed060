// Owns how one token is spelt for comparison: the ASCII fold of Latin and transliterated text, the
// phonetic key (spellings Indian names are written in interchangeably collapse to one key), and the
// weighted edit distance between two keys, which counts how many edits were "hard" (a consonant
// changed, added or dropped; a vowel changed into one it is never written for; a vowel other than a
// added or dropped at the end, or a final one changed; a vowel moved across a consonant): one hard edit is what separates Anil from
// Sunil, Asha from Usha, Manisha from Manasa and Sonal from Sonali, so hard edits never pass as
// spelling variants.
//
// 'R' is the flapped r of ड़/ढ़ (Chopra, but Dravid), which Latin writes r or d.
// '@' in a key is an inherent vowel of an Indic script (the schwa that Hindi drops at the end and often
// in the middle of a word, and that Bengali and Odia say as "o"): it matches a, o or nothing for free.

import { memo } from './memo.js';
import { work } from './work.js';

/** IAST and ISO 15919 letters that fold to more than their base letter. */
const SPECIAL: Record<string, string> = {
  'ś': 'sh', 'Ś': 'sh', 'ṣ': 'sh', 'Ṣ': 'sh', 'ṛ': 'ri', 'Ṛ': 'ri', 'ṝ': 'ri', 'ṟ': 'r', 'ḷ': 'l', 'ḹ': 'l', 'ḻ': 'zh',
  'ṃ': 'n', 'ṁ': 'n', 'ḥ': '', 'ṉ': 'n', 'ñ': 'n', 'ṅ': 'n', 'ṇ': 'n', 'æ': 'ae', 'ß': 'ss', 'ø': 'o', 'đ': 'd', 'ł': 'l',
};

/** Lower-case ASCII letters, diacritics folded (transliteration adds '@' and 'R' itself, after folding). */
export function fold(s: string): string {
  let out = '';
  for (const ch of s.normalize('NFC')) out += SPECIAL[ch] ?? ch;
  return out.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z@]/g, '');
}

const REWRITES: Array<[RegExp, string]> = [
  // ज्ञ is written gy (Hindi: Gyan), dny (Marathi: Dnyaneshwar), jn (Sanskrit: Jnana) or gn (Telugu, Kannada).
  [/dny/g, 'gy'],
  [/^(?:jn|gn)(?=[aeiou@y])/, 'gy'],
  [/que$/, 'q'], // ق written the French way: Rafique, Tarique
  [/sinh$/, 'singh'], // Gujarati writes સિંહ "sinh" in Latin: Narsinh, Ravindrasinh
  [/x/g, 'ks'],
  [/q/g, 'k'],
  [/ck/g, 'k'],
  [/ph/g, 'f'],
  [/ksh/g, 'ks'],
  [/chh/g, 'ch'],
  [/ch/g, 'c'],
  [/sh/g, 's'],
  [/zh/g, 'l'],
  [/([bdgjktrR])h/g, '$1'],
  [/ow(?![aeiou@])/g, 'au'],
  [/w/g, 'v'],
  [/(?<=[^aeiou@])ru/g, 'ri'], // ऋ is "ri" in Hindi, "ru" in Marathi and Gujarati (Pruthvi, Krushna)
  [/ee|ii/g, 'i'],
  [/oo|uu/g, 'u'],
  [/aa/g, 'a'],
  [/ou/g, 'au'],
  [/ei/g, 'ai'],
  [/ey$/g, 'e'],
  [/ay$/g, 'ai'],
  [/oy$/g, 'oi'],
  [/(?<=[^aeiou@])y$/g, 'i'],
  [/([a-z@])\1+/g, '$1'],
  [/m(?=[pb])/g, 'n'],
];

/** The phonetic key of a folded token: aspiration, doubling and the usual Indian spelling pairs collapse. */
export const phoneticKey = memo((folded: string): string => {
  // A final inherent vowel is optional: the word's end rules apply to what comes before it.
  const schwa = folded.length > 1 && folded.endsWith('@');
  let k = schwa ? folded.slice(0, -1) : folded;
  for (const [re, to] of REWRITES) k = k.replace(re, to);
  return schwa ? `${k}@` : k;
});

const isVowel = (c: number) => c === 97 || c === 101 || c === 105 || c === 111 || c === 117 || c === 64; // a e i o u @
const AT = 64;
const LOWER_A = 97;
const LOWER_O = 111;

// Costs are kept as integers in three fields: hundredths of an edit times 2^20, the number of vowel edits times
// 2^10, and the number of hard edits, so that adding two costs adds every field and comparing two orders by cost,
// then by vowel edits, then by hard edits. Float64 holds them exactly (far below 2^53).
const FIELD = 1024;
const c = (hundredths: number, hard = 0, vowels = 0) => hundredths * FIELD * FIELD + vowels * FIELD + hard;
const FULL = c(100, 1);
/** A vowel edit that costs something (counted: two that move one vowel across a consonant are another name). */
const v = (hundredths: number, hard = 0) => c(hundredths, hard, 1);
const hardOf = (total: number) => total % FIELD;
const vowelsOf = (total: number) => Math.floor(total / FIELD) % FIELD;

function pairTable(entries: Record<string, number>): Map<number, number> {
  const m = new Map<number, number>();
  for (const [pair, cost] of Object.entries(entries)) m.set(pair.charCodeAt(0) * 128 + pair.charCodeAt(1), c(Math.round(cost * 100)));
  return m;
}
/** Pairs written for one another in Indian names, at a fraction of a full edit. */
const CHEAP = pairTable({ bv: 0.3, vb: 0.3, jz: 0.4, zj: 0.4, sz: 0.4, zs: 0.4, yi: 0.3, iy: 0.3 });
/** Tamil and Malayalam scripts do not mark voicing (க is k or g): these pairs cost little when either side came from them. */
const LOOSE = pairTable({ kg: 0.2, gk: 0.2, cj: 0.2, jc: 0.2, cs: 0.2, sc: 0.2, sj: 0.3, js: 0.3, td: 0.2, dt: 0.2, pb: 0.2, bp: 0.2 });
/**
 * Tamil and Malayalam names written in Latin keep their script's freedom of voicing inside a word
 * (Murugan, Murukan; Senthil, Sendhil; Pradeep, Pratheep): these pairs cost little between letters of
 * two Latin words, never as a word's first or last letter (Tara, Dara; Anand, Anant). Counted with the
 * vowel changes, as an edit that may also make a neighbouring name, so never a DIRECT_MATCH.
 */
const MEDIAL_VOICING = new Map([...pairTable({ kg: 0, gk: 0, td: 0, dt: 0, pb: 0, bp: 0 }).keys()].map((k) => [k, v(30)]));
const N = 110;
const M = 109;

const FLAP = 82; // R
const LOWER_R = 114;
const LOWER_D = 100;
const LOWER_E = 101;
const LOWER_I = 105;
const LOWER_U = 117;
const LOWER_V = 118;

const isPair = (x: number, y: number, p: number, q: number) => (x === p && y === q) || (x === q && y === p);

/** The pairs of vowels Latin writes for one another at a word's start: o↔u (Usman, Osman) and e↔i (Eshwar, Ishwar); Asha is not Usha. */
const softInitialVowels = (x: number, y: number) => isPair(x, y, LOWER_O, LOWER_U) || isPair(x, y, LOWER_E, LOWER_I);
/**
 * Inside a word: the short a (schwa) written a, e, o or u (Shanker, Mohinder, Rustom, Dutta; Bengali and
 * Odia o: Mohapatra; Tamil ஜெ for "Ja"), e↔i (Fatima, Fatema) and o↔u (Bengali and Urdu: Momtaz, Mumtaz).
 * Anything else (a↔i, i↔u, o↔e…) is another name: Kiran is not Karan, Manisha is not Manasa.
 */
function softVowels(x: number, y: number): boolean {
  return isPair(x, y, LOWER_A, LOWER_O) || isPair(x, y, LOWER_A, LOWER_U) || isPair(x, y, LOWER_A, LOWER_E) || softInitialVowels(x, y);
}
/** At a word's end only e↔i is a spelling (Pandey, Pandy); -a against -e or -i marks another name (Ranjana, Ranjani). */
const softFinalVowels = (x: number, y: number) => isPair(x, y, LOWER_E, LOWER_I);

/** A vowel changed into one no spelling explains. It costs less than dropping one vowel and adding another (2 × 40), so that the edit distance cannot pass it off as two soft edits. */
const HARD_VOWEL = v(75, 1);

function vowelSubCost(x: number, y: number, first: boolean, initial: boolean, last: boolean): number {
  if (initial) return softInitialVowels(x, y) ? v(50) : HARD_VOWEL;
  return first || !(last ? softFinalVowels(x, y) : softVowels(x, y)) ? HARD_VOWEL : v(35);
}

/**
 * The same consonants and the same vowels in the same order, but a vowel on the other side of a consonant
 * (Chetan, Chetna; Saina, Sania): another name, not a spelling.
 */
function vowelMoved(a: string, b: string): boolean {
  const consonants = (k: string) => k.replace(/[aeiou@]/g, '');
  const vowels = (k: string) => k.replace(/[^aeiou]/g, '');
  return consonants(a) === consonants(b) && vowels(a) === vowels(b) && !acrossR(a, b);
}

/**
 * A vowel moved across an r beside another consonant, the rest alike: the metathesis of surname
 * families written both ways (Agarwal, Agrawal), not another name.
 */
function acrossR(a: string, b: string): boolean {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const x = a.slice(i, i + 2);
  const y = b.slice(i, i + 2);
  return a.length === b.length && i > 0 && a.slice(i + 2) === b.slice(i + 2) && x.length === 2 && x === [...y].reverse().join('') && x.includes('r') && /[aeiou]/.test(x);
}

/**
 * A feminine form: -a added to a word ending in i and l, m, n or p (Naveen, Naveena; Sunil, Sunila; Pradeep,
 * Pradeepa; Jameel, Jameela; Rahim, Rahima). Sanskrit and Arabic make a woman's name so, and Latin writes no
 * final -a for a man's name of that shape except in Kannada and Telugu spellings. An -a after other endings
 * is left optional, as masculine names take it too (Shiv, Shiva; Vijay, Vijaya; Prasant, Prasanta).
 */
function feminineA(a: string, b: string): boolean {
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return long.length === short.length + 1 && long.endsWith('a') && long.startsWith(short) && /i[lmnp]$/.test(short);
}

/** Two words alike but for their last vowel, a↔e or a↔i (Padukone, Padukona): dropping one optional vowel and adding another is still a change of vowel. */
function finalVowelSwapped(a: string, b: string): boolean {
  const x = a.charCodeAt(a.length - 1);
  const y = b.charCodeAt(b.length - 1);
  return a.length === b.length && x !== y && x !== AT && y !== AT && isVowel(x) && isVowel(y) && !softFinalVowels(x, y) && a.slice(0, -1) === b.slice(0, -1);
}

/** Index of the first vowel (an inherent '@' included), or -1. */
function firstVowelAt(k: string): number {
  for (let i = 0; i < k.length; i++) if (isVowel(k.charCodeAt(i))) return i;
  return -1;
}

function subCost(x: number, y: number, first: boolean, last: boolean, loose: boolean, initial = false): number {
  if (x === y) return 0;
  if (x === AT || y === AT) {
    const other = x === AT ? y : x;
    if (other === LOWER_A) return 0;
    if (other === LOWER_O) return c(10);
    return isVowel(other) ? c(35) : FULL;
  }
  if (isVowel(x) && isVowel(y)) return vowelSubCost(x, y, first, initial, last);
  if ((x === FLAP && (y === LOWER_R || y === LOWER_D)) || (y === FLAP && (x === LOWER_R || x === LOWER_D))) return c(10);
  const cheap = CHEAP.get(x * 128 + y) ?? (loose ? LOOSE.get(x * 128 + y) : first || last ? undefined : MEDIAL_VOICING.get(x * 128 + y));
  if (cheap !== undefined) return cheap;
  if (last && ((x === N && y === M) || (x === M && y === N))) return c(35);
  return FULL;
}

/**
 * Adding or dropping a letter. At a word's end a (Vijay, Vijaya) and a silent e (Ann, Anne) are optional;
 * a final i, u or o makes another name (Jayant, Jayanti; Sonal, Sonali).
 */
function indelCost(ch: number, first: boolean, last: boolean, firstVowel: boolean, afterA: boolean): number {
  if (ch === AT) return c(5);
  if (isVowel(ch)) return first ? v(90, 1) : firstVowel ? v(90) : last ? (ch === LOWER_A || ch === LOWER_E ? v(25) : v(60, 1)) : v(40);
  if (ch === 104 || ch === 121) return c(30); // h, y
  if (last && afterA && ch === LOWER_V) return c(30); // a final "aw" is a glide: Dinshaw, Dinshah
  return FULL;
}

/** Letters that count towards a key's length ('@' is optional, so it does not). */
export const keyLength = (k: string) => k.replace(/@/g, '').length;

export interface Distance {
  cost: number;
  hard: number;
  /** Vowel edits that cost something (an inherent '@' read as a, o or nothing does not). */
  vowels: number;
  /** 1 − cost / the longer key's length, 0 to 1. */
  sim: number;
}

let rowA = new Float64Array(64);
let rowB = new Float64Array(64);
let indelB = new Float64Array(64);
let codesB = new Uint8Array(64);

/**
 * subCost for every cell but those of the first row, the first column and the last cell (the only ones
 * whose position changes a cost), for letters below 128 (every key's): built once, read per cell.
 */
function interiorCosts(loose: boolean): Float64Array {
  const t = new Float64Array(128 * 128);
  for (let x = 0; x < 128; x++) for (let y = 0; y < 128; y++) t[x * 128 + y] = subCost(x, y, false, false, loose, false);
  return t;
}
const INTERIOR = [interiorCosts(false), interiorCosts(true)] as const;

/** What keyDistance answers when the cost passed the caller's bound: no spelling, no near miss. */
export const FAR: Distance = Object.freeze({ cost: Number.POSITIVE_INFINITY, hard: FIELD - 1, vowels: 0, sim: 0 });

/** The second key's letters and what adding each costs, once per call rather than once per cell. */
function prepareColumns(b: string): boolean {
  const m = b.length;
  if (rowA.length <= m) [rowA, rowB, indelB, codesB] = [new Float64Array(m + 1), new Float64Array(m + 1), new Float64Array(m + 1), new Uint8Array(m + 1)];
  const fb = firstVowelAt(b);
  let ascii = true;
  for (let j = 1; j <= m; j++) {
    const ch = b.charCodeAt(j - 1);
    if (ch >= 128) ascii = false;
    codesB[j] = ch & 127;
    indelB[j] = indelCost(ch, j === 1, j === m, j - 1 === fb, b.charCodeAt(j - 2) === LOWER_A);
  }
  return ascii;
}

/**
 * Whether some cell of a row could still lead to an answer the caller uses: cost within `limit`, and at
 * most `maxHard` hard edits. The best path to the last cell passes through a row at a cell whose value
 * is exactly its prefix's (costs add field by field), and cost and hard edits only grow along a path;
 * so when no cell of a row qualifies, the answer cannot.
 */
function viable(row: Float64Array, m: number, limit: number, maxHard: number): boolean {
  for (let j = 0; j <= m; j++) {
    const v = row[j]!;
    if (v < limit && v - Math.floor(v / FIELD) * FIELD <= maxHard) return true;
  }
  return false;
}

function spend(cells: number): void {
  work.cells += cells;
  work.budget -= cells;
}

/**
 * Weighted edit distance between two phonetic keys (see the module header for what "hard" means).
 * A caller that only uses a distance whose similarity reaches `minSim`, with at most `maxHard` hard
 * edits, gets FAR as soon as no cell of a row can lead there (viable): the work saved is most of the
 * table of two words that differ early. A table larger than what is left of the comparison's budget
 * (work.ts) is not filled: FAR, counted in work.skipped.
 */
export function keyDistance(a: string, b: string, loose = false, minSim = 0, maxHard = Number.POSITIVE_INFINITY): Distance {
  const n = a.length;
  const m = b.length;
  const longest = Math.max(keyLength(a), keyLength(b), 1);
  const limit = minSim > 0 ? (Math.ceil((1 - minSim) * 100 * longest) + 2) * FIELD * FIELD : Number.POSITIVE_INFINITY;
  const bounded = minSim > 0 || maxHard < FIELD;
  if (n * m > work.budget) {
    work.skipped++;
    return FAR;
  }
  const asciiB = prepareColumns(b);
  const table = INTERIOR[loose ? 1 : 0];
  const fa = firstVowelAt(a);
  let prev = rowA;
  let cur = rowB;
  prev[0] = 0;
  for (let j = 1; j <= m; j++) prev[j] = prev[j - 1]! + indelB[j]!;
  for (let i = 1; i <= n; i++) {
    const ai = a.charCodeAt(i - 1);
    const da = indelCost(ai, i === 1, i === n, i - 1 === fa, a.charCodeAt(i - 2) === LOWER_A);
    const base = (ai & 127) * 128;
    // Row 1, column 1 and the last cell depend on their position; so does every cell of a non-ASCII key.
    const slowRow = i === 1 || ai >= 128 || !asciiB;
    let diag = prev[0]!;
    let left = diag + da;
    cur[0] = left;
    for (let j = 1; j <= m; j++) {
      const up = prev[j]!;
      const edge = slowRow || j === 1 || (i === n && j === m);
      let v = diag + (edge ? subCost(ai, b.charCodeAt(j - 1), i === 1 || j === 1, i === n && j === m, loose, i === 1 && j === 1) : table[base + codesB[j]!]!);
      const del = up + da;
      if (del < v) v = del;
      const ins = left + indelB[j]!;
      if (ins < v) v = ins;
      cur[j] = v;
      diag = up;
      left = v;
    }
    const t = prev;
    prev = cur;
    cur = t;
    if (bounded && !viable(prev, m, limit, maxHard)) {
      spend(i * m);
      return FAR;
    }
  }
  spend(n * m);
  const total = prev[m]!;
  const hard = hardOf(total) + ((vowelsOf(total) >= 2 && vowelMoved(a, b)) || finalVowelSwapped(a, b) || feminineA(a, b) ? 1 : 0);
  const cost = Math.floor(total / FIELD / FIELD) / 100;
  return { cost, hard, vowels: vowelsOf(total), sim: Math.max(0, 1 - cost / longest) };
}

/** Whether two keys can begin alike: the same letter, a cheap pair, or an "h" that may be dropped. */
export function sameOnset(a: string, b: string, loose: boolean): boolean {
  const x = a.charCodeAt(0);
  const y = b.charCodeAt(0);
  return x === y || x === 104 || y === 104 || hardOf(subCost(x, y, false, false, loose)) === 0;
}

/** The consonant skeleton of a key: what a script that writes few vowels (Perso-Arabic) can be compared on. */
export const skeleton = (k: string) => k.replace(/[aeiou@yvh]/g, '');

/**
 * Consonant classes no edit of cost without a hard edit leaves: the cheap pairs (b/v, j/z, s/z, the
 * flapped r with r or d, a final n/m) and Tamil's unvoiced pairs (k/g, c/j/s, t/d, p/b) merged, vowels,
 * h and y (dropped or written for i at no hard cost) left out. Coarser than any edit can tell apart, so
 * two keys whose classes differ cannot be a spelling of one another (every such path has a hard edit).
 */
const CLASS: Record<string, string> = { v: 'b', p: 'b', j: 'c', s: 'c', z: 'c', g: 'k', d: 't', r: 't', R: 't', m: 'n' };

export interface Consonants {
  /** The key's consonant classes, in order. */
  classes: string;
  /** The same without the last, when the key ends in a final "av" glide that may be dropped (Dinshaw), else null. */
  trimmed: string | null;
}

export const consonantsOf = memo((key: string): Consonants => {
  let classes = '';
  for (const ch of key) if (!/[aeiou@hy]/.test(ch)) classes += CLASS[ch] ?? ch;
  return { classes, trimmed: key.endsWith('av') ? classes.slice(0, -1) : null };
});

/** At most `edits` (0 or 1) insertions, deletions or substitutions turn x into y. */
function within(x: string, y: string, edits: 0 | 1): boolean {
  if (x === y) return true;
  if (edits === 0 || Math.abs(x.length - y.length) > 1) return false;
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return x.slice(i + (x.length >= y.length ? 1 : 0)) === y.slice(i + (y.length >= x.length ? 1 : 0));
}

/**
 * Whether the weighted edit distance between two keys can come out with at most `hard` hard edits: their
 * consonant classes are at most that many edits apart (a dropped final glide aside). A cheap necessary
 * test, so that the distance is computed only where its answer could be used.
 */
export function mayBeWithin(a: Consonants, b: Consonants, hard: 0 | 1): boolean {
  for (const x of [a.classes, a.trimmed]) {
    for (const y of [b.classes, b.trimmed]) if (x !== null && y !== null && within(x, y, hard)) return true;
  }
  return false;
}
