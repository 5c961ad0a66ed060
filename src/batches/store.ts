// Owns the batches' rows in the store (migration 0020): a batch and its items, created in one
// transaction (with a live batch's reserve taken from the wallet, 402 when it is short), the worker's
// lease, items taken and saved a chunk at a time, reserves given back, cancellation, completion with its
// `batch.completed` event, and the reads (the batch with its counts, an account's batches newest first,
// items and results in row order).
// Lock order, as everywhere (docs/RELIABILITY.md): the batch's item rows, then wallets, then the outbox.
import { sql, type Selectable, type Transaction } from 'kysely';
import type { Db } from '../db/client.js';
import { insertRows, type ColumnTypes } from '../db/recordset.js';
import type { BatchItemStatus, BatchStatus, DB, Environment } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { takeFromBalance } from '../ledger/ledger.js';
import { paiseToInr } from '../money.js';
import { enqueueEvents } from '../webhooks/store.js';

type Trx = Transaction<DB>;

export interface NewBatch {
  id: string;
  accountId: string;
  environment: Environment;
  keyId: string;
  clientIp: string | null;
  operation: string;
  clientBatchId: string | null;
  onError: 'continue' | 'stop';
}

/** One row as submitted: valid (with its normalised input and reserve) or invalid (with its errors). */
export interface NewItem {
  row: number;
  referenceId: string | null;
  input: Record<string, unknown>;
  reservedPaise: number;
  errors?: Array<{ field: string; message: string }>;
}

export interface Counts {
  total: number;
  invalid: number;
  pending: number;
  success: number;
  failed: number;
  cancelled: number;
}

/** A batch as GET /api/v1/batches/{id} shows it (and `batch.completed` carries). */
export interface BatchView {
  id: string;
  operation: string;
  environment: Environment;
  status: BatchStatus;
  client_batch_id: string | null;
  on_error: 'continue' | 'stop';
  message: string | null;
  counts: Counts;
  created_at: string;
  completed_at: string | null;
}

export interface ItemView {
  row: number;
  reference_id: string | null;
  status: BatchItemStatus;
  http_status: number | null;
  result: Record<string, unknown> | null;
}

/** A row a worker runs. */
export interface WorkItem {
  row: number;
  input: Record<string, unknown>;
  reserved_paise: number;
}

/** What a row's run came to, saved a chunk at a time. */
export interface RowResult {
  row: number;
  status: 'pending' | 'success' | 'failed';
  http_status: number;
  result: Record<string, unknown>;
}

export type BatchRow = Awaited<ReturnType<BatchStore['row']>>;

const INSERT_CHUNK = 1000;
/** The columns an item is created with, and their types (db/recordset.ts). */
const ITEM_COLUMNS: ColumnTypes<'batch_items'> = {
  batch_id: 'text',
  row_no: 'integer',
  reference_id: 'text',
  input: 'jsonb',
  status: 'text',
  http_status: 'integer',
  result: 'jsonb',
  reserved_paise: 'bigint',
};

/** A batch as GET shows it: its counts are kept on its row (migration 0023); pending is the rest. */
function viewOf(b: Selectable<DB['batches']>): BatchView {
  const counts = { total: b.total, invalid: b.invalid, success: b.success, failed: b.failed, cancelled: b.cancelled };
  return {
    id: b.id,
    operation: b.operation,
    environment: b.environment,
    status: b.status,
    client_batch_id: b.client_batch_id,
    on_error: b.on_error,
    message: b.message,
    counts: { ...counts, pending: b.total - b.invalid - b.success - b.failed - b.cancelled },
    created_at: b.created_at.toISOString(),
    completed_at: b.completed_at?.toISOString() ?? null,
  };
}

/** The batch's cursor (the highest row taken), read in the statement that uses it. */
const cursorOf = (id: string) => sql<number>`(SELECT taken_through FROM batches WHERE id = ${id})`;

/**
 * Moves a batch's counts by the rows a statement's CTE `moved` returns (their new `status`): put after
 * a `WITH moved AS (UPDATE batch_items ... RETURNING status)`, in the same statement, so the counts move
 * exactly when the rows do.
 */
