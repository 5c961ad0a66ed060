// Owns running one leased batch: its rows a chunk at a time, in row order, each row exactly as the
// operation's own call runs (operations/route.ts prepareCall: admit, idempotency key, resolve; then the
// environment's runner, the same group commit, its own reference_id, key and audit row); the chunk's
// results saved in one statement; rows still pending followed until their transactions are final; then
// the batch ended with its `batch.completed` event (store.ts).
//
// Exactly once: a row is taken (the batch's cursor moved past it) before it runs, and a row taken but
// not finished (a process died, or lost its lease) runs again through its idempotency key, which
// answers what already ran and never sends it twice (a live row's recovery point is bound to its key).
// A key still held by a live call in flight (409) leaves the row running, to be tried again after the
// lease.
//
// Fairness: rows are granted by the account's batch bucket (and a live row by its operation's partner
// pace) before they are taken (access/rate-limit.ts BatchPacer), never the keys' own tokens; each row
// waits its turn of the thread (cooperative.ts) so a CPU-heavy row never holds other tenants' requests
// for more than a slice; at most `rowsInFlight` rows of a batch are in the group commit's queue at once
// (two half-chunks), so an interactive call waits behind at most that many.
import type { FastifyBaseLogger } from 'fastify';
import type { AuditRow } from '../audit/chain.js';
import { answeredRow, type RequestAudit } from '../audit/row.js';
import { activeTraceId } from '../tracing/index.js';
import type { BatchPacer } from '../access/rate-limit.js';
import { Gate } from '../db/group-commit.js';
import { turn } from '../cooperative.js';
import { ApiError } from '../errors.js';
import { errorEnvelope } from '../http/envelope.js';
import { newId } from '../ids.js';
import type { OperationDef } from '../operations/operation.js';
import { operationBySlug } from '../operations/registry.js';
import { prepareCall, type OperationRoutes } from '../operations/route.js';
import type { Answer, Input } from '../operations/runner.js';
import type { BatchRow, BatchStore, RowResult, WorkItem } from './store.js';

type Batch = NonNullable<BatchRow>;

export interface EngineDeps {
  store: BatchStore;
  /** The operations' runners, handed in (so this room depends on operations, never the reverse). */
  routes: OperationRoutes;
  /** Writes the audit row of a row answered without one in its record (a replay, an error). */
  audit: { write(row: AuditRow): Promise<unknown> };
  pacer: BatchPacer;
  rowsInFlight: number;
  leaseS: number;
  /** How long to wait before looking again at rows still pending. */
  recheckS: number;
  log: FastifyBaseLogger;
}

/**
 * A batch row's audit value: the row an HTTP call of the operation would have, on the batch's path,
 * with the submitting key and address and the row's validated input (as given, before resolve()).
 */
function rowAudit(batch: Batch, def: OperationDef, requestId: string, input: Input): RequestAudit {
  const traceId = activeTraceId(); // the batch's run (worker.ts)
  return {
    request_id: requestId,
    account_id: batch.account_id,
    key_id: batch.key_id,
    environment: batch.environment,
    client_ip: batch.client_ip,
    method: 'POST',
    path: `/api/v1/batches/${batch.id}`,
    operation: def.slug,
    reference_id: input.reference_id,
    request: structuredClone(input),
    keepsAnswer: true,
    data_class: def.dataClass,
    startedAt: performance.now(),
    ...(traceId && { trace_id: traceId }),
  };
}

type RowRun = { kind: 'done'; result: RowResult } | { kind: 'retry' };
/** Rows started together, their runs, and whether any of them had a reserve when taken. */
type Chunk = { rows: number[]; runs: Promise<RowRun[]>; reserved: boolean };

