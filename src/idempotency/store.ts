// Owns idempotency (CONTRACT §5, after the IETF Idempotency-Key draft). A key is claimed before the
// operation runs; the response is stored in the same database transaction as the operation's effect.
// Same key + same payload → the stored response is replayed; a different payload → 422/107; a key
// whose first request is still running → 409/106. A claim whose holder died (lock expired) is taken
// over: nothing of the first attempt was committed, because the effect and the response commit together.
import { createHash } from 'node:crypto';
import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Db } from '../db/client.js';
import { insertRows, type ColumnTypes } from '../db/recordset.js';
import type { DB, Environment } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { canonicalJson } from '../canonical.js';

export interface IdemScope {
  accountId: string;
  environment: Environment;
  operation: string;
  key: string;
  /** The request field the key was taken from, named in a 422/107 (CONTRACT §1: a 422 lists its fields). */
  field?: 'idempotency_key' | 'reference_id';
}

/** A claim; `txnId` is set when a crashed earlier attempt had already started a live transaction. */
export type Claim = { kind: 'claimed'; txnId: string | null } | { kind: 'replay'; status: number; body: string };

/** A stable hash of the request: keys sorted at every level. */
export const requestHash = (input: unknown): string => createHash('sha256').update(canonicalJson(input)).digest('hex');

/** One string per scope, for telling scopes apart in memory. */
export const scopeId = (s: IdemScope) => JSON.stringify([s.accountId, s.environment, s.operation, s.key]);

/** The columns a claim is written with (insertClaims), and their types. */
const CLAIM_COLUMNS: ColumnTypes<'idempotency_keys'> = {
  account_id: 'text',
  environment: 'text',
  operation: 'text',
  key: 'text',
  request_hash: 'text',
  txn_id: 'text',
  status: 'text',
  response_status: 'integer',
  response_body: 'text',
  locked_until: 'timestamptz',
};

const keyOf = (s: IdemScope) => ({ account_id: s.accountId, environment: s.environment, operation: s.operation, key: s.key });

/** A live transaction's stored answer (completeBound): `force` overwrites a key already done. */
export type BoundAnswer = { txnId: string; body: string; force: boolean };

export class IdempotencyStore {
  constructor(
    private db: Db,
    private lockMs: number,
  ) {}

  /** Throws ApiError idempotency_mismatch (422/107) or idempotency_in_flight (409/106). */
  async claim(s: IdemScope, hash: string): Promise<Claim> {
    const lockedUntil = new Date(Date.now() + this.lockMs);
    const inserted = await this.db
      .insertInto('idempotency_keys')
      .values({ account_id: s.accountId, environment: s.environment, operation: s.operation, key: s.key, request_hash: hash, status: 'in_flight', locked_until: lockedUntil })
      .onConflict((oc) => oc.doNothing())
      .returning('key')
      .executeTakeFirst();
    if (inserted) return { kind: 'claimed', txnId: null };
    return (await this.existing(s, hash)) ?? this.claim(s, hash); // released between our insert and select
  }

  /**
   * What a key that exists already answers, without claiming one that does not (null): a replay, the
   * take-over of a crashed holder's claim, or it throws 422/107 or 409/106.
   */
  async existing(s: IdemScope, hash: string): Promise<Claim | null> {
    // `started`: the transaction it is bound to exists (checked below).
    const row = await this.db
      .selectFrom('idempotency_keys as k')
      .where((eb) => eb.and(keyOf(s)))
      .select(['k.request_hash', 'k.status', 'k.response_status', 'k.response_body', 'k.txn_id'])
      .select((eb) => eb.exists(eb.selectFrom('transactions as t').select('t.id').whereRef('t.id', '=', 'k.txn_id')).as('started'))
      .executeTakeFirst();
    if (!row) return null;
    if (row.request_hash !== hash) {
      const message = 'This idempotency key was already used with a different request payload';
      throw new ApiError('idempotency_mismatch', message, { errors: [{ field: s.field ?? 'idempotency_key', message }] });
    }
    if (row.txn_id !== null && !row.started) {
      // Bound to a transaction never written: its recording lost the reference to a concurrent call, and
      // the process died before unbinding it (operations/recorder.ts: a one-statement write unbinds after
      // its statement). Nothing was done under it, so it is as if it did not exist.
      await this.db.deleteFrom('idempotency_keys').where((eb) => eb.and(keyOf(s))).where('txn_id', '=', row.txn_id).execute();
      return null;
    }
    if (row.status === 'done') return { kind: 'replay', status: row.response_status!, body: row.response_body! };
    // In flight: take it over only if its holder's lock ran out (the holder crashed).
    const taken = await this.db
      .updateTable('idempotency_keys')
      .set({ locked_until: new Date(Date.now() + this.lockMs) })
      .where((eb) => eb.and(keyOf(s)))
      .where('status', '=', 'in_flight')
      .where('locked_until', '<', sql<Date>`now()`)
      .returning('key')
      .executeTakeFirst();
    if (taken) return { kind: 'claimed', txnId: row.txn_id };
    throw new ApiError('idempotency_in_flight', 'A request with this idempotency key is still being processed; retry shortly');
  }

