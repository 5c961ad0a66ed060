// Owns the engine's work counters and its budget of edit-distance cells: how many pairs of words (or
// joined words) one comparison weighed, and how many cells of the edit distance it filled. The counters
// exist so that a test can assert the work a comparison does is bounded (tests never assert timings),
// and never change an answer. The budget bounds the cells one comparison of two names may fill
// (MAX_CELLS); it is reset at the start of each comparison, so an answer depends only on the two names.

export interface Work {
  /** Pairs of units (a word, or consecutive words joined) compared in the alignment. */
  comparisons: number;
  /** Cells of the weighted edit distance filled, across every call. */
  cells: number;
  /** Cells the current comparison of two names may still fill (startComparison sets it). */
  budget: number;
  /** Tables not filled because the budget could not hold them: those words were compared only for an exact match. */
  skipped: number;
}

/**
 * The most cells of edit distance one comparison of two names fills. Real names fill a few hundred
 * (the labelled set at most 264; six long Tamil words against their Latin spelling about 1,250), so
 * only names built to be costly (long words of vowels and h that every filter lets through) reach it;
 * their remaining pairs are then compared only for an exact match, and the reasons say so.
 */
export const MAX_CELLS = 20_000;

export const work: Work = { comparisons: 0, cells: 0, budget: MAX_CELLS, skipped: 0 };

/** A new comparison of two names begins: its own budget of cells. */
export function startComparison(): void {
  work.budget = MAX_CELLS;
}
