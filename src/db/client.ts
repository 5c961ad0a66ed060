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

/** A statement with at most this many parameters is prepared once per connection (see below). */
const PREPARED_MAX_PARAMS = 16;

/**
 * Counts what a pg client sends (db/stats.ts), and names each statement of few parameters, so that
 * the server parses and analyses its text once per connection instead of on every call (node-postgres
 * prepares a named statement on first use and binds it after). The hot statements pass their rows as
 * one jsonb recordset, so their text does not change with the batch; a text with a long list of
 * parameters (an IN list of a varying length) stays unnamed, so the prepared set stays small.
 */
function wrapClient(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const names = new Map<string, string>();
  (client as { query: unknown }).query = (...args: unknown[]) => {
    storeStats.statements++;
    const [text, values] = args;
    if (typeof text === 'string' && Array.isArray(values) && values.length > 0 && values.length <= PREPARED_MAX_PARAMS && args.length === 2) {
      let name = names.get(text);
      if (name === undefined) names.set(text, (name = `s${names.size}`));
      return query({ name, text, values });
    }
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
    pool.on('connect', wrapClient);
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), ...(opts.traced && { log: traceStatement }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  const pool = await (opts.engine ?? PGlitePool.openIn(opts.dataDir));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), ...(opts.traced && { log: traceStatement }) });
  return { db, kind: 'embedded', close: () => db.destroy() };
}
