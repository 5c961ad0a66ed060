// Owns the bridge from Kysely's PostgresDialect to the embedded engine, which runs on its own thread
// (pglite-thread.ts): each statement is one message there and one answer back. The engine is a single
// connection, so the "pool" hands that one connection to one holder at a time (a FIFO mutex): a Kysely
// transaction keeps it from BEGIN to COMMIT and nothing interleaves.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type { EngineError, EngineReply, EngineRequest } from './pglite-thread.js';
import type { EngineResult } from './pglite-engine.js';
import { storeStats } from './stats.js';

const COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE', 'SELECT']);

/** The engine's error as the driver's would be: its message, with code, detail, constraint, ... */
const toError = (e: EngineError) => Object.assign(new Error(e.message), e.fields);

type Waiter = { resolve: (r: EngineResult) => void; reject: (err: Error) => void };

/** The directory inside SANGAM_DATA_DIR where the embedded store keeps its files. */
export const embeddedDir = (dataDir: string) => path.join(dataDir, 'pgdata');

export class PGlitePool implements PostgresPool {
  private queue: Array<() => void> = [];
  private busy = false;
  private waiting = new Map<number, Waiter>();
  private lastId = 0;
  private broken: Error | null = null;

  private constructor(
    private worker: Worker,
    private thread: number | null,
  ) {
    worker.on('message', (m: EngineReply) => this.answer(m));
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', (code) => this.fail(new Error(`the embedded store's thread exited (${code})`)));
    if (thread !== null) storeStats.engineThreads.add(thread);
    // Idle, the thread does not keep the process alive; a statement under way does (send()).
    worker.unref();
  }

  /** Opens the engine on SANGAM_DATA_DIR (created if missing). */
  static openIn(dataDir: string): Promise<PGlitePool> {
    mkdirSync(dataDir, { recursive: true });
    return PGlitePool.open(embeddedDir(dataDir));
  }

  static async open(dataDir: string): Promise<PGlitePool> {
    const worker = new Worker(new URL('./pglite-thread.js', import.meta.url), { workerData: { dataDir } });
    // Only these listeners go afterwards: removeAllListeners() would take Worker's own with them.
    let onMessage: (m: EngineReply) => void = () => {};
    let onExit: (code: number) => void = () => {};
    let onError: (err: Error) => void = () => {};
    const opened = await new Promise<{ thread: number | null }>((resolve, reject) => {
      onMessage = (m) => ('opened' in m ? resolve(m.opened) : 'error' in m ? reject(toError(m.error)) : undefined);
      onExit = (code) => reject(new Error(`the embedded store's thread exited (${code}) while opening ${dataDir}`));
      onError = reject;
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    })
      .catch(async (err: unknown) => {
        await worker.terminate();
        throw err;
      })
      .finally(() => worker.off('message', onMessage).off('error', onError).off('exit', onExit));
    return new PGlitePool(worker, opened.thread);
  }

  private answer(m: EngineReply): void {
    const waiter = this.waiting.get(m.id);
    if (!waiter) return;
    this.waiting.delete(m.id);
    if (this.waiting.size === 0) this.worker.unref();
    if ('error' in m) waiter.reject(toError(m.error));
    else if ('result' in m) waiter.resolve(m.result);
  }

  private fail(err: Error): void {
    this.broken ??= err;
    for (const w of this.waiting.values()) w.reject(err);
    this.waiting.clear();
  }

  private send(request: Omit<EngineRequest, 'id'>): Promise<EngineResult> {
    if (this.broken) return Promise.reject(this.broken);
    const id = ++this.lastId;
    return new Promise<EngineResult>((resolve, reject) => {
      if (this.waiting.size === 0) this.worker.ref();
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id });
    });
  }

  async connect(): Promise<PostgresPoolClient> {
    if (this.busy) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.busy = true;
    let released = false;
    let began: Promise<EngineResult> | null = null;
    const release = () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next) next();
      else this.busy = false;
    };
    const query = async <R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> => {
      storeStats.statements++;
      // BEGIN is sent without waiting for its answer: the thread runs statements in the order they
      // arrive, so the next one follows it anyway, and a BEGIN that failed fails that one. One round
      // trip fewer for every transaction that holds the one connection.
      if (parameters.length === 0 && /^begin$/i.test(sql)) {
        began = this.send({ sql, parameters: [] });
        began.catch(() => undefined); // observed by the next statement; never an unhandled rejection
        return { command: 'SELECT', rowCount: 0, rows: [] as R[] };
      }
      const sent = this.send({ sql, parameters: [...parameters] });
      if (began) {
        const b = began;
        began = null;
        await b.catch(async (err: unknown) => {
          await sent.catch(() => undefined);
          throw err;
        });
      }
      const res = await sent;
      const word = sql.trimStart().slice(0, 6).toUpperCase();
      const command = (COMMANDS.has(word) ? word : 'SELECT') as PostgresQueryResult<R>['command'];
      return { command, rowCount: res.rowCount, rows: res.rows as R[] };
    };
    return { query, release } as PostgresPoolClient;
  }

  async end(): Promise<void> {
    try {
      if (!this.broken) await this.send({ close: true });
    } finally {
      if (this.thread !== null) storeStats.engineThreads.delete(this.thread);
      await this.worker.terminate();
    }
  }
}