  /**
   * The INSERT that claims keys inside the transaction that records their operations, as a statement to
   * run within another (operations/recorder.ts: in the same statement as the transaction rows). A key
   * with a response is stored as done (the sandbox: no partner call between claim and effect); a key
   * without one is in flight, bound to its transaction (a live recovery point). It RETURNS the txn_id of
   * each key it inserted; a key that exists already is left alone (a concurrent duplicate waits here for
   * the first to commit), and its caller asks claim() once this transaction is over.
   */
  claimsInsert(claims: Array<{ scope: IdemScope; hash: string; txnId: string; response: string | null }>, where?: RawBuilder<unknown>): RawBuilder<unknown> {
    // A fixed order, so that two batches taking overlapping keys cannot deadlock.
    const sorted = [...claims].sort((x, y) => (scopeId(x.scope) < scopeId(y.scope) ? -1 : 1));
    const now = Date.now();
    const rows = sorted.map((c) => ({
      ...keyOf(c.scope),
      request_hash: c.hash,
      txn_id: c.txnId,
      ...(c.response === null
        ? { status: 'in_flight' as const, response_status: null, response_body: null, locked_until: new Date(now + this.lockMs) }
        : { status: 'done' as const, response_status: 200, response_body: c.response, locked_until: new Date(now) }),
    }));
    return sql`${insertRows('idempotency_keys', CLAIM_COLUMNS, rows, where)} ON CONFLICT DO NOTHING RETURNING txn_id`;
  }

  /**
   * Deletes the keys claimsInsert bound to transactions that were then not recorded (their reference
   * was taken by a concurrent request in the same moment, operations/recorder.ts): nothing ran under them.
   */
  async unbind(on: Db | Transaction<DB>, txnIds: string[]): Promise<void> {
    if (txnIds.length > 0) await on.deleteFrom('idempotency_keys').where('txn_id', 'in', txnIds).execute();
  }

  /** Stores the response; call inside the transaction that commits the operation's effect. */
  async complete(trx: Transaction<DB>, s: IdemScope, status: number, body: string): Promise<void> {
    await trx
      .updateTable('idempotency_keys')
      .set({ status: 'done', response_status: status, response_body: body })
      .where((eb) => eb.and(keyOf(s)))
      .execute();
  }

  /**
   * Completes the claims bound to live transactions (by txn_id), in one statement. `force` stores the
   * answer whatever the key's state (the request's own answer, which its replays must repeat); without
   * it only a key still in flight is completed: a transaction that became final elsewhere (callback,
   * status enquiry) while its request was interrupted, so a retry replays the final answer instead of
   * resuming.
   */
  async completeBound(trx: Transaction<DB>, answers: BoundAnswer[]): Promise<void> {
    await this.completion(answers)?.execute(trx);
  }

  /**
   * completeBound's UPDATE, for a statement of the caller's (a CTE), for the keys that also pass `only`;
   * null when there is nothing to store.
   */
  completion(answers: BoundAnswer[], only: RawBuilder<unknown> = sql`TRUE`): RawBuilder<unknown> | null {
    if (answers.length === 0) return null;
    const values = answers.map((a) => sql`(${a.txnId}, ${a.body}, ${a.force})`);
    return sql`
      UPDATE idempotency_keys k SET status = 'done', response_status = 200, response_body = v.body
      FROM (VALUES ${sql.join(values)}) AS v (txn_id, body, force)
      WHERE k.txn_id = v.txn_id AND (v.force::boolean OR k.status = 'in_flight') AND ${only}
      RETURNING k.txn_id`;
  }

  /** Frees a claim whose request failed before any effect, so the client can retry with the same key. */
  async release(s: IdemScope, trx: Transaction<DB> | Db = this.db): Promise<void> {
    await trx
      .deleteFrom('idempotency_keys')
      .where((eb) => eb.and(keyOf(s)))
      .where('status', '=', 'in_flight')
      .execute();
  }

  /** Deletes completed keys older than the retention period; returns how many. */
  async purge(olderThanMs: number): Promise<number> {
    const res = await this.db
      .deleteFrom('idempotency_keys')
      .where('created_at', '<', new Date(Date.now() - olderThanMs))
      .where('status', '=', 'done')
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
