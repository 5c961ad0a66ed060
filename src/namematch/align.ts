// Owns matching the words of two names to each other and scoring the result. Words match in any
// order; up to three consecutive words of one name may stand for one word of the other (joined
// names); initials are matched last, to the words left over. The score is the weighted share of the
// two names that corresponds:
//
//   score = Σ w·sim over matched pairs / (Σ w over matched pairs + Σ w·f over unmatched words)
//
// where w is a word's weight (a common word such as Kumar or Singh counts for less) and f what an
// unmatched word costs: 1 when both names have words left over (they contradict each other), less
// when only one name has (a word omitted: a middle name, a surname, a clan name; more when it is the
// first word, usually a given name). The optimistic and pessimistic scores use each pair's highest
// and lowest similarity and the lowest and highest cost of an omitted word.
//
// The work is bounded whatever the names (docs/NAME-MATCH.md, "The cost of one comparison"): words
// spelt the same are paired by a hash join before any search, and the search weighs at most
// MAX_SEARCHED_PAIRS pairs of words; compare.ts and work.ts bound the edit distance.
import { compareUnits, lexicalOf, unitOf, type Evidence, type EvidenceKind, type Unit } from './compare.js';
import type { Token } from './parse.js';
import type { NameMatchReason } from './types.js';
import { genderOf, tokenWeight } from './vocabulary.js';
import { work } from './work.js';

export interface Pair {
  a: Token[];
  b: Token[];
  ev: Evidence;
}

export interface Alignment {
  pairs: Pair[];
  leftA: Token[];
  leftB: Token[];
  /** Words not searched (beyond MAX_SEARCHED_PAIRS): paired only with the same word or initial, otherwise left over. */
  unsearchedA: Token[];
  unsearchedB: Token[];
  /** Some pairs of long words were compared only for an exact match: the comparison's budget of edit-distance cells ran out (work.ts). */
  tablesSkipped: boolean;
  score: number;
  optimistic: number;
  pessimistic: number;
}

/**
 * What an omitted word costs [low, central, high]. A first word that is a rare word is most often a
 * given name, and a name that adds one in front of the other whole (Anita Rajesh Sharma, Rajesh
 * Sharma) is most often another person of the family; a common first word (Mohammed, Venkata, Syed)
 * is often left out.
 */
const OMITTED = { given: [0, 1, 1], other: [0, 0.35, 1], spouse: [0, 2, 2] } as const;
/** An omitted surname or middle name costs the same whether the word is rare or not (Plaha, Sharma). */
const OMITTED_WEIGHT = 0.6;
/** In a contradiction, initials and words marking opposite genders weigh this much at least. */
const CONFLICT_INITIAL = 0.6;
const CONFLICT_GENDER = 1;
const MAX_JOIN = 3;

/** The units the search weighs: each searched word, and each run of two or three consecutive searched words joined. */
function units(tokens: Token[], searched: Set<number>, nameLength: number): Unit[] {
  const last = tokens.length - 1;
  const out: Unit[] = [];
  for (const t of tokens) if (searched.has(t.pos)) out.push(unitOf([t], nameLength, last));
  for (let size = 2; size <= MAX_JOIN; size++) {
    for (let i = 0; i + size <= tokens.length; i++) {
      const run = tokens.slice(i, i + size);
      if (run.every((t) => searched.has(t.pos))) out.push(unitOf(run, nameLength, last));
    }
  }
  return out;
}

/**
 * The most pairs of words the search weighs (words left in one name × words left in the other, once
 * exact matches are paired): 12 words each, far more than any name has. The work of the search grows
 * with this product (each word against each word and each run of two or three), so it bounds the cost
 * of one comparison whatever the names. Beyond it, the last words of the longer side are not searched:
 * they were compared only for an exact match, or an initial with the same initial (initialKey), and
 * are otherwise left over (the reason says so).
 */
export const MAX_SEARCHED_PAIRS = 144;

/** What compareUnits says of two words spelt the same (equal keys and spellings), and of two initials of the same letter. */
const exactEvidence = (): Evidence => ({ kind: 'exact', sim: 1, lo: 1, hi: 1 });
const sameInitials = (): Evidence => ({ kind: 'initials', sim: 1, lo: 0.7, hi: 1 });

