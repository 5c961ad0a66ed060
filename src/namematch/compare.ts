// Owns the comparison of two words (or of words joined into one, "Ram Kumar" against "Ramkumar"):
// what kind of evidence they are that the names are one, with a central similarity and the lowest and
// highest it could be (pessimistic and optimistic readings). null: the words do not correspond.
import type { Token } from './parse.js';
import { consonantsOf, FAR, keyDistance, keyLength, mayBeWithin, phoneticKey, sameOnset, skeleton, type Consonants, type Distance } from './phonetic.js';
import { memo } from './memo.js';
import { distinctNames, genderOf, nameStems, stems, variantGroup } from './vocabulary.js';
import { work } from './work.js';

export type EvidenceKind = 'exact' | 'spelling' | 'variant' | 'suffix' | 'joined' | 'truncated' | 'consonants' | 'initials' | 'initial' | 'near';

export interface Evidence {
  kind: EvidenceKind;
  sim: number;
  lo: number;
  hi: number;
  /** A joined name word (Sanjaykumar against Sanjay: kumar) that the word of this side carries beyond the other: counted as a word of that side left unmatched. */
  leaves?: { side: 'a' | 'b'; key: string };
}

/** One word, or consecutive words of one name joined, as compared. */
export interface Unit {
  tokens: Token[];
  latin: string;
  key: string;
  initial: string | null;
  loose: boolean;
  consonantsOnly: boolean;
  /** The unit ends its name, and the name is long enough to have been cut by a length limit. */
  mayBeTruncated: boolean;
  /** `latin` as a dictionary would spell it ('@' read "a", a final one dropped): equal keys and equal spellings are an exact match. */
  lexical: string;
  shape: Shape;
}

/** What the comparison reads from a key, found once per key rather than once per pair of words. */
interface Shape {
  length: number;
  skeleton: string;
  consonants: Consonants;
  group: string | undefined;
  stems: string[];
  nameStems: Array<[string, string]>;
}

const shapeOf = memo((key: string): Shape => ({ length: keyLength(key), skeleton: skeleton(key), consonants: consonantsOf(key), group: variantGroup(key), stems: stems(key), nameStems: nameStems(key) }));

/** Below this many characters a name is not one a length limit would have cut. */
const TRUNCATION_MIN_NAME = 16;

export function unitOf(tokens: Token[], nameLength: number, lastPos: number): Unit {
  const latin = tokens.map((t) => t.latin).join('');
  const single = tokens.length === 1 ? tokens[0]! : null;
  const key = single ? single.key : phoneticKey(latin);
  return {
    tokens,
    latin,
    key,
    initial: single?.initial ?? null,
    loose: tokens.some((t) => t.loose),
    consonantsOnly: tokens.some((t) => t.consonantsOnly),
    mayBeTruncated: tokens[tokens.length - 1]!.pos === lastPos && nameLength >= TRUNCATION_MIN_NAME,
    lexical: lexicalOf(latin),
    shape: shapeOf(key),
  };
}

export const lexicalOf = (latin: string) => latin.replace(/@$/, '').replace(/@/g, 'a');

/** The letters an initial for this word could be written as (Shankar: S; Tamil சுரேஷ், read "c": C or S). */
function initialsOf(u: Unit): Set<string> {
  const l = u.latin.replace(/@/g, 'a');
  const first = l[0] ?? '';
  const out = new Set([first]);
  if (l.startsWith('ph')) out.add('f');
  if (first === 'v' || first === 'w') out.add('v').add('w');
  if (first === 'b' || first === 'v') out.add('b').add('v');
  if (first === 'c' || first === 'k') out.add('k');
  if (first === 'q') out.add('k');
  if (first === 'x') out.add('k');
  if (u.loose) {
    const pairs: Record<string, string[]> = { c: ['s', 'ch'], k: ['g'], t: ['d'], p: ['b'], s: ['c'] };
    for (const x of pairs[first] ?? []) out.add(x);
  }
  return out;
}

const sameInitial = (x: string, y: string) => x === y || (x + y).match(/^(vw|wv|bv|vb|ck|kc|qk|kq)$/) !== null;

