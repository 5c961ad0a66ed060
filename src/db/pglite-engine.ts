// Owns the embedded engine itself: how PGlite is opened (its settings and type parsers) and how one
// statement runs on it. The engine thread (pglite-thread.ts) uses both; so does the raw-store
// benchmark, which writes straight into PGlite with nothing of Sangam in between.
import { PGlite, types } from '@electric-sql/pglite';
import { INT8_PARSER } from './types.js';

export function openEngine(dataDir: string): Promise<PGlite> {
  return PGlite.create(dataDir, {
    parsers: { [types.INT8]: INT8_PARSER },
    // The embedded store is the zero-install default: keep its memory small (idle RSS target < 300 MB).
    postgresqlconf: ['shared_buffers = 16MB', 'wal_buffers = 1MB', 'work_mem = 4MB', 'maintenance_work_mem = 16MB'],
  });
}

export interface EngineResult {
  rows: unknown[];
  rowCount: number;
}

/** Runs one statement; without parameters the text may hold several (migrations): the simple protocol. */
export async function runStatement(pg: PGlite, sql: string, parameters: readonly unknown[]): Promise<EngineResult> {
  const res = parameters.length === 0 ? ((await pg.exec(sql)).at(-1) ?? { rows: [], affectedRows: 0 }) : await pg.query(sql, parameters as unknown[]);
  return { rows: res.rows, rowCount: res.affectedRows ?? res.rows.length };
}
