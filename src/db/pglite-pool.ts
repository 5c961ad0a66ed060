// Owns the bridge from embedded PGlite to Kysely's PostgresDialect. PGlite is a single connection, so
// the "pool" hands out that one connection to one holder at a time (a FIFO mutex): a Kysely
// transaction keeps it from BEGIN to COMMIT and nothing interleaves.
import { PGlite, types } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import { INT8_PARSER } from './types.js';
import { storeStats } from './stats.js';

const COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE', 'SELECT']);

export class PGlitePool implements PostgresPool {
  private queue: Array<() => void> = [];
  private busy = false;

  private constructor(readonly pg: PGlite) {}

  static async open(dataDir: string): Promise<PGlitePool> {
    const pg = await PGlite.create(dataDir, {
      parsers: { [types.INT8]: INT8_PARSER },
      // The embedded store is the zero-install default: keep its memory small (idle RSS target < 300 MB).
      postgresqlconf: ['shared_buffers = 16MB', 'wal_buffers = 1MB', 'work_mem = 4MB', 'maintenance_work_mem = 16MB'],
    });
    return new PGlitePool(pg);
  }

  async connect(): Promise<PostgresPoolClient> {
    if (this.busy) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.busy = true;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next) next();
      else this.busy = false;
    };
    const pg = this.pg;
    const client = {
      async query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
        // Without parameters the text may hold several statements (migrations): use the simple protocol.
        storeStats.statements++;
        const started = process.cpuUsage();
        const res =
          parameters.length === 0
            ? ((await pg.exec(sql)).at(-1) ?? { rows: [], affectedRows: 0 })
            : await pg.query<R>(sql, parameters as unknown[]);
        const spent = process.cpuUsage(started);
        storeStats.engineMs += (spent.user + spent.system) / 1000;
        const word = sql.trimStart().slice(0, 6).toUpperCase();
        const command = (COMMANDS.has(word) ? word : 'SELECT') as PostgresQueryResult<R>['command'];
        return { command, rowCount: res.affectedRows ?? res.rows.length, rows: res.rows as R[] };
      },
      release,
    };
    return client as PostgresPoolClient;
  }

  async end(): Promise<void> {
    await this.pg.close();
  }
}
