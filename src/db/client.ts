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

/**
 * A statement with at most this many parameters is prepared once per connection (see below): a lone
 * live outcome's one statement has 40 (operations/live-runner.ts)...
 */
const PREPARED_MAX_PARAMS = 64;
/** ...and at most this many statements per connection, so that what the server keeps stays bounded. */
const PREPARED_MAX_NAMES = 500;

/**
 * Counts what a pg client sends (db/stats.ts), pipelines BEGIN, and names each statement of few parameters, so that
 * the server parses and analyses its text once per connection instead of on every call (node-postgres
 * prepares a named statement on first use and binds it after). The hot statements pass their rows as
 * one jsonb recordset, so their text does not change with the batch; a text with a long list of
 * parameters (an IN list of a varying length) stays unnamed, so the prepared set stays small.
 */
function wrapClient(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  const names = new Map<string, string>();
  let began: Promise<unknown> | null = null;
  const send = (args: unknown[]): Promise<unknown> => {
    const [text, values] = args;
    if (typeof text === 'string' && Array.isArray(values) && values.length > 0 && values.length <= PREPARED_MAX_PARAMS && args.length === 2) {
      let name = names.get(text);
      if (name === undefined && names.size < PREPARED_MAX_NAMES) names.set(text, (name = `s${names.size}`));
      if (name !== undefined) return query({ name, text, values });
    }
    return query(...args);
  };
  (client as { query: unknown }).query = (...args: unknown[]) => {
    storeStats.statements++;
    // BEGIN is answered at once and its statement sent behind it (node-postgres sends a client's queries
    // in order, each when the one before is answered): the transaction's first statement is built while
    // BEGIN travels. BEGIN fails only with its connection, and so does what follows it; the first
    // statement then throws BEGIN's error, as if it had been awaited (db/pglite-pool.ts does the same).
    if (args[0] === 'begin' && (args[1] === undefined || (Array.isArray(args[1]) && args[1].length === 0))) {
      began = query('begin');
      began.catch(() => undefined); // observed by the next statement; never an unhandled rejection
      return Promise.resolve({ command: 'BEGIN', rowCount: null, rows: [] });
    }
    const sent = send(args);
    if (!began) return sent;
    const b = began;
    began = null;
    return b.then(
      () => sent,
      async (err: unknown) => {
        await sent.catch(() => undefined);
        throw err;
      },
    );
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
