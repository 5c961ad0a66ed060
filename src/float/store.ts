// Owns the float tables (migration 0027): the append-only movements of each partner's float (what the
// operator recorded — the opening balance, fundings, approved adjustments — and what Sangam's own
// transactions did to it: each success routed to the partner is a `spend`, each reversal Sangam
// posted a `reversal`, recorded once per transaction by `sync`), what the float should hold now
// (`expected`), the latest check of each partner, and the drift items of the "Needs attention" queue
// with their resolutions.
//
// What the float should hold: the latest opening, plus every movement recorded after it, less the
// partner's live pendings created after it (a prepaid partner debits a request when it accepts it and
// credits it back if it fails, so an operation in flight is already spent there). Everything created
// before the opening is in the opening balance.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/client.js';
import type { Trx } from '../db/transaction.js';
import type { FloatCandidates, FloatChecksTable, FloatDriftState, FloatDriftsTable, FloatMovementKind, FloatMovementsTable, FloatResolutionsTable } from '../db/schema.js';
import { newId } from '../ids.js';

export type Movement = Selectable<FloatMovementsTable>;
export type Check = Selectable<FloatChecksTable>;
export type Drift = Selectable<FloatDriftsTable>;
export type FloatResolution = Selectable<FloatResolutionsTable>;

/** Who records what the float's own transactions did (spend, reversal) and closes a cleared drift. */
export const SYSTEM = 'system:float';

