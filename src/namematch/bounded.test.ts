// The work one comparison does is bounded whatever the two names (within the 200/256-character limits):
// the costliest inputs found (by hand and by a search that grew names to maximise the work) are run
// through the engine and the work counters (work.ts) are checked against the bounds. Never a timing.
// Also: the pruned edit distance answers exactly as the full one wherever its answer is used, and names
// within the bounds are compared as before (long names that agree still match in full).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MAX_SEARCHED_PAIRS } from './align.js';
import { matchNames, type NameMatchResult } from './index.js';
import { consonantsOf, keyDistance, mayBeWithin } from './phonetic.js';
import { MAX_CELLS, startComparison, work } from './work.js';

/** Each word of one name against each word and each run of two or three of the other, within MAX_SEARCHED_PAIRS. */
const MAX_COMPARISONS = 5 * MAX_SEARCHED_PAIRS;

const rng = (seed: number) => () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

function worstInputs(): Array<[string, string, string]> {
  const r = rng(12345);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const word = (n: number) => Array.from({ length: n }, () => letters[Math.floor(r() * 26)]).join('');
  const mutate = (w: string) => {
    const i = Math.floor(r() * w.length);
    return `${w.slice(0, i)}a${w.slice(i + 1)}`;
  };
  const eight = Array.from({ length: 8 }, () => word(24));
  const vowels = Array.from({ length: 100 }, (_, i) => 'bcdfghjklmnprstv'[i % 16]! + 'aeiou'[i % 5]!).join('');
  const form = 'ba be bi bo bu da de di do du ga ge';
  const form2 = 'bah beh bih boh buh dah deh dih doh duh gah geh';
  const mixed = 'aरbকcਕdકeକfతgಕhമiعjर'.repeat(10).slice(0, 200);
  return [
    ['66 two-letter words, the same', 'ab '.repeat(66), 'ab '.repeat(66)],
    ['66 two-letter words against 66 others', 'ab '.repeat(66), 'ba '.repeat(66)],
    ['8 words of 24 letters, one letter changed in each', eight.join(' '), eight.map(mutate).join(' ')],
    ['one word of 200 letters, one changed', vowels, mutate(vowels)],
    ['three aliases of 12 words each', [form, form, form].join(' aka '), [form2, form2, form2].join(' aka ')],
    ['100 initials', 'a '.repeat(100), 'b '.repeat(100)],
    ['a script change at every letter', mixed, mixed],
    ['U+FDFA, 18 characters each after NFKC', '\ufdfa'.repeat(14), '\ufdfa'.repeat(14)],
    // Grown by a search for the most work: words of vowels, h and y, which every consonant filter lets through.
    [
      'long words of vowels and h',
      'iyaiyouaueihhih iehoeiyeuhuehboyehieheaiddauheo hoi hhiiaieouiaieoih behyiyiaieohhoeiiaiahhoeiiahadyauiiehyoyieahoi hiauoaeuhioaiih y oiyi bihhb hiieouih odhuedkdyaoidiek eeeaebuahiuuideyoaiuaouehauey',
      'yuouhai yoaa eahyuouahy yobkkedbhydedyb okohoiibbehyyyhaoikuyeabiuyhyeobyyo oa yeyoehiiouiaoeayhou ihiaohahy ybeiaahihdoaoooahuhyayauiyohauyoaioaha ieauoabhhuyioioyeyaihyouiaeuiyeaady ohiyya o beoaib',
    ],
  ];
}

function measured(a: string, b: string): { result: NameMatchResult; comparisons: number; cells: number } {
  Object.assign(work, { comparisons: 0, cells: 0, skipped: 0 }); // the counters from zero: one comparison's work
  const result = matchNames(a, b);
  return { result, comparisons: work.comparisons, cells: work.cells };
}

test('the costliest names found stay within the bounds on comparisons and edit-distance cells', () => {
  for (const [what, a, b] of worstInputs()) {
    const { result, comparisons, cells } = measured(a, b);
    assert.ok(comparisons <= MAX_COMPARISONS, `${what}: ${comparisons} comparisons`);
    assert.ok(cells <= MAX_CELLS, `${what}: ${cells} cells`);
    assert.ok(result.score >= 0 && result.score <= 100, what);
  }
});

test('long names that agree are still compared in full: exact words pair without a search', () => {
  const words = Array.from({ length: 48 }, (_, i) => `${'bcdfgklmnprstvz'[i % 15]}${'aeiou'[Math.floor(i / 15)]}r`);
  const { result, comparisons } = measured(words.join(' '), [...words].reverse().join(' '));
  assert.equal(result.score, 100);
  assert.ok(result.reasons.some((r) => r.code === 'ORDER_SWAPPED'));
  assert.equal(comparisons, 0);
  assert.equal(measured('a '.repeat(100), 'a '.repeat(100)).result.score, 100, 'a long run of initials pairs with the same initials');
});

test('past the bound, the reasons say which words were compared only for the same word', () => {
  const { result } = measured('ab '.repeat(66), 'ba '.repeat(66));
  const left = result.reasons.find((r) => r.code === 'TOKEN_MISMATCH');
  assert.ok(left?.detail.includes('too many words to weigh every pair'), JSON.stringify(result.reasons));
  assert.equal(result.decision, 'reject');
  const [, a, b] = worstInputs().at(-1)!;
  const long = measured(a, b).result;
  assert.ok(long.reasons.some((r) => r.detail.includes('too many long words')), JSON.stringify(long.reasons));
});

test('the budget is per comparison: an answer does not depend on what was compared before', () => {
  const [, a, b] = worstInputs().at(-1)!;
  const first = matchNames(a, b);
  for (const [, x, y] of worstInputs()) matchNames(x, y);
  assert.deepEqual(matchNames(a, b), first);
});

test('the pruned edit distance answers as the full one wherever its answer is used', () => {
  const key = fc.array(fc.constantFrom(...'aeiou@hyvbpkgcjszdtrRnmlf'.split('')), { minLength: 1, maxLength: 14 }).map((a) => a.join(''));
  fc.assert(
    fc.property(key, key, fc.boolean(), fc.constantFrom(0.75, 0.85, 0.9), fc.constantFrom(0, 1), (a, b, loose, minSim, maxHard) => {
      startComparison();
      const full = keyDistance(a, b, loose);
      startComparison();
      const pruned = keyDistance(a, b, loose, minSim, maxHard as 0 | 1);
      if (full.sim >= minSim && full.hard <= maxHard) assert.deepEqual(pruned, full);
      else assert.ok(pruned.sim < minSim || pruned.hard > maxHard);
      // The consonant-class filter never turns away a pair the distance would pass.
      for (const h of [0, 1] as const) if (full.hard <= h) assert.ok(mayBeWithin(consonantsOf(a), consonantsOf(b), h), `${a} ${b} hard ${full.hard}`);
    }),
    { numRuns: 3000, seed: 11 },
  );
});
