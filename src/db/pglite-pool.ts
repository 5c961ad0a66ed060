// Owns the bridge from Kysely's PostgresDialect to the embedded engine, which runs on its own thread
// (pglite-thread.ts): each statement is one message there and one answer back. The engine is one
// connection that runs statements in the order they arrive, so statements are pipelined: a statement
// outside a transaction is sent at once, without waiting for the answers of those before it (the
// engine's thread always has the next one queued, instead of idling while this thread reads an answer
// and sends the next). A transaction is what must not interleave: from its BEGIN to its COMMIT or
// ROLLBACK only its holder's statements are sent, and every other statement (and every other BEGIN)
// waits, first come first served.
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

  /** The holder whose transaction is open on the connection (from its BEGIN to its COMMIT or ROLLBACK). */
  private owner: object | null = null;
  /** Statements waiting for the open transaction to end, in the order they were asked for. */
  private queue: Array<{ holder: object; begins: boolean; go: () => void }> = [];

  /** Lets waiting statements go while no transaction is open; a BEGIN among them opens one and stops the rest. */
  private pump(): void {
    while (this.owner === null && this.queue.length > 0) {
      const next = this.queue.shift()!;
      if (next.begins) this.owner = next.holder;
      next.go();
    }
  }

  /** Resolves once `holder` may send a statement: at once inside its own transaction, else when none is open. */
  private turn(holder: object, begins: boolean): Promise<void> | undefined {
    if (this.owner === holder) return undefined;
    if (this.owner === null && this.queue.length === 0) {
      if (begins) this.owner = holder;
      return undefined;
    }
    return new Promise<void>((go) => this.queue.push({ holder, begins, go }));
  }

  private endTransaction(holder: object): void {
    if (this.owner !== holder) return;
    this.owner = null;
    this.pump();
  }

  async connect(): Promise<PostgresPoolClient> {
    const holder = {};
    let began: Promise<EngineResult> | null = null;
    const release = () => {
      // A holder that let go inside its transaction (it could not even send ROLLBACK) must not leave
      // the connection in it for the next one.
      if (this.owner === holder) {
        this.send({ sql: 'rollback', parameters: [] }).catch(() => undefined);
        this.endTransaction(holder);
      }
    };
    const query = async <R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> => {
      storeStats.statements++;
      const begins = parameters.length === 0 && /^(begin|start transaction\b.*)$/i.test(sql);
      const ends = parameters.length === 0 && /^(commit|rollback)$/i.test(sql);
      const waited = this.turn(holder, begins);
      if (waited) await waited;
      // BEGIN is sent without waiting for its answer: the thread runs statements in the order they
      // arrive, so the next one follows it anyway, and a BEGIN that failed fails that one. One round
      // trip fewer for every transaction.
      if (begins) {
        began = this.send({ sql, parameters: [] });
        began.catch(() => undefined); // observed by the next statement; never an unhandled rejection
        return { command: 'SELECT', rowCount: 0, rows: [] as R[] };
      }
      const sent = this.send({ sql, parameters: [...parameters] });
      if (ends) this.endTransaction(holder); // what comes next is queued behind the COMMIT, in order
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