export async function recordMovement(db: Db | Trx, m: { partner: string; kind: FloatMovementKind; amountPaise: number; memo?: string; by: string; txnId?: string }): Promise<Movement> {
  return db
    .insertInto('float_movements')
    .values({ id: newId('flm', 20), partner: m.partner, kind: m.kind, amount_paise: m.amountPaise, txn_id: m.txnId ?? null, memo: m.memo ?? '', recorded_by: m.by })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The partner's latest opening balance: where its books start. */
export async function latestOpening(db: Db, partner: string): Promise<Movement | undefined> {
  return db.selectFrom('float_movements').selectAll().where('partner', '=', partner).where('kind', '=', 'opening').orderBy('at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
}

/** When the opening was recorded, to the microsecond (a JavaScript Date keeps milliseconds). */
const openedAt = (opening: Movement) => sql`(SELECT at FROM float_movements WHERE id = ${opening.id})`;

/** The partner's live transactions of `operations` since the opening, as `t`. */
const since = (partner: string, operations: readonly string[], opening: Movement) =>
  sql`t.partner = ${partner} AND t.environment = 'live' AND t.operation = ANY(${sql.val([...operations])}::text[]) AND t.created_at >= ${openedAt(opening)} AND t.amount_paise IS NOT NULL`;

/**
 * Records, once per transaction, each success since the opening as a `spend` (its amount, debited) and
 * each reversal Sangam posted as a `reversal` (credited back). Ids are derived from the transaction,
 * so two processes syncing at once record each once. Returns how many rows it added.
 */
export async function sync(db: Db, partner: string, operations: readonly string[], opening: Movement): Promise<number> {
  const { numAffectedRows } = await sql`
    INSERT INTO float_movements (id, partner, kind, amount_paise, txn_id, recorded_by)
    SELECT 'flm_' || substr(md5(${partner} || ':' || k.kind || ':' || t.id), 1, 24), ${partner}, k.kind,
           CASE k.kind WHEN 'spend' THEN -t.amount_paise ELSE t.amount_paise END, t.id, ${SYSTEM}
    FROM transactions t
    CROSS JOIN (VALUES ('spend'), ('reversal')) AS k(kind)
    WHERE ${since(partner, operations, opening)} AND t.status = 'success'
      AND (k.kind = 'spend' OR t.result ? 'reversed_at')
      AND NOT EXISTS (SELECT 1 FROM float_movements m WHERE m.partner = ${partner} AND m.kind = k.kind AND m.txn_id = t.id)
    ON CONFLICT DO NOTHING`.execute(db);
  return Number(numAffectedRows ?? 0);
}

/** What the float should hold now (see the module header), in paise. */
export async function expected(db: Db, partner: string, operations: readonly string[], opening: Movement): Promise<number> {
  const { rows } = await sql<{ booked: number; pending: number }>`
    SELECT (SELECT COALESCE(SUM(amount_paise), 0) FROM float_movements
             WHERE partner = ${partner} AND (id = ${opening.id} OR (kind <> 'opening' AND at >= ${openedAt(opening)})))::bigint AS booked,
           (SELECT COALESCE(SUM(t.amount_paise), 0) FROM transactions t WHERE ${since(partner, operations, opening)} AND t.status = 'pending')::bigint AS pending`.execute(db);
  return Number(rows[0]!.booked) - Number(rows[0]!.pending);
}

/** The partner's movements, newest first: the float's statement as Sangam keeps it. */
export async function movements(db: Db, partner: string, limit: number): Promise<Movement[]> {
  return db.selectFrom('float_movements').selectAll().where('partner', '=', partner).orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

export async function lastCheck(db: Db, partner: string): Promise<Check | undefined> {
  return db.selectFrom('float_checks').selectAll().where('partner', '=', partner).executeTakeFirst();
}

/** A conclusive check; the streak counts this very drift seen in a row. Returns it. */
export async function saveCheck(db: Db, partner: string, c: { expected: number; actual: number }): Promise<Check> {
  const drift = c.actual - c.expected;
  const { rows } = await sql<Check>`
    INSERT INTO float_checks AS f (partner, checked_at, expected_paise, actual_paise, drift_paise, streak, error, error_at)
    VALUES (${partner}, now(), ${c.expected}, ${c.actual}, ${drift}, 1, NULL, NULL)
    ON CONFLICT (partner) DO UPDATE SET checked_at = now(), expected_paise = EXCLUDED.expected_paise, actual_paise = EXCLUDED.actual_paise,
      drift_paise = EXCLUDED.drift_paise, error = NULL, error_at = NULL,
      streak = CASE WHEN f.drift_paise = EXCLUDED.drift_paise THEN f.streak + 1 ELSE 1 END
    RETURNING *`.execute(db);
  return rows[0]!;
}

/** The balance could not be read (or no opening is recorded): kept beside the last conclusive check. */
export async function saveError(db: Db, partner: string, error: string): Promise<void> {
  await sql`
    INSERT INTO float_checks (partner, checked_at, error, error_at) VALUES (${partner}, now(), ${error}, now())
    ON CONFLICT (partner) DO UPDATE SET error = EXCLUDED.error, error_at = now()`.execute(db);
}

export async function openDrift(db: Db | Trx, partner: string): Promise<Drift | undefined> {
  return db.selectFrom('float_drifts').selectAll().where('partner', '=', partner).where('state', '=', 'open').executeTakeFirst();
}

export async function getDrift(db: Db, id: string): Promise<Drift | undefined> {
  return db.selectFrom('float_drifts').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function lockDrift(trx: Trx, id: string): Promise<Drift | undefined> {
  return trx.selectFrom('float_drifts').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** The partner's last drift an admin dismissed: the same amount does not open a new item. */
export async function lastDismissed(db: Db, partner: string): Promise<Drift | undefined> {
  return db.selectFrom('float_drifts').selectAll().where('partner', '=', partner).where('state', '=', 'dismissed').orderBy('closed_at', 'desc').limit(1).executeTakeFirst();
}

/** Opens the partner's drift item, or brings the open one up to date; another process's open one wins. */
export async function upsertDrift(db: Db, partner: string, d: { drift: number; expected: number; actual: number; candidates: FloatCandidates }): Promise<{ drift: Drift; opened: boolean }> {
  const values = { drift_paise: d.drift, expected_paise: d.expected, actual_paise: d.actual, candidates: JSON.stringify(d.candidates), updated_at: new Date() };
  const updated = await db.updateTable('float_drifts').set(values).where('partner', '=', partner).where('state', '=', 'open').returningAll().executeTakeFirst();
  if (updated) return { drift: updated, opened: false };
  const inserted = await db
    .insertInto('float_drifts')
    .values({ id: newId('fdr', 20), partner, state: 'open', ...values })
    .onConflict((oc) => oc.column('partner').where('state', '=', 'open').doNothing())
    .returningAll()
    .executeTakeFirst();
  return inserted ? { drift: inserted, opened: true } : { drift: (await openDrift(db, partner))!, opened: false };
}

/** Closes an open drift item; false when it was no longer open. */
export async function closeDrift(db: Db | Trx, id: string, c: { state: Exclude<FloatDriftState, 'open'>; by: string; reason: string }): Promise<boolean> {
  const r = await db
    .updateTable('float_drifts')
    .set({ state: c.state, closed_at: new Date(), closed_by: c.by, close_reason: c.reason, updated_at: new Date() })
    .where('id', '=', id)
    .where('state', '=', 'open')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Every open drift item, oldest first. */
export async function openDrifts(db: Db): Promise<Drift[]> {
  return db.selectFrom('float_drifts').selectAll().where('state', '=', 'open').orderBy('opened_at').orderBy('id').execute();
}

export interface CandidateRow {
  id: string;
  account_id: string;
  reference_id: string;
  status: string;
  amount_paise: number;
  created_at: Date;
}

/**
 * The transactions that may explain a drift, newest first, at most `limit`, created inside the window
 * (and since the opening), each no larger than the drift: for money the partner holds beyond our
 * books (`more`), successes not reversed (a reversal we missed) and pendings (one it refunded or never
 * took); for money it lacks, failures (one it made after all).
 */
export async function candidateRows(db: Db, q: { partner: string; operations: readonly string[]; opening: Movement; from: Date; drift: number; limit: number }): Promise<CandidateRow[]> {
  const which = q.drift > 0 ? sql`((t.status = 'success' AND NOT (t.result ? 'reversed_at')) OR t.status = 'pending')` : sql`t.status = 'failed'`;
  const { rows } = await sql<CandidateRow>`
    SELECT t.id, t.account_id, t.reference_id, t.status, t.amount_paise, t.created_at FROM transactions t
    WHERE ${since(q.partner, q.operations, q.opening)} AND t.created_at >= ${q.from} AND ${which} AND t.amount_paise > 0 AND t.amount_paise <= ${Math.abs(q.drift)}
    ORDER BY t.created_at DESC, t.id DESC LIMIT ${q.limit}`.execute(db);
  return rows;
}

export async function insertFloatResolution(trx: Trx, r: { driftId: string; action: FloatResolution['action']; amountPaise: number | null; reason: string; evidence: string; by: { id: string; email: string } }): Promise<FloatResolution> {
  return trx
    .insertInto('float_resolutions')
    .values({ id: newId('fres', 20), drift_id: r.driftId, action: r.action, amount_paise: r.amountPaise, reason: r.reason, evidence: r.evidence, state: 'proposed', proposed_by: r.by.email, proposed_by_user: r.by.id })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function openFloatResolution(db: Db | Trx, driftId: string): Promise<FloatResolution | undefined> {
  return db.selectFrom('float_resolutions').selectAll().where('drift_id', '=', driftId).where('state', '=', 'proposed').executeTakeFirst();
}

export async function getFloatResolution(db: Db | Trx, id: string, lock = false): Promise<FloatResolution | undefined> {
  const q = db.selectFrom('float_resolutions').selectAll().where('id', '=', id);
  return lock ? q.forUpdate().executeTakeFirst() : q.executeTakeFirst();
}

export async function decideFloatResolution(trx: Trx, id: string, d: { state: 'applied' | 'rejected'; by: string; reason?: string }): Promise<FloatResolution> {
  return trx
    .updateTable('float_resolutions')
    .set({ state: d.state, decided_by: d.by, decided_at: new Date(), decision_reason: d.reason ?? null })
    .where('id', '=', id)
    .where('state', '=', 'proposed')
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function floatResolutionsOf(db: Db, driftId: string): Promise<FloatResolution[]> {
  return db.selectFrom('float_resolutions').selectAll().where('drift_id', '=', driftId).orderBy('proposed_at').orderBy('id').execute();
}
