// Owns the transactions table: inserting an executed operation (alone or many at once, inside the
// caller's database transaction), reading the latest state by reference_id, settling due pendings,
// the reconciler's leases and enquiry bookkeeping, the facts a resolution by hand decides on, and an
// erasure's rewrite of a stored result. Queries of the table belong here; the read-only joins of the
// partner history (partner-events.ts), the attention queue and the ledger check are the exceptions.
import { sql, type Insertable, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import type { Db } from '../db/client.js';
import { leaseDue } from '../db/lease.js';
import { insertRows, recordset, type ColumnTypes } from '../db/recordset.js';
import type { DB, Environment, TransactionsTable, TxStatus } from '../db/schema.js';
import type { FinalOutcome, Outcome } from '../providers/connector.js';
import { eventCtes, subscribersOf, writeEvents, type NewEvent, type Subscriber } from '../webhooks/store.js';

export type TxRow = Pick<
  Selectable<TransactionsTable>,
  'id' | 'account_id' | 'environment' | 'operation' | 'reference_id' | 'status' | 'result' | 'created_at'
>;
const TX_COLUMNS = ['id', 'account_id', 'environment', 'operation', 'reference_id', 'status', 'result', 'created_at'] as const;

/** A transaction as settlement decides on it: the row and which partner holds it under what id. */
export type LockedTx = TxRow & Pick<Selectable<TransactionsTable>, 'partner' | 'partner_ref'>;
const LOCKED_COLUMNS = [...TX_COLUMNS, 'partner', 'partner_ref'] as const;

/** The columns referencesHeld() reads a reference from. */
const REF_COLUMNS: ColumnTypes<'transactions'> = { id: 'text', account_id: 'text', environment: 'text', reference_id: 'text' };

/** The columns a new transaction row is written with (build), and their types. */
const BUILT_COLUMNS: ColumnTypes<'transactions'> = {
  id: 'text',
  account_id: 'text',
  environment: 'text',
  operation: 'text',
  reference_id: 'text',
  status: 'text',
  result: 'jsonb',
  created_at: 'timestamptz',
  amount_paise: 'bigint',
  final_result: 'jsonb',
  due_at: 'timestamptz',
  updated_at: 'timestamptz',
  verified_at: 'timestamptz',
  next_check_at: 'timestamptz',
};

/** A transaction as a resolution by hand decides on it (attention/resolutions.ts). */
export interface TxFacts {
  id: string;
  account_id: string;
  environment: Environment;
  operation: string;
  status: TxStatus;
  partner: string | null;
  review_reason: string | null;
  flagged: string | null;
  reversed: boolean;
}
const FACTS = ['id', 'account_id', 'environment', 'operation', 'status', 'partner', 'review_reason', 'flagged', sql<boolean>`(result ? 'reversed_at')`.as('reversed')] as const;

/** A live transaction leased for a status enquiry or a reversal-watch enquiry, with what the enquiry needs. */
export interface EnquiryRow {
  id: string;
  operation: string;
  partner: string | null;
  partner_ref: string | null;
  checks: number;
  misses: number;
  watch_checks: number;
  verified_at: Date | null;
  created_at: Date;
  principal_paise: number | null;
  commission_paise: number | null;
}

/** What the reconciler's due columns lease: pendings to ask about, successes to watch for a reversal. */
const ENQUIRIES: Record<'check' | 'watch', { dueColumn: 'next_check_at' | 'watch_next_at'; where: RawBuilder<unknown> }> = {
  check: { dueColumn: 'next_check_at', where: sql`status = 'pending' AND environment = 'live' AND review_reason IS NULL` },
  watch: { dueColumn: 'watch_next_at', where: sql`status = 'success' AND environment = 'live'` },
};

export interface NewTransaction {
  id: string;
  accountId: string;
  environment: Environment;
  operation: string;
  referenceId: string;
  amountPaise: number | null;
  outcome: Outcome;
  /** Removes what the client sees but the store must not keep (identity photos; regenerated on read). */
  strip?: Strip;
  /** For live pendings: when reconciliation first asks the partner. */
  nextCheckAt?: Date;
}

type Strip = (data: Record<string, unknown>) => Record<string, unknown>;

/** One pending transaction to settle, and (for a success its partner can still undo) when to ask about a reversal first. */
export interface SettleItem {
  id: string;
  final: FinalOutcome;
  strip?: Strip;
  partner?: string;
  /** The partner's own id for it, recorded with the settlement when none is yet (setPartnerRefs' rule). */
  partnerRef?: string;
  watchFirstS?: number;
}

/** What a new answer changes in a stored result: every standard field but reference_id, and its own. */
const resultPatch = (o: { status: TxStatus; message: string; fields: Record<string, unknown> }, verifiedAt: Date | null) => {
  const { reference_id: _, ...patch } = resultData('', o, verifiedAt);
  return patch;
};

/** What a final outcome merges into a stored result (settleMany, settledCtes). */
const settledPatch = (i: SettleItem, now: Date) => (i.strip ?? ((d) => d))(resultPatch(i.final, now));

/**
 * A failed end earns no commission: a stored one (shown from the recovery point on) becomes 0 unless
 * the end says otherwise. As `settling` does it in SQL; this is its reading for a row built in advance.
 */
const settledResult = (stored: Record<string, unknown>, i: SettleItem, now: Date) => ({
  ...stored,
  ...(i.final.status === 'failed' && 'commission' in stored && { commission: 0 }),
  ...settledPatch(i, now),
});

/** A non-final answer for a pending transaction: its fields, the partner holding it, the first status enquiry. */
export interface PendingUpdate {
  outcome: Outcome;
  strip?: Strip;
  partner?: string;
  /** Its own id at that partner (pendingCtes; updatePendingMany leaves it to setPartnerRefs). */
  partnerRef?: string;
  firstCheckS?: number;
}
const pendingPatch = (u: PendingUpdate) => (u.strip ?? ((d) => d))(resultPatch(u.outcome, null));

/**
 * The UPDATE that settles pending transactions (RETURNING their rows), the rows also passing `only`:
 * settleMany's, and settledCtes' for one outcome.
 */
function settling(items: SettleItem[], now: Date, only: RawBuilder<unknown> = sql`TRUE`): RawBuilder<unknown> {
  const watchAt = (i: SettleItem) => (i.final.status === 'success' && i.watchFirstS !== undefined ? new Date(now.getTime() + i.watchFirstS * 1000) : null);
  const values = items.map((i) => sql`(${i.id}, ${i.final.status}, ${JSON.stringify(settledPatch(i, now))}, ${i.partner ?? null}, ${i.partnerRef ?? null}, ${watchAt(i)}::timestamptz)`);
  return sql`
    UPDATE transactions t
    SET status = v.status, final_result = NULL, due_at = NULL, next_check_at = NULL,
        result = t.result || CASE WHEN v.status = 'failed' AND t.result ? 'commission' THEN '{"commission": 0}'::jsonb ELSE '{}'::jsonb END || v.patch::jsonb,
        updated_at = ${now}, verified_at = ${now}, partner = COALESCE(v.partner, t.partner), watch_next_at = v.watch_at,
        partner_ref = COALESCE(t.partner_ref, v.partner_ref)
    FROM (VALUES ${sql.join(values)}) AS v (id, status, patch, partner, partner_ref, watch_at)
    WHERE t.id = v.id AND t.status = 'pending' AND ${only}
    RETURNING ${sql.join(TX_COLUMNS.map((c) => sql.ref(`t.${c}`)))}`;
}

/** A live transaction as its recovery point recorded it, and its result as stored (JSON text). */
export interface RecoveryPoint {
  row: TxRow;
  stored: string;
}
const storedOf = (before: RecoveryPoint) => JSON.parse(before.stored) as Record<string, unknown>;

/**
 * The row (as `t`) still pending with the result its recovery point stored: a row a callback, an
 * enquiry or a person changed meanwhile fails it, and a lone outcome then writes nothing.
 */
const unchanged = (before: RecoveryPoint) => sql`t.id = ${before.row.id} AND t.status = 'pending' AND t.result = ${before.stored}::jsonb`;

/** The webhook event of a transaction made final. */
const settledEvent = (row: TxRow): NewEvent => ({
  scope: { accountId: row.account_id, environment: row.environment },
  type: `transaction.${row.status as FinalOutcome['status']}` as const,
  txnId: row.id,
  data: {
    ...row.result,
    txn_id: (row.result.txn_id as string | undefined) ?? row.id,
    utr: (row.result.utr as string | null | undefined) ?? null,
    operation: row.operation,
    environment: row.environment,
  },
});

/**
 * Several transaction rows updated in one statement, each reading its own values from one jsonb object
 * keyed by id (`v.o -> t.id`): `source` for the UPDATE's FROM, `found` for its WHERE (the rows by primary
 * key, with no join for a planner without statistics, the embedded store's, to plan as a scan).
 */
function keyedById(entries: Array<[string, Record<string, unknown>]>): { source: RawBuilder<unknown>; found: RawBuilder<boolean> } {
  const o = JSON.stringify(Object.fromEntries(entries));
  return { source: sql`(SELECT ${o}::jsonb AS o) v`, found: sql<boolean>`t.id = ANY(ARRAY(SELECT jsonb_object_keys(${o}::jsonb)))` };
}

/** A top-level merge of `patch` into the stored result, done by the store (jsonb ||). */
const merge = (patch: Record<string, unknown>) => sql<string>`result || ${JSON.stringify(patch)}::jsonb`;

/** The `data` an operation answers: the standard result fields, then the operation's own. */
export function resultData(referenceId: string, o: { status: TxStatus; message: string; fields: Record<string, unknown> }, verifiedAt: Date | null) {
  return {
    status: o.status,
    reference_id: referenceId,
    verified_at: verifiedAt ? verifiedAt.toISOString() : null,
    message: o.message,
    ...o.fields,
  };
}

export class TransactionStore {
  constructor(private db: Db) {}

  /**
   * The INSERT of built rows (build()) that `where` keeps (a row's values as `v.<column>`), as a statement
   * to run within another. A row whose reference_id another transaction of its account and environment
   * holds is not inserted (migration 0026's unique index; a concurrent holder is waited for): the caller
   * finds it missing from what the statement RETURNS.
   */
  insertStatement(values: Array<ReturnType<TransactionStore['build']>['values']>, where: RawBuilder<unknown>): RawBuilder<unknown> {
    return sql`${insertRows('transactions', BUILT_COLUMNS, values, where)} ON CONFLICT DO NOTHING`;
  }

  /**
   * The ids of the given rows whose reference_id a committed transaction already holds, as a set named
   * by the caller's CTE (its column `id`): read before anything is claimed, so a reused reference claims
   * no idempotency key (CONTRACT §5).
   */
  referencesHeld(values: ReadonlyArray<Pick<Insertable<TransactionsTable>, 'id' | 'account_id' | 'environment' | 'reference_id'>>): RawBuilder<unknown> {
    const refs = values.map(({ id, account_id, environment, reference_id }) => ({ id, account_id, environment, reference_id }));
    return sql`
      SELECT v.id FROM ${recordset(REF_COLUMNS, refs)}
      WHERE EXISTS (SELECT 1 FROM transactions t WHERE t.account_id = v.account_id AND t.environment = v.environment AND t.reference_id = v.reference_id AND NOT t.ref_released)`;
  }

  /** The transaction that holds a reference (CONTRACT §5), if any. */
  async holder(ref: { accountId: string; environment: Environment; referenceId: string }): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('transactions')
      .select('id')
      .where('account_id', '=', ref.accountId)
      .where('environment', '=', ref.environment)
      .where('reference_id', '=', ref.referenceId)
      .where('ref_released', '=', false)
      .executeTakeFirst();
    return row?.id;
  }

  /** Frees a transaction's reference: its call did nothing at all (live-runner.ts; migration 0026). */
  async releaseReference(trx: Transaction<DB>, id: string): Promise<void> {
    await trx.updateTable('transactions').set({ ref_released: true }).where('id', '=', id).execute();
  }

  /** The row an operation will be answered from, and the values that store it. */
  build(t: NewTransaction): { row: TxRow; values: Insertable<TransactionsTable> } {
    const now = new Date();
    const { outcome } = t;
    const verifiedAt = outcome.status === 'pending' ? null : now;
    const data = resultData(t.referenceId, outcome, verifiedAt);
    const final = outcome.settle?.final;
    const strip = t.strip ?? ((d) => d);
    const row: TxRow = {
      id: t.id,
      account_id: t.accountId,
      environment: t.environment,
      operation: t.operation,
      reference_id: t.referenceId,
      status: outcome.status,
      result: data,
      created_at: now,
    };
    const values = {
      ...row,
      amount_paise: t.amountPaise,
      result: JSON.stringify(strip(data)),
      final_result: final ? JSON.stringify({ ...final, fields: strip(final.fields) }) : null,
      due_at: outcome.settle ? new Date(now.getTime() + outcome.settle.after_ms) : null,
      updated_at: now,
      verified_at: verifiedAt,
      next_check_at: t.nextCheckAt ?? null,
    };
    return { row, values };
  }

  async get(trx: Transaction<DB> | Db, id: string): Promise<TxRow | undefined> {
    return trx.selectFrom('transactions').select(TX_COLUMNS).where('id', '=', id).executeTakeFirst();
  }

  /**
   * A transaction with `fields` added where its stored result lacks them (the stored keys win): what
   * an operation derived itself, for a row its partner's end reached first (live-runner.ts).
   */
  async addMissing(trx: Transaction<DB>, id: string, fields: Record<string, unknown>): Promise<TxRow | undefined> {
    const added =
      Object.keys(fields).length === 0
        ? undefined
        : await trx
            .updateTable('transactions')
            .set({ result: sql`${JSON.stringify(fields)}::jsonb || result`, updated_at: new Date() })
            .where('id', '=', id)
            .where(sql<boolean>`NOT (result ? 'erased_at')`) // an erasure that came between keeps its word
            .returning(TX_COLUMNS)
            .executeTakeFirst();
    return added ?? this.get(trx, id);
  }

  /** A transaction with the partner that holds it, read without a lock. */
  async getWithPartner(db: Db, id: string): Promise<LockedTx | undefined> {
    return db.selectFrom('transactions').select(LOCKED_COLUMNS).where('id', '=', id).executeTakeFirst();
  }

  /**
   * Merges non-final answers' fields into transactions still pending, in one statement for the batch
   * (a batch of live outcomes: with real partners most payouts start pending, and one statement per
   * outcome was one more round trip per live call, issue #28). Each also records the partner holding
   * it and, with `firstCheckS`, when reconciliation first asks about it (`created_at` plus that many
   * seconds) (keyedById). Answers the rows updated, by id; one no longer pending is left out.
   */
  async updatePendingMany(trx: Transaction<DB>, updates: ReadonlyArray<PendingUpdate & { id: string }>): Promise<Map<string, TxRow>> {
    if (updates.length === 0) return new Map();
    const v = keyedById(
      updates.map((u) => [u.id, { patch: pendingPatch(u), partner: u.partner ?? null, first_s: u.firstCheckS ?? null }]),
    );
    const { rows } = await sql<TxRow>`
      UPDATE transactions t SET
        result = t.result || (v.o -> t.id -> 'patch'),
        updated_at = ${new Date()},
        partner = COALESCE(v.o -> t.id ->> 'partner', t.partner),
        next_check_at = COALESCE(t.created_at + (v.o -> t.id ->> 'first_s')::float8 * interval '1 second', t.next_check_at)
      FROM ${v.source}
      WHERE ${v.found} AND t.status = 'pending'
      RETURNING ${sql.join(TX_COLUMNS.map((c) => sql.ref(`t.${c}`)))}`.execute(trx);
    return new Map(rows.map((r) => [r.id, r]));
  }

  /**
   * A transaction by our id, or by the partner's reference at that partner, locked for the caller's
   * database transaction (FOR UPDATE): what the caller then decides is decided on the row as it is
   * after every settlement that held it has committed. Lock order (docs/RELIABILITY.md): this row
   * first, then wallets, idempotency keys, the outbox and the audit chain.
   */
  async lockFor(trx: Transaction<DB>, by: { txnId: string | null; partner: string; partnerRef: string | null }): Promise<LockedTx | undefined> {
    const q = trx.selectFrom('transactions').select(LOCKED_COLUMNS).forUpdate();
    if (by.txnId) return q.where('id', '=', by.txnId).executeTakeFirst();
    if (!by.partnerRef) return undefined;
    return q.where('partner', '=', by.partner).where('partner_ref', '=', by.partnerRef).orderBy('id').limit(1).executeTakeFirst();
  }

  /** Locks several transactions in id order (the lock order every settlement path keeps). */
  async lockMany(trx: Transaction<DB>, ids: string[]): Promise<void> {
    if (ids.length > 0) await trx.selectFrom('transactions').select('id').where('id', 'in', ids).orderBy('id').forUpdate().execute();
  }

  /** The transaction, other than `exceptId`, that a partner's own id already belongs to at that partner. */
  async holderOf(trx: Transaction<DB>, partner: string, partnerRef: string, exceptId: string): Promise<string | undefined> {
    const row = await trx.selectFrom('transactions').select('id').where('partner', '=', partner).where('partner_ref', '=', partnerRef).where('id', '<>', exceptId).limit(1).executeTakeFirst();
    return row?.id;
  }

  /** Records which partner holds a transaction and under what id of its own. */
  async setPartnerRef(trx: Transaction<DB>, id: string, partner: string, partnerRef: string): Promise<void> {
    await this.setPartnerRefs(trx, [{ id, partner, partnerRef }]);
  }

  /**
   * setPartnerRef for several transactions in one statement (a batch of live outcomes: one statement
   * per outcome was a fifth of the embedded engine's time per live call, issue #28), keyedById.
   */
  async setPartnerRefs(trx: Transaction<DB>, refs: ReadonlyArray<{ id: string; partner: string; partnerRef: string }>): Promise<void> {
    if (refs.length === 0) return;
    const v = keyedById(refs.map((r) => [r.id, { partner: r.partner, ref: r.partnerRef }]));
    await sql`
      UPDATE transactions t SET partner = v.o -> t.id ->> 'partner', partner_ref = v.o -> t.id ->> 'ref'
      FROM ${v.source}
      WHERE ${v.found} AND t.partner_ref IS NULL`.execute(trx);
  }

  /** When reconciliation next asks about a pending transaction. */
  async setNextCheck(trx: Db, id: string, at: Date): Promise<void> {
    await trx.updateTable('transactions').set({ next_check_at: at }).where('id', '=', id).where('status', '=', 'pending').execute();
  }

  /**
   * Records one reversal-watch enquiry of a success: how many were made, and when the next is due
   * (null: the watch is over). Only while the success is not reversed.
   */
  async watched(db: Db, id: string, checks: number, nextAt: Date | null): Promise<void> {
    await db
      .updateTable('transactions')
      .set({ watch_checks: checks, watch_next_at: nextAt })
      .where('id', '=', id)
      .where('status', '=', 'success')
      .where(sql<boolean>`NOT (result ? 'reversed_at')`)
      .execute();
  }

  /**
   * Leases up to `limit` live transactions due for an enquiry (`check`: pendings, `watch`: successes
   * in their reversal watch) for `leaseS` seconds, skipping rows another process holds.
   */
  async leaseEnquiries(kind: 'check' | 'watch', limit: number, leaseS: number): Promise<EnquiryRow[]> {
    const ids = await leaseDue<string>(this.db, { table: 'transactions', ...ENQUIRIES[kind], limit, seconds: leaseS });
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('transactions')
      .leftJoin('holds', 'holds.txn_id', 'transactions.id')
      .select(['transactions.id', 'operation', 'partner', 'partner_ref', 'checks', 'misses', 'watch_checks', 'verified_at', 'transactions.created_at', 'holds.principal_paise', 'holds.commission_paise'])
      .where('transactions.id', 'in', ids)
      .execute();
  }

  /**
   * Records a status enquiry that did not settle a pending: how many were made and found nothing, and
   * either when to ask next or (nextAt null) why it went to manual review.
   */
  async checked(id: string, c: { checks: number; misses: number; nextAt: Date | null; reviewReason: string | null }): Promise<void> {
    await this.db
      .updateTable('transactions')
      .set({ checks: c.checks, misses: c.misses, next_check_at: c.nextAt, review_reason: c.reviewReason })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .execute();
  }

  /** The transaction as a resolution decides on it, unlocked (for reading). */
  async facts(id: string): Promise<TxFacts | undefined> {
    return this.db.selectFrom('transactions').select(FACTS).where('id', '=', id).executeTakeFirst();
  }

  /** The transaction as a resolution decides on it, locked for the caller's database transaction. */
  async lockFacts(trx: Transaction<DB>, id: string): Promise<TxFacts | undefined> {
    return trx.selectFrom('transactions').select(FACTS).where('id', '=', id).forUpdate().executeTakeFirst();
  }

  /**
   * Clears a transaction's flag and manual review (a resolution by hand). `rearm`: a pending goes back
   * to reconciliation, asked about now, so that it is never left with no one watching it.
   */
  async clearAttention(trx: Transaction<DB>, id: string, rearm: boolean): Promise<void> {
    await trx
      .updateTable('transactions')
      .set({ flagged: null, review_reason: null, ...(rearm ? { next_check_at: new Date() } : {}) })
      .where('id', '=', id)
      .execute();
  }

  /** What a person looking at one transaction sees beyond its facts: its account, amount, hold and result. */
  async detail(id: string) {
    return this.db
      .selectFrom('transactions as t')
      .innerJoin('accounts as a', 'a.id', 't.account_id')
      .leftJoin('holds as h', 'h.txn_id', 't.id')
      .select(['t.reference_id', 't.amount_paise', 't.partner_ref', 't.checks', 't.next_check_at', 't.created_at', 't.verified_at', 't.result', 'a.name as account_name', 'h.amount_paise as hold_paise', 'h.status as hold_status'])
      .where('t.id', '=', id)
      .executeTakeFirstOrThrow();
  }

  /** Makes a live transaction's next enquiry due now: a pending's status check, or a success's reversal watch. */
  async recheck(db: Db, id: string): Promise<void> {
    await sql`
      UPDATE transactions SET
        next_check_at = CASE WHEN status = 'pending' AND review_reason IS NULL THEN now() ELSE next_check_at END,
        watch_next_at = CASE WHEN status = 'success' AND NOT (result ? 'reversed_at') THEN now() ELSE watch_next_at END
      WHERE id = ${id} AND environment = 'live'`.execute(db);
  }

  /** Flags a transaction for review; its state does not change. */
  async flag(trx: Transaction<DB>, id: string, why: string): Promise<void> {
    await trx.updateTable('transactions').set({ flagged: why }).where('id', '=', id).execute();
  }

  /**
   * Shows a reversal on a successful transaction (data.reversed_at, data.reversal_reason), once; the
   * status stays success. Returns the row, or undefined when it is not a success or is already reversed.
   */
  async markReversed(trx: Transaction<DB>, id: string, r: { reason: string; at: Date }): Promise<TxRow | undefined> {
    return trx
      .updateTable('transactions')
      .set({ result: merge({ reversed_at: r.at.toISOString(), reversal_reason: r.reason }), updated_at: new Date(), watch_next_at: null })
      .where('id', '=', id)
      .where('status', '=', 'success')
      .where(sql<boolean>`NOT (result ? 'reversed_at')`)
      .returning(TX_COLUMNS)
      .executeTakeFirst();
  }

  /** Every transaction of a reference, locked, with its stored result as text (an erasure rewrites it). */
  async lockByReference(trx: Transaction<DB>, ref: { accountId: string; environment: Environment; referenceId: string }) {
    return trx
      .selectFrom('transactions')
      .select(['id', 'status', sql<string>`result::text`.as('result')])
      .where('account_id', '=', ref.accountId)
      .where('environment', '=', ref.environment)
      .where('reference_id', '=', ref.referenceId)
      .forUpdate()
      .execute();
  }

  /** Replaces a final transaction's stored result (an erasure keeps only the money facts); nothing is left to become. */
  async replaceResult(trx: Transaction<DB>, id: string, result: Record<string, unknown>): Promise<void> {
    await trx.updateTable('transactions').set({ result: JSON.stringify(result), final_result: null }).where('id', '=', id).execute();
  }

  async latest(accountId: string, environment: Environment, referenceId: string): Promise<TxRow | undefined> {
    return this.db
      .selectFrom('transactions')
      .select(TX_COLUMNS)
      .where('account_id', '=', accountId)
      .where('environment', '=', environment)
      .where('reference_id', '=', referenceId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * Moves a pending transaction to its final state, once: a conditional UPDATE that only a pending
   * row passes, so a final state never changes again. Returns the settled row, or undefined when it
   * was already final.
   */
  async settle(trx: Transaction<DB>, id: string, final: FinalOutcome, strip?: Strip): Promise<TxRow | undefined> {
    return (await this.settleMany(trx, [{ id, final, strip }])).get(id);
  }

  /**
   * settle() for several transactions in one UPDATE, with their webhook events in the outbox of the
   * same database transaction (committed together or not at all). `partner` records which partner
   * answered (live). Answers the rows that were still pending and are now final, by id.
   */
  async settleMany(trx: Transaction<DB>, items: SettleItem[]): Promise<Map<string, TxRow>> {
    if (items.length === 0) return new Map();
    // One statement settles them and says which webhook endpoints must hear of each.
    const { rows } = await sql<TxRow & { subscribers: Subscriber[] }>`
      WITH settled AS (${settling(items, new Date())})
      SELECT settled.*, ${subscribersOf('settled.account_id', 'settled.environment')} AS subscribers FROM settled`.execute(trx);
    await writeEvents(
      trx,
      rows.map((row) => settledEvent(row)),
      [...new Map(rows.flatMap((r) => r.subscribers).map((e) => [e.id, e])).values()], // each endpoint once
    );
    return new Map(rows.map(({ subscribers: _, ...r }) => [r.id, r]));
  }

  /**
   * One live outcome made final, as the CTE `outcome_row` of a statement of the caller's that runs alone
   * (its other CTEs read `outcome_row` for what they write: live-runner.ts): settleMany's UPDATE, with its
   * event as further CTEs. Only while the row is as its recovery point stored it (`unchanged`). Answers
   * the row as the statement leaves it.
   */
  settledCtes(before: RecoveryPoint, item: SettleItem): { row: TxRow; ctes: RawBuilder<unknown> } {
    const now = new Date();
    const row = { ...before.row, status: item.final.status, result: settledResult(storedOf(before), item, now) };
    return { row, ctes: sql`outcome_row AS (${settling([item], now, unchanged(before))}), ${eventCtes(settledEvent(row), sql`EXISTS (SELECT 1 FROM outcome_row)`)}` };
  }

  /**
   * settledCtes() for a pending answer: merged as updatePendingMany does, with the partner's own id when
   * none is yet.
   */
  pendingCtes(before: RecoveryPoint, u: PendingUpdate): { row: TxRow; ctes: RawBuilder<unknown> } {
    const patch = pendingPatch(u);
    return {
      row: { ...before.row, result: { ...storedOf(before), ...patch } },
      ctes: sql`outcome_row AS (
        UPDATE transactions t SET
          result = t.result || ${JSON.stringify(patch)}::jsonb,
          updated_at = ${new Date()},
          partner = COALESCE(${u.partner ?? null}, t.partner),
          partner_ref = COALESCE(t.partner_ref, ${u.partnerRef ?? null}),
          next_check_at = COALESCE(t.created_at + ${u.firstCheckS ?? null}::float8 * interval '1 second', t.next_check_at)
        WHERE ${unchanged(before)}
        RETURNING t.id)`,
    };
  }

  /** Claims up to `limit` due pendings, skipping rows another process holds, and settles them together. */
  async settleDue(limit = 100): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const due = await trx
        .selectFrom('transactions')
        .select(['id', 'final_result'])
        .where('status', '=', 'pending')
        .where('due_at', '<=', sql<Date>`now()`)
        .orderBy('due_at')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .execute();
      const settled = await this.settleMany(
        trx,
        due.flatMap((d) => (d.final_result ? [{ id: d.id, final: d.final_result as unknown as FinalOutcome }] : [])),
      );
      return settled.size;
    });
  }
}