/** A row's answer as its item keeps it: the operation's result data (or the error's), and its status. */
function resultOf(row: number, status: number, body: Record<string, unknown>): RowResult {
  const env = body as { data: Record<string, unknown> };
  const s = env.data.status;
  const ok = status === 200 && (s === 'success' || s === 'pending' || s === 'failed');
  return { row, status: ok ? (s as RowResult['status']) : 'failed', http_status: status, result: env.data };
}

/**
 * Rows started between two turns of the event loop. 10,000-row batch, embedded, warm server: the whole
 * chunk at once a median of 1,302 rows/s with the engine's thread 67 % busy; 25 at a time 1,388 and
 * 73-76 % (docs/PERFORMANCE.md, batches round 5).
 */
const SLICE = 25;
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));
/**
 * Lets waiting timers and sockets run: a chunk is a long chain of promises (and on the embedded store
 * every query runs on this thread), which would otherwise hold back the process's interactive calls.
 */
const yieldToOthers = () => new Promise((r) => setImmediate(r));

export class BatchEngine {
  constructor(private deps: EngineDeps) {}

  /**
   * Runs a batch this worker holds until it ends, is cancelled, loses its lease or must wait (pending
   * rows, a key in flight, `stopping`). Rows go in half-chunks, two in flight: the next half starts as
   * soon as the older one is answered, so the group commit's queue holds up to `rowsInFlight` rows and
   * never drains between chunks. on_error=stop: one row at a time, so that no row after a failure has started.
   */
  async run(id: string, owner: string, stopping: () => boolean): Promise<void> {
    const { store, leaseS } = this.deps;
    const batch = await store.row(id);
    // A cancelled batch only finishes the rows a worker had started (there are no queued ones left).
    if (!batch || (batch.status !== 'running' && batch.status !== 'cancelled')) return;
    const def = operationBySlug.get(batch.operation)!;
    const stopOnError = batch.on_error === 'stop';
    const size = stopOnError ? 1 : Math.max(1, Math.ceil(this.deps.rowsInFlight / 2));
    const chunks: Chunk[] = [];
    let more = true;
    let fresh = true; // the lease's first takes look for rows a worker took and did not finish (store.ts take)
    let renewed = -Infinity;
    for (;;) {
      await yieldToOthers();
      if (stopping()) return this.settle(batch, chunks).then(() => store.letGo(id, owner, 0));
      // Renewed a third of the way into the lease, not every half-chunk: each renewal is a round trip
      // on the store's connection, and the lease only has to outlast the time until the next one.
      if (performance.now() - renewed >= (leaseS * 1000) / 3) {
        if (!(await store.renew(id, owner, leaseS))) return this.settle(batch, chunks); // taken over, or ended
        renewed = performance.now();
      }
      while (more && chunks.length < (stopOnError ? 1 : 2)) {
        // Paced before the rows are taken: a cancel while this waits leaves them not started (take()
        // moves the cursor only while the batch is running), so they are cancelled, not run.
        const granted = await this.pace(batch, size, stopping);
        if (granted === 0) break;
        const { items, leftover } = await store.take(id, granted, fresh, chunks.flatMap((c) => c.rows));
        fresh = leftover;
        more = items.length > 0;
        if (!more) break;
        chunks.push({ rows: items.map((i) => i.row), runs: this.start(batch, def, items), reserved: items.some((i) => i.reserved_paise > 0) });
      }
      const chunk = chunks.shift();
      // No chunk while rows are left: the pace gave none because the server is stopping. The batch is
      // let go as it is, for the next worker; it is not over.
      if (!chunk && more) return store.letGo(id, owner, 0);
      if (!chunk) break;
      const done = await this.saveChunk(batch, chunk);
      if (!done.complete) return this.settle(batch, chunks).then(() => store.letGo(id, owner, leaseS)); // a key in flight: later
      const failed = done.results.find((r) => r.status === 'failed');
      if (stopOnError && failed) await store.stop(batch, `on_error=stop: row ${failed.row} failed; the rows after it were not run`);
    }
    if ((await store.refreshPending(batch)) > 0) return store.letGo(id, owner, this.deps.recheckS);
    if (batch.status === 'running') await store.end(id, false);
    else await store.letGo(id, owner, 0);
  }

