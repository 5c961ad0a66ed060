// Owns naming the transactions that explain a float drift: which sets of candidate transactions have
// amounts that sum exactly to the drift (a subset sum). The search is bounded, since a drift of a few
// hundred rupees over a busy week has more subsets than anyone can look at: the candidates are the
// most recent few dozen inside the partner's reversal window, sets grow one transaction at a time
// (every single match is found before any pair, every pair before any triple), up to `maxSize`, and
// the whole search stops after `maxNodes` steps or `maxSets` explanations. `exhaustive` says whether
// it ended on its own, i.e. whether the sets listed are all the explanations there are within the size.
// Pure: no store, no clock.

export interface Bounds {
  /** The most transactions in one explanation. */
  maxSize: number;
  /** Search steps across all sizes. */
  maxNodes: number;
  /** Explanations kept. */
  maxSets: number;
}

export const DEFAULT_BOUNDS: Bounds = { maxSize: 6, maxNodes: 200_000, maxSets: 20 };

/**
 * The sets of indices into `amounts` (each > 0) whose amounts sum to `target` (> 0), smallest sets
 * first, and whether the bounded search covered every set up to `maxSize`.
 */
export function subsetsSumming(amounts: readonly number[], target: number, bounds: Bounds = DEFAULT_BOUNDS): { sets: number[][]; exhaustive: boolean } {
  // Largest first, so that what the next picks can still reach is two prefix sums away.
  const order = amounts.map((a, i) => ({ a, i })).filter((x) => x.a > 0 && x.a <= target).sort((x, y) => y.a - x.a || x.i - y.i);
  const a = order.map((x) => x.a);
  const prefix = [0];
  for (const v of a) prefix.push(prefix.at(-1)! + v);
  const n = a.length;
  const sets: number[][] = [];
  let nodes = 0;
  let cut = false;
  const pick: number[] = [];
  // Picks `left` more from positions ≥ i summing to `rest`.
  const walk = (i: number, left: number, rest: number): void => {
    if (cut) return;
    if (left === 0) {
      if (rest === 0) {
        sets.push(pick.map((p) => order[p]!.i).sort((x, y) => x - y));
        if (sets.length >= bounds.maxSets) cut = true;
      }
      return;
    }
    for (let j = i; j <= n - left; j++) {
      if (++nodes > bounds.maxNodes) {
        cut = true;
        return;
      }
      const most = prefix[j + left]! - prefix[j]!; // the `left` largest from j on
      const least = prefix[n]! - prefix[n - left]!; // the `left` smallest of all
      if (rest > most) return; // further j only get smaller
      if (rest < least) return;
      if (a[j]! > rest) continue;
      pick.push(j);
      walk(j + 1, left - 1, rest - a[j]!);
      pick.pop();
      if (cut) return;
    }
  };
  for (let size = 1; size <= Math.min(bounds.maxSize, n) && !cut; size++) walk(0, size, target);
  return { sets, exhaustive: !cut };
}

const gcd = (x: number, y: number): number => (y === 0 ? x : gcd(y, x % y));

/**
 * For each amount, whether it belongs to at least one subset (of any size) summing exactly to
 * `target`: the complete list of transactions that can explain a drift, where the bounded search of
 * subsetsSumming may have stopped before finding the set that is true. A dynamic programme over the
 * sums reachable before and after each amount, counted in units of the amounts' greatest common
 * divisor (recharges are whole rupees); null when that is more than `maxUnits` sums (not computed).
 */
export function members(amounts: readonly number[], target: number, maxUnits = 200_000): boolean[] | null {
  const g = amounts.reduce((acc, a) => (a > 0 ? gcd(acc, a) : acc), target);
  const n = amounts.length;
  if (g <= 0 || target % g !== 0) return amounts.map(() => false);
  const t = target / g;
  if (t > maxUnits || n * (t + 1) > 64 * maxUnits) return null;
  const u = amounts.map((a) => (a > 0 && a % g === 0 ? a / g : 0));
  // before[i]: sums reachable with amounts 0..i−1; after[i]: with amounts i..n−1.
  const step = (from: Uint8Array, a: number) => {
    const next = Uint8Array.from(from);
    if (a > 0) for (let s = t; s >= a; s--) if (from[s - a]) next[s] = 1;
    return next;
  };
  const before: Uint8Array[] = [new Uint8Array(t + 1)];
  before[0]![0] = 1;
  for (let i = 0; i < n; i++) before.push(step(before[i]!, u[i]!));
  const after: Uint8Array[] = new Array(n + 1);
  after[n] = new Uint8Array(t + 1);
  after[n]![0] = 1;
  for (let i = n - 1; i >= 0; i--) after[i] = step(after[i + 1]!, u[i]!);
  return u.map((a, i) => {
    if (a === 0 || a > t) return false;
    const b = before[i]!;
    const c = after[i + 1]!;
    for (let s = 0; s <= t - a; s++) if (b[s] && c[t - a - s]) return true;
    return false;
  });
}