/**
 * Pairs each word of `from`, in order, with the first unused word of `to` that has the same key (words
 * whose key is null are not paired). A hash join: linear in the words.
 */
function pairByKey(from: Token[], to: Token[], keyOf: (t: Token) => string | null, usedFrom: Set<number>, usedTo: Set<number>, pair: (f: Token, t: Token) => void): void {
  const queues = new Map<string, { words: Token[]; next: number }>();
  for (const t of to) {
    const k = keyOf(t);
    if (k === null || usedTo.has(t.pos)) continue;
    const q = queues.get(k);
    if (q) q.words.push(t);
    else queues.set(k, { words: [t], next: 0 });
  }
  for (const f of from) {
    const k = usedFrom.has(f.pos) ? null : keyOf(f);
    const q = k === null ? undefined : queues.get(k);
    const t = q?.words[q.next];
    if (!q || !t) continue;
    q.next++;
    usedFrom.add(f.pos);
    usedTo.add(t.pos);
    pair(f, t);
  }
}

/**
 * Words spelt the same on both sides are paired first, as the search would pair them (exact evidence is
 * the strongest, and ties go by position: each word of A in order with the first unused such word of
 * B), so that names repeating a word, or long names that agree, cost no search at all.
 */
const exactKey = (t: Token) => (t.initial ? null : `${t.key}\u0000${lexicalOf(t.latin)}`);
/** Words not searched are paired with an unused initial of the same letter (a long run of initials, which exactKey leaves aside, is still read). */
const initialKey = (t: Token) => t.initial;

/** The words left to search on each side, within maxPairs; the last words of the longer side are set aside. */
function bound(restA: Token[], restB: Token[], maxPairs: number): { searchedA: Set<number>; searchedB: Set<number>; unsearchedA: Token[]; unsearchedB: Token[] } {
  const [a, b] = [[...restA], [...restB]];
  const unsearchedA: Token[] = [];
  const unsearchedB: Token[] = [];
  while (a.length * b.length > maxPairs) {
    if (a.length >= b.length) unsearchedA.push(a.pop()!);
    else unsearchedB.push(b.pop()!);
  }
  return { searchedA: new Set(a.map((t) => t.pos)), searchedB: new Set(b.map((t) => t.pos)), unsearchedA: unsearchedA.reverse(), unsearchedB: unsearchedB.reverse() };
}

interface Candidate {
  a: Unit;
  b: Unit;
  ev: Evidence;
  pass: number;
}

const PASS: Record<EvidenceKind, number> = { exact: 0, variant: 0, spelling: 0, joined: 0, suffix: 0, truncated: 0, consonants: 0, initials: 1, initial: 1, near: 2 };
const RANK: Record<EvidenceKind, number> = { exact: 9, variant: 8, spelling: 7, joined: 6, suffix: 5, truncated: 4, consonants: 3, initials: 2, initial: 1, near: 0 };

/** Best evidence first; ties broken by fewer words, then by position, so the result is deterministic. */
function byStrength(x: Candidate, y: Candidate): number {
  return (
    x.pass - y.pass ||
    y.ev.sim - x.ev.sim ||
    RANK[y.ev.kind] - RANK[x.ev.kind] ||
    x.a.tokens.length + x.b.tokens.length - (y.a.tokens.length + y.b.tokens.length) ||
    x.a.tokens[0]!.pos - y.a.tokens[0]!.pos ||
    x.b.tokens[0]!.pos - y.b.tokens[0]!.pos
  );
}

function pairWeight(p: Pair): number {
  const wa = Math.max(...p.a.map((t) => t.weight));
  const wb = Math.max(...p.b.map((t) => t.weight));
  if (p.ev.kind === 'initial') return 0.5 * Math.max(p.a[0]!.initial ? wb : wa, 0.35);
  if (p.a.some((t) => t.consonantsOnly)) return wb;
  if (p.b.some((t) => t.consonantsOnly)) return wa;
  // Sanjaykumar against Sanjay weighs what Sanjay weighs; the kumar left over is counted apart (leftByJoin).
  if (p.ev.leaves) return p.ev.leaves.side === 'a' ? wb : wa;
  return Math.max(wa, wb);
}

