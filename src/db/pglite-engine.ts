// Owns the embedded engine itself: how PGlite is opened (its settings and type parsers) and how one
// statement runs on it. The engine thread (pglite-thread.ts) uses both; so does the raw-store
// benchmark, which writes straight into PGlite with nothing of Sangam in between.
//
// A statement marked to be kept prepared (db/prepared.ts: one call's rows) is parsed once as a named
// statement and then only bound and executed, in one call into the engine: PGlite's own query()
// parses, analyses and plans the text on every call, in five calls into the engine, which for a live
// call's one-statement recovery point or outcome was 1.3–1.9 ms of a 1.5–2.2 ms statement (issue #42).
// Values are serialised and rows parsed with the engine's own serializers and parsers (PGlite's
// parseResults), so what a caller gets back does not change.
import { PGlite, parse, protocol, types, type Results } from '@electric-sql/pglite';
import { INT8_PARSER } from './types.js';
import { PREPARED_MARK } from './prepared.js';

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

/** A marked statement with at most this many parameters is prepared (db/client.ts keeps the same bounds)... */
const PREPARED_MAX_PARAMS = 64;
/** ...and at most this many statements (a soft bound: two first uses at once may both count), so that the plans the engine keeps stay bounded. */
const PREPARED_MAX_NAMES = 500;

interface Prepared {
  name: string;
  /** The parameters' types as the engine inferred them, for its serializers. */
  types: number[];
}
const preparedOn = new WeakMap<PGlite, Map<string, Prepared>>();

const result = (res: Results | undefined): EngineResult => ({ rows: res?.rows ?? [], rowCount: res?.affectedRows ?? res?.rows.length ?? 0 });

/** Runs one statement; without parameters the text may hold several (migrations): the simple protocol. */
export async function runStatement(pg: PGlite, sql: string, parameters: readonly unknown[]): Promise<EngineResult> {
  if (parameters.length === 0) return result((await pg.exec(sql)).at(-1));
  const statements = preparedOn.get(pg) ?? preparedOn.set(pg, new Map()).get(pg)!;
  const unprepared = parameters.length > PREPARED_MAX_PARAMS || !sql.startsWith(PREPARED_MARK) || (!statements.has(sql) && statements.size >= PREPARED_MAX_NAMES);
  // query() takes the engine's lock itself: never from inside it.
  if (unprepared) return result(await pg.query(sql, parameters as unknown[]));
  // The engine's own lock: nothing of another statement goes between the messages of this one.
  return pg._runExclusiveQuery(async () => {
    const prepared = statements.get(sql) ?? (await prepare(pg, statements, sql));
    const values = parameters.map((v, i) => (v === null || v === undefined ? null : ((pg.serializers[prepared.types[i]!] ?? String) as (x: unknown) => string)(v)));
    const { messages } = await pg.execProtocol(
      concat([protocol.serialize.bind({ statement: prepared.name, values }), protocol.serialize.describe({ type: 'P' }), protocol.serialize.execute({}), protocol.serialize.sync()]),
    );
    return result(parse.parseResults(messages, pg.parsers).at(-1));
  });
}

/** The named statement for `sql`, parsed now (a call holding the engine's lock: the first use of `sql`). */
async function prepare(pg: PGlite, statements: Map<string, Prepared>, sql: string): Promise<Prepared> {
  const name = `s${statements.size}`;
  const { messages } = await pg.execProtocol(concat([protocol.serialize.parse({ name, text: sql }), protocol.serialize.describe({ type: 'S', name }), protocol.serialize.sync()]));
  const described = messages.find((m): m is InstanceType<typeof protocol.messages.ParameterDescriptionMessage> => m.name === 'parameterDescription');
  const prepared = { name, types: described?.dataTypeIDs ?? [] };
  statements.set(sql, prepared);
  return prepared;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
