// Owns the connection to the store: a pg Pool when DATABASE_URL is set, embedded PGlite otherwise.
// Both speak the PostgreSQL dialect through the same Kysely instance; no code path differs after this.
// The pg driver loads only when a PostgreSQL server is named: the embedded default boots without it
// (about 80 ms of module loading, issue #28). With traces on, every statement is a span (its kind and
// table, never its parameters: tracing/index.ts statementSpan), through Kysely's log hook.
import { Kysely, PostgresDialect, type LogEvent } from 'kysely';
import type pg from 'pg';
import type { DB } from './schema.js';
import { PGlitePool } from './pglite-pool.js';
import { INT8_PARSER } from './types.js';
import { storeStats } from './stats.js';
import { statementSpan } from '../tracing/index.js';

export { embeddedDir } from './pglite-pool.js';

export type Db = Kysely<DB>;
export interface Store {
  db: Db;
  kind: 'postgres' | 'embedded';
  close(): Promise<void>;
}

export interface StoreOptions {
  databaseUrl: string | undefined;
  dataDir: string;
  poolMax?: number;
  /** The embedded engine, already opening (server.ts starts it before loading the rest). */
  engine?: Promise<PGlitePool>;
  /** Traces are on (Config.traces): each statement becomes a span of the trace it runs in. */
  traced?: boolean;
}

const traceStatement = (e: LogEvent) => statementSpan(e.query.sql, e.queryDurationMillis, e.level === 'error');

/** Counts what a pg client sends (db/stats.ts). */
function countStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    storeStats.statements++;
    return query(...args);
  };
}

export async function openStore(opts: StoreOptions): Promise<Store> {
  if (opts.databaseUrl) {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolMax ?? 10,
      types: {
        getTypeParser: ((oid: number, format?: string) =>
          oid === 20 ? INT8_PARSER : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
      },
    });
    // An idle client losing its server must not crash the process; the next query reports the error.
    pool.on('error', () => {});
    pool.on('connect', countStatements);
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), ...(opts.traced && { log: traceStatement }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  const pool = await (opts.engine ?? PGlitePool.openIn(opts.dataDir));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), ...(opts.traced && { log: traceStatement }) });
  return { db, kind: 'embedded', close: () => db.destroy() };
}