function score(pairs: Pair[], leftA: Token[], leftB: Token[], reading: 0 | 1 | 2): number {
  const conflict = leftA.length > 0 && leftB.length > 0;
  let num = 0;
  let den = 0;
  for (const p of pairs) {
    const w = pairWeight(p);
    num += w * [p.ev.lo, p.ev.sim, p.ev.hi][reading]!;
    // Neighbouring names contradict each other except in the optimistic reading: both words count.
    den += p.ev.kind === 'near' && reading < 2 ? 2 * w : w;
  }
  if (num === 0) return 0;
  const genders = conflict ? opposedGenders(leftA, leftB) : false;
  const spouse = [displacedGiven(pairs, 'a', 'b'), displacedGiven(pairs, 'b', 'a')];
  for (const [side, left] of [leftA, leftB].entries()) {
    for (const t of left) {
      if (conflict) den += Math.max(t.weight, t.initial ? CONFLICT_INITIAL : 0, genders && genderOf(t.key) ? CONFLICT_GENDER : 0);
      else if (t.pos === 0 && t.weight >= 0.55) den += t.weight * (spouse[side] ? OMITTED.spouse : OMITTED.given)[2 - reading]!;
      else den += Math.min(t.weight, OMITTED_WEIGHT) * OMITTED.other[2 - reading]!;
    }
  }
  return num / den;
}

/**
 * The other name's first word (its given name) stands after the first word of this one. A rare word in
 * front of it is then most often another person's given name, with the first name's as the father's or
 * husband's (Anita Rajesh Sharma against Rajesh Sharma: a wife or a daughter).
 */
function displacedGiven(pairs: Pair[], side: 'a' | 'b', other: 'a' | 'b'): boolean {
  return pairs.some((p) => p[other].some((t) => t.pos === 0) && p[side].every((t) => t.pos > 0));
}

function opposedGenders(leftA: Token[], leftB: Token[]): boolean {
  const ga = new Set(leftA.map((t) => genderOf(t.key)));
  const gb = new Set(leftB.map((t) => genderOf(t.key)));
  return (ga.has('male') && gb.has('female')) || (ga.has('female') && gb.has('male'));
}

/**
 * Matches the words of two forms of names and scores the match: exact matches first (exactKey), then
 * a greedy search over the rest, strongest evidence first, within MAX_SEARCHED_PAIRS.
 */
export function align(A: Token[], B: Token[], lengthA: number, lengthB: number, maxPairs = MAX_SEARCHED_PAIRS): Alignment {
  const skipped = work.skipped;
  const usedA = new Set<number>();
  const usedB = new Set<number>();
  const pairs: Pair[] = [];
  pairByKey(A, B, exactKey, usedA, usedB, (a, b) => pairs.push({ a: [a], b: [b], ev: exactEvidence() }));
  const { searchedA, searchedB, unsearchedA, unsearchedB } = bound(
    A.filter((t) => !usedA.has(t.pos)),
    B.filter((t) => !usedB.has(t.pos)),
    maxPairs,
  );
  const ub = units(B, searchedB, lengthB);
  const candidates: Candidate[] = [];
  for (const a of units(A, searchedA, lengthA)) {
    for (const b of ub) {
      if (a.tokens.length > 1 && b.tokens.length > 1) continue;
      const ev = compareUnits(a, b);
      if (ev) candidates.push({ a, b, ev, pass: PASS[ev.kind] });
    }
  }
  candidates.sort(byStrength);
  for (const c of candidates) {
    if (c.a.tokens.some((t) => usedA.has(t.pos)) || c.b.tokens.some((t) => usedB.has(t.pos))) continue;
    for (const t of c.a.tokens) usedA.add(t.pos);
    for (const t of c.b.tokens) usedB.add(t.pos);
    pairs.push({ a: c.a.tokens, b: c.b.tokens, ev: c.ev });
  }
  pairByKey(unsearchedA, B, initialKey, usedA, usedB, (a, b) => pairs.push({ a: [a], b: [b], ev: sameInitials() }));
  pairByKey(unsearchedB, A, initialKey, usedB, usedA, (b, a) => pairs.push({ a: [a], b: [b], ev: sameInitials() }));
  const leftA = [...A.filter((t) => !usedA.has(t.pos)), ...leftByJoin(pairs, 'a')];
  const leftB = [...B.filter((t) => !usedB.has(t.pos)), ...leftByJoin(pairs, 'b')];
  return {
    pairs,
    leftA,
    leftB,
    unsearchedA,
    unsearchedB,
    tablesSkipped: work.skipped > skipped,
    score: score(pairs, leftA, leftB, 1),
    optimistic: score(pairs, leftA, leftB, 2),
    pessimistic: score(pairs, leftA, leftB, 0),
  };
}