const countMoved = (id: string) => sql`
  UPDATE batches SET
    success = success + (SELECT count(*) FROM moved WHERE status = 'success'),
    failed = failed + (SELECT count(*) FROM moved WHERE status = 'failed'),
    cancelled = cancelled + (SELECT count(*) FROM moved WHERE status = 'cancelled')
  WHERE id = ${id} AND EXISTS (SELECT 1 FROM moved WHERE status IN ('success', 'failed', 'cancelled'))`;

export class BatchStore {
  constructor(private db: Db) {}

  /**
   * The batch and all its items in one transaction: nothing is half-created. A live batch's reserve
   * (the sum of its rows') leaves the wallet's balance first, or the whole batch is refused with 402.
   */
  async create(b: NewBatch, items: NewItem[]): Promise<void> {
    const reserve = items.reduce((s, i) => s + i.reservedPaise, 0);
    await this.db.transaction().execute(async (trx) => {
      const rows = items.filter((i) => !i.errors).length;
      if (reserve > 0) {
        await takeFromBalance(
          trx,
          b.accountId,
          reserve,
          (available) =>
            `Insufficient wallet balance for this batch: its ${rows} rows need ₹${paiseToInr(reserve).toFixed(2)} (amounts less commission, plus fees); ₹${paiseToInr(available).toFixed(2)} available. Nothing was created`,
        );
      }
      await trx
        .insertInto('batches')
        .values({
          id: b.id,
          account_id: b.accountId,
          environment: b.environment,
          key_id: b.keyId,
          client_ip: b.clientIp,
          operation: b.operation,
          client_batch_id: b.clientBatchId,
          on_error: b.onError,
          status: 'running',
          total: items.length,
          invalid: items.length - rows,
        })
        .execute();
      for (let i = 0; i < items.length; i += INSERT_CHUNK) {
        const chunk = items.slice(i, i + INSERT_CHUNK).map((it) => ({
          batch_id: b.id,
          row_no: it.row,
          reference_id: it.referenceId,
          input: JSON.stringify(it.input),
          status: it.errors ? 'invalid' : 'queued',
          http_status: it.errors ? 422 : null,
          result: it.errors ? JSON.stringify({ errors: it.errors }) : null,
          reserved_paise: it.reservedPaise,
        }));
        await insertRows('batch_items', ITEM_COLUMNS, chunk).execute(trx);
      }
    });
  }