function compareInitials(a: Unit, b: Unit): Evidence | null {
  if (a.initial && b.initial) return sameInitial(a.initial, b.initial) ? { kind: 'initials', sim: 1, lo: 0.7, hi: 1 } : null;
  const [init, full] = a.initial ? [a.initial, b] : [b.initial!, a];
  if (full.tokens.length > 1) return null;
  return initialsOf(full).has(init) ? { kind: 'initial', sim: 0.85, lo: 0.35, hi: 1 } : null;
}

function compareSkeletons(a: Unit, b: Unit): Evidence | null {
  if (a.consonantsOnly && b.consonantsOnly) return null; // same script: only an exact key counts
  const sa = a.shape.skeleton;
  const sb = b.shape.skeleton;
  if (sa.length === 0 || sb.length === 0) return null;
  if (sa === sb) return { kind: 'consonants', sim: 0.8, lo: 0.5, hi: 1 };
  if (Math.min(sa.length, sb.length) >= 5 && mayBeWithin(consonantsOf(sa), consonantsOf(sb), 1) && keyDistance(sa, sb, false, 0, 1).hard <= 1) return { kind: 'consonants', sim: 0.7, lo: 0.4, hi: 0.95 };
  return null;
}

const TRUNCATION_MIN_SIM = 0.85;

/** The longer key begins with the shorter (allowing spelling variants), which ends a long name. */
function truncation(a: Unit, b: Unit): Evidence | null {
  const [short, long] = a.shape.length <= b.shape.length ? [a, b] : [b, a];
  if (!short.mayBeTruncated || short.tokens.length > 1 || short.shape.length < 4 || short.shape.length >= long.shape.length) return null;
  const head = long.key.slice(0, short.key.length);
  if (head[0] !== short.key[0]) return null;
  const d = keyDistance(short.key, head, short.loose || long.loose, TRUNCATION_MIN_SIM, 0);
  return d.hard === 0 && d.sim >= TRUNCATION_MIN_SIM ? { kind: 'truncated', sim: 0.85, lo: 0.6, hi: 1 } : null;
}

const MIN_SPELLING = 0.75;
const MIN_SPELLING_STRICT = 0.9;

/**
 * A spelling that changes a vowel is most often the same name (Shanker, Fatema) but sometimes a neighbour
 * (Manohar, Manoher): its pessimistic reading stays low, so that it is never a DIRECT_MATCH.
 */
const VOWEL_SPELLING_LO = 0.5;

function spellingOf(d: Distance, strict: boolean): Evidence | null {
  if (d.hard !== 0 || d.sim < (strict ? MIN_SPELLING_STRICT : MIN_SPELLING)) return null;
  const lo = Math.max(0, d.sim - 0.1);
  return { kind: 'spelling', sim: d.sim, lo: d.vowels > 0 ? Math.min(lo, VOWEL_SPELLING_LO) : lo, hi: 1 };
}

/** How two units correspond, or null. Joined units only ever meet a single word. */
export function compareUnits(a: Unit, b: Unit): Evidence | null {
  work.comparisons++;
  if (a.initial || b.initial) return compareInitials(a, b);
  const joined = a.tokens.length > 1 || b.tokens.length > 1;
  const loose = a.loose || b.loose;
  const ev = compareWords(a, b, loose);
  if (ev && joined) return ev.kind === 'near' || ev.kind === 'truncated' ? null : { ...ev, kind: 'joined', lo: Math.min(ev.lo, 0.85) };
  return ev;
}

