// The name-match engine (src/namematch) on the labelled set bench/name-pairs.json, at the default
// thresholds, beside the baseline it replaces: the token-sort Levenshtein ratio that signature-match
// computes as name_match_score, read as a match at ≥ 80.
//
// How pairs are counted (docs/NAME-MATCH.md):
//   - right: approve for a same-person pair, reject for a different-person pair;
//   - review: neither right nor wrong; "right or review" counts it as a correct abstention;
//   - match accuracy: `match` (approve) against the label, review counting as no match, which is what
//     a client that reads only `match` sees and what the baseline's one threshold gives;
//   - precision and recall of approve for "same";
//   - confident mistakes: a different person as DIRECT_MATCH, the same person as NO_MATCH.
// Overall, for each split (dev: used to set the thresholds; heldout, fresh, fresh2, fresh3 and fresh4: written blind, each
// scored once before it was read; "before fresh4": the set without fresh4, to show what the rules written for it cost the rest; their first looks are in docs/NAME-MATCH.md), and per category. Also the time per pair. Run: `BENCH_ONLY=name-match npm run bench`, or
// `node dist/bench/name-match.js` after a build; NAME_MATCH_VERBOSE=1 lists every pair not decided right
// (=dev, =heldout, =fresh, =fresh2, =fresh3 or =fresh4: those of one split).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_THRESHOLDS, matchNames, type NameMatchResult } from '../src/namematch/index.js';
import { nameMatchScore } from '../src/providers/sandbox/index.js';

export interface LabelledPair {
  id: string;
  category: string;
  label: 'same' | 'different';
  name_1: string;
  name_2: string;
  split: 'dev' | 'heldout' | 'fresh' | 'fresh2' | 'fresh3' | 'fresh4';
  /** What the pair tests (the fresh2 and fresh3 splits say it per pair; fresh4's category says it). */
  tests?: string;
}

export const DATASET = fileURLToPath(new URL('../../bench/name-pairs.json', import.meta.url));
export const loadPairs = (): LabelledPair[] => (JSON.parse(readFileSync(DATASET, 'utf8')) as { pairs: LabelledPair[] }).pairs;

export const BASELINE_THRESHOLD = 80;

export interface Scored {
  pair: LabelledPair;
  result: NameMatchResult;
  baseline: number;
}

export interface Stats {
  n: number;
  right: number;
  review: number;
  wrong: number;
  matchRight: number;
  approvedSame: number;
  approved: number;
  same: number;
  confident: number;
  baseRight: number;
  baseTruePos: number;
  basePos: number;
}

export function stats(rows: Scored[]): Stats {
  const s: Stats = { n: 0, right: 0, review: 0, wrong: 0, matchRight: 0, approvedSame: 0, approved: 0, same: 0, confident: 0, baseRight: 0, baseTruePos: 0, basePos: 0 };
  for (const { pair, result, baseline } of rows) {
    const same = pair.label === 'same';
    s.n++;
    if (same) s.same++;
    if (result.decision === 'review') s.review++;
    else if ((result.decision === 'approve') === same) s.right++;
    else s.wrong++;
    if (result.match === same) s.matchRight++;
    if (result.match) s.approved++;
    if (result.match && same) s.approvedSame++;
    if ((same && result.category === 'NO_MATCH') || (!same && result.category === 'DIRECT_MATCH')) s.confident++;
    const basePos = baseline >= BASELINE_THRESHOLD;
    if (basePos === same) s.baseRight++;
    if (basePos) s.basePos++;
    if (basePos && same) s.baseTruePos++;
  }
  return s;
}

export function scoreAll(pairs: LabelledPair[] = loadPairs()): Scored[] {
  return pairs.map((pair) => ({ pair, result: matchNames(pair.name_1, pair.name_2), baseline: nameMatchScore(pair.name_1, pair.name_2) }));
}

export interface Timing {
  meanUs: number;
  medianUs: number;
  p99Us: number;
}

