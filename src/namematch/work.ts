// Owns the engine's work counters: how many pairs of words (or joined words) one comparison weighed,
// and how many cells of the edit distance it filled. They exist so that a test can assert the work a
// comparison does is bounded (tests never assert timings), and so that a profile can say where the
// work went. They never change an answer; reading them is for tests and benchmarks only.

export interface Work {
  /** Pairs of units (a word, or consecutive words joined) compared in the alignment. */
  comparisons: number;
  /** Cells of the weighted edit distance filled, across every call. */
  cells: number;
}

export const work: Work = { comparisons: 0, cells: 0 };

/** Sets the counters to zero (tests: read `work` after one comparison). */
export function resetWork(): void {
  work.comparisons = 0;
  work.cells = 0;
}