  /**
   * Starts a chunk's rows `SLICE` at a time, letting the store's replies in between (the rows' own
   * work would otherwise hold this thread for the whole chunk while the write before it waits on a
   * reply), behind one gate opened once all have started: their records still go in one write.
   */
  private async start(batch: Batch, def: OperationDef, items: WorkItem[]): Promise<RowRun[]> {
    const gate = new Gate();
    const runs: Array<Promise<RowRun>> = [];
    try {
      for (let i = 0; i < items.length; i++) {
        if (i > 0 && i % SLICE === 0) await yieldToOthers();
        runs.push(this.runRow(batch, def, items[i]!, gate));
      }
      await yieldToOthers();
    } finally {
      gate.open();
    }
    return Promise.all(runs);
  }

  /** Waits for a chunk's rows and saves the answers it has (a row without one runs again later). */
  private async saveChunk(batch: Batch, chunk: Chunk): Promise<{ results: RowResult[]; complete: boolean }> {
    const runs = await chunk.runs;
    const results = runs.flatMap((r) => (r.kind === 'done' ? [r.result] : []));
    await this.deps.store.save(batch, results, chunk.reserved);
    return { results, complete: results.length === runs.length };
  }

  /**
   * Lets the chunks still in flight finish and saves their answers before the worker lets go: after a
   * cancel too, or a lost lease (an answer is the row's outcome, which its key would answer again anyway).
   */
  private async settle(batch: Batch, chunks: Chunk[]): Promise<void> {
    for (const c of chunks.splice(0)) await this.saveChunk(batch, c);
  }

  /** Waits until the pace allows rows (access/rate-limit.ts BatchPacer): how many, up to `max`; 0 when stopping. */
  private async pace(batch: Batch, max: number, stopping: () => boolean): Promise<number> {
    const who = { accountId: batch.account_id, environment: batch.environment, operation: batch.operation };
    for (;;) {
      const { rows, waitMs } = await this.deps.pacer.grant(who, max);
      if (rows > 0) return rows;
      if (stopping()) return 0;
      await delay(Math.min(waitMs, 1000));
    }
  }

  /** One row as the operation's own call: its answer, or `retry` when it cannot be known yet. */
  private async runRow(batch: Batch, def: OperationDef, item: WorkItem, lane: Gate): Promise<RowRun> {
    const requestId = newId('req', 20);
    const input = item.input as Input;
    const audit = rowAudit(batch, def, requestId, input);
    let answer: Answer;
    try {
      await turn(); // a row's own work (a long name comparison) waits while other tenants' requests are served
      const { runner, call } = await prepareCall(def, this.deps.routes, { accountId: batch.account_id, environment: batch.environment, requestId, lane }, input, audit);
      if (item.reserved_paise > 0) {
        call.reserve = { paise: item.reserved_paise, take: (trx) => this.deps.store.takeReserve(trx, batch.id, item.row, item.reserved_paise) };
      }
      answer = await runner.run(call);
    } catch (err) {
      if (!(err instanceof ApiError)) {
        this.deps.log.error({ err, batch: batch.id, row: item.row }, 'batch row failed unexpectedly; it runs again later');
        return { kind: 'retry' };
      }
      if (err.code === 'idempotency_in_flight') return { kind: 'retry' };
      answer = { status: err.http, body: JSON.stringify(errorEnvelope(err, requestId)), replayed: false, audited: false };
    }
    const body = JSON.parse(answer.body) as Record<string, unknown>; // once, for the audit row and the item's result
    if (!answer.audited) await this.deps.audit.write(answeredRow(audit, answer.status, body));
    return { kind: 'done', result: resultOf(item.row, answer.status, body) };
  }
}
