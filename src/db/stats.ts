// Owns the process's store counters: statements sent to the store, and the time the embedded engine
// spent executing them. /metrics exposes them (metrics.ts), and bench/ reads them to count statements
// per request and to tell Sangam's own CPU from the store's.
export const storeStats = {
  /** Statements sent to the store, BEGIN and COMMIT included. */
  statements: 0,
  /** Embedded store only: milliseconds its engine spent executing statements. */
  engineMs: 0,
};