/**
 * The name words joined to a matched word and absent from the other (Sanjaykumar against Sanjay: kumar),
 * as words of their side left unmatched: omitted, they cost what an omitted Kumar costs; against a word
 * of the other name left over, they contradict it (Ramkumar, Ram Prasad), as "Ram Kumar" would.
 */
function leftByJoin(pairs: Pair[], side: 'a' | 'b'): Token[] {
  return pairs.flatMap((p) => {
    if (p.ev.leaves?.side !== side) return [];
    const t = p[side][0]!;
    return [{ ...t, text: p.ev.leaves.key, latin: p.ev.leaves.key, key: p.ev.leaves.key, initial: null, weight: tokenWeight(p.ev.leaves.key), pos: t.pos + 0.5 }];
  });
}

const words = (ts: Token[]) => ts.map((t) => t.text).join(' ');

const DETAIL: Partial<Record<EvidenceKind, [NameMatchReason['code'], string]>> = {
  spelling: ['SPELLING_VARIANT', ''],
  variant: ['NAME_VARIANT', ''],
  initial: ['INITIAL_MATCHED', ''],
  initials: ['INITIAL_MATCHED', ''],
  joined: ['TOKENS_JOINED', ''],
  suffix: ['JOINED_SUFFIX', ''],
  truncated: ['TRUNCATED', ''],
  consonants: ['CONSONANTS_ONLY', ' (consonants only)'],
  near: ['NEAR_MISS', ': neighbouring names, not taken as the same word'],
};

/** Said beside the words left over when the search was bounded: too many words, or too many long ones, to weigh every pair. */
function unsearchedNote(al: Alignment): string {
  const parts = ([[al.unsearchedA, 'name_1'], [al.unsearchedB, 'name_2']] as const).filter(([ts]) => ts.length > 0).map(([ts, field]) => `${words(ts)} (${field})`);
  const notes = [
    ...(parts.length ? [`too many words to weigh every pair, so ${parts.join(' and ')} compared only with the same word or initial`] : []),
    ...(al.tablesSkipped ? ['too many long words to weigh every pair in full, so some were compared only for an exact match'] : []),
  ];
  return notes.map((n) => `; ${n}`).join('');
}

/** What the alignment found, as reasons. */
export function explain(al: Alignment): NameMatchReason[] {
  const reasons: NameMatchReason[] = [];
  for (const p of al.pairs) {
    const d = DETAIL[p.ev.kind];
    if (d) reasons.push({ code: d[0], detail: `${words(p.a)} ~ ${words(p.b)}${d[1]}` });
  }
  const singles = al.pairs.filter((p) => p.a.length === 1 && p.b.length === 1).sort((x, y) => x.a[0]!.pos - y.a[0]!.pos);
  if (singles.some((p, i) => i > 0 && p.b[0]!.pos < singles[i - 1]!.b[0]!.pos)) {
    reasons.push({ code: 'ORDER_SWAPPED', detail: `${singles.map((p) => words(p.a)).join(' ')} / ${[...singles].sort((x, y) => x.b[0]!.pos - y.b[0]!.pos).map((p) => words(p.b)).join(' ')}` });
  }
  const note = unsearchedNote(al);
  if (al.leftA.length && al.leftB.length) {
    reasons.push({ code: 'TOKEN_MISMATCH', detail: `${words(al.leftA)} (name_1) against ${words(al.leftB)} (name_2)${note}` });
  } else {
    for (const [left, field] of [[al.leftA, 'name_1'], [al.leftB, 'name_2']] as const) {
      if (left.length) reasons.push({ code: 'TOKEN_MISSING', detail: `${words(left)} only in ${field}${left.every((t) => t.weight < 0.5) ? ' (a common word)' : ''}${note}` });
    }
  }
  if (al.pairs.length > 0 && al.pairs.every((p) => p.ev.kind === 'exact') && !al.leftA.length && !al.leftB.length) {
    reasons.push({ code: 'EXACT_MATCH', detail: al.pairs.map((p) => words(p.a)).join(' ') });
  }
  return reasons;
}