function compareWords(a: Unit, b: Unit, loose: boolean): Evidence | null {
  if (a.key === b.key) {
    const same = a.lexical === b.lexical;
    return same ? { kind: 'exact', sim: 1, lo: 1, hi: 1 } : { kind: 'spelling', sim: 1, lo: 0.95, hi: 1 };
  }
  const ga = a.shape.group;
  const gb = b.shape.group;
  if (ga && ga === gb) return { kind: 'variant', sim: 0.97, lo: 0.9, hi: 1 };
  if (a.consonantsOnly || b.consonantsOnly) return compareSkeletons(a, b);
  if (distinctNames(a.key, b.key) || opposedGenders(a.key, b.key)) return null;
  // A word of a known group is only a spelling of another word very close to it: Mahmood is not Mohammed.
  const strict = ga !== undefined || gb !== undefined;
  const d = sameOnset(a.key, b.key, loose) ? wordDistance(a, b, loose) : null;
  const direct = d && spellingOf(d, strict);
  if (direct) return direct;
  if (a.tokens.length > 1 || b.tokens.length > 1) return null;
  for (const [x, y] of [[a, b], [b, a]] as const) {
    for (const stem of x.shape.stems) {
      if (stemOf(stem, y, loose)) return { kind: 'suffix', sim: 0.93, lo: 0.8, hi: 1 };
    }
    for (const [stem, word] of x.shape.nameStems) if (stemOf(stem, y, loose)) return { kind: 'suffix', sim: 0.93, lo: 0.8, hi: 1, leaves: { side: x === a ? 'a' : 'b', key: word } };
  }
  const cut = truncation(a, b);
  if (cut) return cut;
  return d && nearMiss(a, b, d) ? NEAR : null;
}

/** A word without its joined suffix is this word, or a close spelling of it. */
const stemOf = (stem: string, y: Unit, loose: boolean) =>
  stem === y.key || (sameOnset(stem, y.key, loose) && mayBeWithin(consonantsOf(stem), y.shape.consonants, 0) && spellingOf(keyDistance(stem, y.key, loose, MIN_SPELLING_STRICT, 0), true) !== null);

/** A man's and a woman's form of one word (Kumar, Kumari): never one word, left to contradict each other. */
function opposedGenders(a: string, b: string): boolean {
  const ga = genderOf(a);
  const gb = genderOf(b);
  return ga !== undefined && gb !== undefined && ga !== gb;
}

/**
 * The distance between two words' keys, computed only as far as compareWords can use it: a spelling
 * (no hard edit, similarity ≥ 0.75), or for two single words a near miss (nearMiss: at most two hard
 * edits with the same first letter and consonants, or one hard edit in long words that begin alike, at
 * similarity ≥ 0.85). Where neither can come, FAR (no spelling, no near miss), without computing or as
 * soon as the table shows it.
 */
function wordDistance(a: Unit, b: Unit, loose: boolean): Distance {
  const single = a.tokens.length === 1 && b.tokens.length === 1;
  if (single && sameConsonants(a, b)) return keyDistance(a.key, b.key, loose);
  const oneHard = single && a.key.slice(0, 2) === b.key.slice(0, 2) && Math.min(a.shape.length, b.shape.length) >= NEAR_MIN_LENGTH ? 1 : 0;
  if (!mayBeWithin(a.shape.consonants, b.shape.consonants, oneHard)) return FAR;
  return keyDistance(a.key, b.key, loose, MIN_SPELLING, oneHard);
}

/** The same first letter and the same consonants: neighbours if the vowels differ beyond spelling (Manisha, Manasa). */
const sameConsonants = (a: Unit, b: Unit) => a.key[0] === b.key[0] && a.shape.skeleton.length >= 2 && a.shape.skeleton === b.shape.skeleton;

/**
 * Neighbouring names, not the same word: the same consonants with vowels no spelling explains (Manisha,
 * Manasa; Sonal, Sonali), or long words one consonant apart (Harsimrat, Harsimran). The central and
 * pessimistic readings take them as a contradiction; only the optimistic one as a possible typing slip,
 * so the pair is never a confident NO_MATCH on this word alone.
 */
const NEAR: Evidence = { kind: 'near', sim: 0, lo: 0, hi: 0.9 };
/** Words one consonant apart are neighbours only from this many letters (Harsimrat, Harsimran). */
const NEAR_MIN_LENGTH = 7;

function nearMiss(a: Unit, b: Unit, d: Distance): boolean {
  if (a.key[0] !== b.key[0]) return false;
  if (d.hard <= 2 && sameConsonants(a, b)) return true;
  return d.hard === 1 && Math.min(a.shape.length, b.shape.length) >= NEAR_MIN_LENGTH && d.sim >= 0.85 && a.key.slice(0, 2) === b.key.slice(0, 2);
}