/** Mean, median and p99 microseconds per pair over `rounds` passes of the whole set. */
export function timing(pairs: LabelledPair[], rounds = 20): Timing {
  const each: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const p of pairs) {
      const t0 = performance.now();
      matchNames(p.name_1, p.name_2);
      each.push((performance.now() - t0) * 1000);
    }
  }
  each.sort((a, b) => a - b);
  return { meanUs: each.reduce((a, b) => a + b, 0) / each.length, medianUs: each[Math.floor(each.length / 2)]!, p99Us: each[Math.floor(each.length * 0.99)]! };
}

const pc = (a: number, b: number) => (b === 0 ? '–' : `${((100 * a) / b).toFixed(1)}`);

function row(name: string, s: Stats): string {
  return `| ${name} | ${s.n} | ${pc(s.right, s.n)} | ${pc(s.review, s.n)} | ${pc(s.right + s.review, s.n)} | ${pc(s.matchRight, s.n)} | ${pc(s.approvedSame, s.approved)} | ${pc(s.approvedSame, s.same)} | ${s.wrong} | ${s.confident} | ${pc(s.baseRight, s.n)} | ${pc(s.baseTruePos, s.basePos)} | ${pc(s.baseTruePos, s.same)} |`;
}

export function printNameMatch(rows: Scored[], time: Timing): void {
  const t = DEFAULT_THRESHOLDS;
  console.log(`\nName match on bench/name-pairs.json at the default thresholds (approve ≥ ${t.approve_at}, review ≥ ${t.review_at}); baseline: token-sort Levenshtein ≥ ${BASELINE_THRESHOLD}\n`);
  console.log('| pairs | n | right % | review % | right or review % | match acc. % | precision % | recall % | wrong | confident mistakes | baseline acc. % | baseline precision % | baseline recall % |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  console.log(row('all', stats(rows)));
  console.log(row('dev', stats(rows.filter((r) => r.pair.split === 'dev'))));
  console.log(row('held-out', stats(rows.filter((r) => r.pair.split === 'heldout'))));
  console.log(row('fresh', stats(rows.filter((r) => r.pair.split === 'fresh'))));
  console.log(row('fresh2', stats(rows.filter((r) => r.pair.split === 'fresh2'))));
  console.log(row('fresh3', stats(rows.filter((r) => r.pair.split === 'fresh3'))));
  console.log(row('fresh4', stats(rows.filter((r) => r.pair.split === 'fresh4'))));
  console.log(row('before fresh4', stats(rows.filter((r) => r.pair.split !== 'fresh4'))));
  const categories = [...new Set(rows.map((r) => r.pair.category))].sort();
  for (const c of categories) console.log(row(c, stats(rows.filter((r) => r.pair.category === c))));
  console.log(`\nTime per pair: median ${time.medianUs.toFixed(1)} µs, mean ${time.meanUs.toFixed(1)} µs, p99 ${time.p99Us.toFixed(1)} µs (${rows.length} pairs × 20 rounds, one core)`);
  if (process.env.NAME_MATCH_VERBOSE) {
    console.log('\nNot decided right:\n');
    for (const { pair, result, baseline } of rows) {
      const right = result.decision === (pair.label === 'same' ? 'approve' : 'reject');
      if (right || (process.env.NAME_MATCH_VERBOSE !== '1' && pair.split !== process.env.NAME_MATCH_VERBOSE)) continue;
      console.log(`${pair.id} [${pair.split}] ${pair.category} ${pair.label}: "${pair.name_1}" / "${pair.name_2}" → ${result.score} (${result.pessimistic_score}–${result.optimistic_score}) ${result.category} ${result.decision}; baseline ${baseline}${pair.tests ? ` (tests: ${pair.tests})` : ''}`);
      for (const r of result.reasons) console.log(`    ${r.code}: ${r.detail}`);
    }
  }
}

export function nameMatchBench(): { rows: Scored[]; time: Timing } {
  const pairs = loadPairs();
  const rows = scoreAll(pairs);
  return { rows, time: timing(pairs) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { rows, time } = nameMatchBench();
  printNameMatch(rows, time);
}