  row(id: string) {
    return this.db.selectFrom('batches').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The caller's batch: another account's, or the other environment's, is not found. */
  async owned(accountId: string, environment: Environment, id: string): Promise<NonNullable<BatchRow>> {
    const b = await this.row(id);
    if (!b || b.account_id !== accountId || b.environment !== environment) throw new ApiError('not_found', `No batch ${id}`);
    return b;
  }

  byClientId(accountId: string, environment: Environment, clientBatchId: string) {
    return this.db
      .selectFrom('batches')
      .select('id')
      .where('account_id', '=', accountId)
      .where('environment', '=', environment)
      .where('client_batch_id', '=', clientBatchId)
      .executeTakeFirst();
  }

  async view(id: string, db: Db | Trx = this.db): Promise<BatchView> {
    return viewOf((await db.selectFrom('batches').selectAll().where('id', '=', id).executeTakeFirst())!);
  }

  /**
   * An account's batches in one environment, newest first, `limit` of them after the batch `after` (the
   * last id of the previous page): the console's list (routes/console/api/batches.ts).
   */
  async list(accountId: string, environment: Environment, opts: { after?: string; limit: number }): Promise<BatchView[]> {
    let q = this.db.selectFrom('batches').selectAll().where('account_id', '=', accountId).where('environment', '=', environment);
    // Keyset on (created_at, id), compared in the store: created_at has microseconds a JavaScript Date would lose.
    if (opts.after) q = q.where(sql<boolean>`(created_at, id) < (SELECT created_at, id FROM batches WHERE id = ${opts.after})`);
    const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(opts.limit).execute();
    return rows.map(viewOf);
  }

  /**
   * Items in row order after `afterRow`, optionally of one status. `running` is not stored: it is a
   * `queued` row at or below the batch's cursor (a worker took it), read in the same statement.
   */
  async items(id: string, opts: { status?: BatchItemStatus; afterRow: number; limit: number }): Promise<ItemView[]> {
    const cursor = cursorOf(id);
    let q = this.db
      .selectFrom('batch_items')
      .select(['row_no as row', 'reference_id', 'http_status', 'result'])
      .select(sql<BatchItemStatus>`CASE WHEN status = 'queued' AND row_no <= ${cursor} THEN 'running' ELSE status END`.as('status'))
      .where('batch_id', '=', id)
      .where('row_no', '>', opts.afterRow);
    if (opts.status === 'running') q = q.where('status', '=', 'queued').where('row_no', '<=', cursor);
    else if (opts.status === 'queued') q = q.where('status', '=', 'queued').where('row_no', '>', cursor);
    else if (opts.status) q = q.where('status', '=', opts.status);
    return q.orderBy('row_no').limit(opts.limit).execute();
  }

  /**
   * Leases up to `limit` batches that are due: running ones, and cancelled ones with rows a worker had
   * started (they finish, never start again: a cancel leaves `queued` only the rows at or below the
   * cursor) or rows still pending (followed to their final state), for `seconds`, naming this worker as
   * the holder (FOR UPDATE SKIP LOCKED, db/lease.ts's pattern).
   */
  async lease(owner: string, seconds: number, limit: number): Promise<string[]> {
    const rows = await sql<{ id: string }>`
      UPDATE batches SET lease_until = now() + make_interval(secs => ${seconds}), lease_owner = ${owner}
      WHERE id IN (
        SELECT id FROM batches WHERE lease_until <= now() AND (status = 'running' OR (status = 'cancelled' AND EXISTS (
          SELECT 1 FROM batch_items i WHERE i.batch_id = batches.id AND i.status IN ('queued', 'pending'))))
        ORDER BY lease_until LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING id`.execute(this.db);
    return rows.rows.map((r) => r.id);
  }

  /** Extends this worker's lease; false when it lost it or the batch ended otherwise than by a cancel. */
  async renew(id: string, owner: string, seconds: number): Promise<boolean> {
    const r = await this.db
      .updateTable('batches')
      .set({ lease_until: sql`now() + make_interval(secs => ${seconds})` })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('status', 'in', ['running', 'cancelled'])
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Lets another tick (of any process) take the batch again after `seconds`. */
  async letGo(id: string, owner: string, seconds: number): Promise<void> {
    await this.db
      .updateTable('batches')
      .set({ lease_until: sql`now() + make_interval(secs => ${seconds})`, lease_owner: null })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .execute();
  }

  /**
   * The next rows to run, in row order. While `fresh` (a lease's first takes), rows a worker took and
   * did not finish (a process that died), not in `running` (this worker's own flight): they run again,
   * and their idempotency keys answer what already ran; `leftover` says these were such rows, and the
   * next take is fresh too. Otherwise the next queued rows after the batch's cursor, taken by moving the
   * cursor past them.
   *
   * The cursor moves in one statement, only while the batch is `running` and only from where that
   * statement read it (`taken_through < min(next)`, rechecked on the row's latest version if another
   * statement moved it first; the take then reads again): a cancel, which locks the batch's row and
   * then cancels only the rows after the cursor it reads, and a second worker whose lease overlapped,
   * both see each row either taken or not. The bound is a scalar subquery, run once (an InitPlan), and
   * the rows are one range of batch_items_status: a search from the start of the batch would step over
   * the index's entries for every row already run (kept until a vacuum), and a 10,000-row batch would
   * slow down as it went.
   */
  async take(id: string, limit: number, fresh: boolean, running: number[] = []): Promise<{ items: WorkItem[]; leftover: boolean }> {
    if (fresh) {
      const unfinished = await this.leftRunning(id, limit, running);
      if (unfinished.length > 0) return { items: unfinished, leftover: true };
    }
    for (;;) {
      const next = await sql<WorkItem & { taken: boolean; batch_status: BatchStatus }>`
        WITH next AS (
          SELECT row_no, input, reserved_paise FROM batch_items
          WHERE batch_id = ${id} AND status = 'queued' AND row_no > ${cursorOf(id)}
          ORDER BY row_no LIMIT ${limit}),
        moved AS (
          UPDATE batches SET taken_through = (SELECT max(row_no) FROM next)
          WHERE id = ${id} AND status = 'running' AND taken_through < (SELECT min(row_no) FROM next)
          RETURNING id)
        SELECT row_no AS row, input, reserved_paise, EXISTS (SELECT 1 FROM moved) AS taken,
               (SELECT status FROM batches WHERE id = ${id}) AS batch_status
        FROM next ORDER BY row_no`.execute(this.db);
      const rows = next.rows;
      if (rows.length > 0 && rows[0]!.taken) return { items: rows.map(({ row, input, reserved_paise }) => ({ row, input, reserved_paise })), leftover: false };
      // Another take moved the cursor after this one read it: read it again (a new snapshot, so this ends).
      if (rows.length === 0 || rows[0]!.batch_status !== 'running') return { items: [], leftover: false };
    }
  }

  /** Rows taken (queued, at or below the cursor) that are not in this worker's flight: a worker that died took them. */
  private async leftRunning(id: string, limit: number, running: number[]): Promise<WorkItem[]> {
    let q = this.db
      .selectFrom('batch_items')
      .select(['row_no as row', 'input', 'reserved_paise'])
      .where('batch_id', '=', id)
      .where('status', '=', 'queued')
      .where('row_no', '<=', cursorOf(id));
    if (running.length > 0) q = q.where('row_no', 'not in', running);
    const rows = await q.orderBy('row_no').limit(limit).execute();
    return rows.map((r) => ({ ...r, input: r.input ?? {} }));
  }

  /**
   * Saves a chunk's results, with the batch's counts, in one statement and, when any of its rows had a reserve when taken, gives
   * back what those that ended without a hold still reserve (in the same transaction). A chunk without
   * reserves (every sandbox batch) is one statement and one round trip.
   */
  async save(b: { id: string; account_id: string }, results: RowResult[], reserved: boolean): Promise<void> {
    if (results.length === 0) return;
    // The rows named, so the items are read by primary key.
    const rows = sql`row_no IN (${sql.join(results.map((r) => r.row))})`;
    // Each row reads its own answer from one jsonb object keyed by row number. A join with a recordset of
    // the answers was planned, on the embedded store (which keeps no statistics: PGlite runs no
    // autovacuum or autoanalyze), as a nested loop that read the whole set again for every row: in the
    // server 140 µs of the engine's time a row, 82 now (docs/PERFORMANCE.md, batches round 7).
    const byRow = JSON.stringify(Object.fromEntries(results.map((r) => [r.row, { status: r.status, http_status: r.http_status, result: r.result }])));
    // A row already final (saved by a worker whose lease overlapped this one's) is not saved again, nor counted twice.
    const update = (db: Db | Trx) =>
      sql`
        WITH moved AS (
          UPDATE batch_items i
          SET status = v.o -> i.row_no::text ->> 'status',
              http_status = (v.o -> i.row_no::text ->> 'http_status')::integer,
              result = v.o -> i.row_no::text -> 'result'
          FROM (SELECT ${byRow}::jsonb AS o) v
          WHERE i.batch_id = ${b.id} AND ${rows} AND i.status IN ('queued', 'pending')
          RETURNING i.status)
        ${countMoved(b.id)}`.execute(db);
    if (!reserved) {
      await update(this.db);
      return;
    }
    await this.db.transaction().execute(async (trx) => {
      await update(trx);
      await this.giveBack(trx, b, rows);
    });
  }

  /**
   * Returns to the wallet what the batch's rows matching `which` still reserve (rows that ended, or will
   * never run, without a hold of their own), in the caller's transaction (the one that ends those rows):
   * one statement. The rows are read and locked first, so what goes back is what they held before they
   * were zeroed (an UPDATE's RETURNING gives the new value, 0), and a row whose reserve a hold took
   * meanwhile (takeReserve, in another transaction) is read again after that one commits and skipped.
   */
  private async giveBack(trx: Trx, b: { id: string; account_id: string }, which: ReturnType<typeof sql>): Promise<void> {
    await sql`
      WITH old AS (
        SELECT row_no, reserved_paise FROM batch_items
        WHERE batch_id = ${b.id} AND reserved_paise > 0 AND ${which}
        FOR UPDATE),
      r AS (
        UPDATE batch_items i SET reserved_paise = 0 FROM old
        WHERE i.batch_id = ${b.id} AND i.row_no = old.row_no
        RETURNING old.reserved_paise AS back)
      UPDATE wallets SET balance_paise = balance_paise + (SELECT SUM(back) FROM r), updated_at = now()
      WHERE account_id = ${b.account_id} AND EXISTS (SELECT 1 FROM r)`.execute(trx);
  }

  /**
   * A row's reserve taken over by its own hold, in the transaction that records the hold: exactly
   * once, since the row's idempotency key is claimed in that same transaction.
   */
  async takeReserve(trx: Trx, id: string, row: number, paise: number): Promise<void> {
    const r = await trx.updateTable('batch_items').set({ reserved_paise: 0 }).where('batch_id', '=', id).where('row_no', '=', row).where('reserved_paise', '=', paise).executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw new Error(`batch ${id} row ${row}: its reserve of ${paise} paise is no longer there`);
  }

  /**
   * Rows not started (queued, after the cursor `takenThrough` as the caller read it while holding the
   * batch's row lock) are not run: they become cancelled and their reserves go back. Answers how many.
   */
  private async skipQueued(trx: Trx, b: { id: string; account_id: string; taken_through: number }): Promise<number> {
    const r = await sql<{ n: number }>`
      WITH moved AS (
        UPDATE batch_items SET status = 'cancelled' WHERE batch_id = ${b.id} AND status = 'queued' AND row_no > ${b.taken_through}
        RETURNING status),
      counted AS (${countMoved(b.id)})
      SELECT count(*)::integer AS n FROM moved`.execute(trx);
    await this.giveBack(trx, b, sql`status IN ('cancelled', 'invalid')`);
    return r.rows[0]!.n;
  }

  /** Rows whose operation was pending take their transaction's final state. Answers how many are still pending. */
  async refreshPending(b: { id: string; account_id: string; environment: Environment }): Promise<number> {
    await sql`
      WITH moved AS (
        UPDATE batch_items i SET status = t.status, result = t.result
        FROM (
          SELECT DISTINCT ON (p.row_no) p.row_no, tx.status, tx.result
          FROM batch_items p
          JOIN transactions tx ON tx.account_id = ${b.account_id} AND tx.environment = ${b.environment} AND tx.reference_id = p.reference_id
          WHERE p.batch_id = ${b.id} AND p.status = 'pending'
          ORDER BY p.row_no, tx.created_at DESC, tx.id DESC) t
        WHERE i.batch_id = ${b.id} AND i.row_no = t.row_no AND t.status <> 'pending' AND i.status = 'pending'
        RETURNING i.status)
      ${countMoved(b.id)}`.execute(this.db);
    const left = await this.db.selectFrom('batch_items').select((eb) => eb.fn.countAll<number>().as('n')).where('batch_id', '=', b.id).where('status', '=', 'pending').executeTakeFirstOrThrow();
    return Number(left.n);
  }

  /** on_error=stop after a failed row: the rows not started are not run, and the batch will end failed, saying why. */
  async stop(b: { id: string; account_id: string }, message: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const locked = await trx.updateTable('batches').set({ message }).where('id', '=', b.id).returning(['id', 'account_id', 'taken_through']).executeTakeFirstOrThrow();
      await this.skipQueued(trx, locked);
    });
  }

  /**
   * Ends a batch once: `cancelled` (the client asked), or once every row is final `completed` (`failed`
   * when on_error=stop stopped it); what its rows still reserve back to the wallet; its `batch.completed`
   * event; all in one transaction. False when it had already ended (another process, a cancel).
   */
  async end(id: string, cancel: boolean): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const b = await trx
        .updateTable('batches')
        .set({
          status: cancel ? 'cancelled' : sql<BatchStatus>`CASE WHEN message IS NULL THEN 'completed' ELSE 'failed' END`,
          message: cancel ? 'Cancelled: rows not yet started were not run' : sql<string | null>`message`,
          completed_at: new Date(),
          lease_owner: null,
        })
        .where('id', '=', id)
        .where('status', 'in', ['running', 'validating'])
        .returning(['id', 'account_id', 'environment', 'taken_through'])
        .executeTakeFirst();
      if (!b) return false;
      await this.skipQueued(trx, b);
      const view = await this.view(id, trx);
      await enqueueEvents(trx, [{ scope: { accountId: b.account_id, environment: b.environment }, type: 'batch.completed', txnId: id, data: { ...view } }]);
      return true;
    });
  }
}
