// Owns partner_events, each live transaction's history with its partners: what was sent and what the
// partner answered (phase 3 of the request path), each callback applied, each status enquiry with its
// answer or its error, resolutions by hand, and the one `overdue` note (attention/overdue.ts asks for
// it; the statement that finds and notes overdue pendings is here). Call sites stay one line: they hand
// record() events made by the helpers here. Reading the history back merges the partner_callbacks rows
// it does not show already (callbacks from before migration 0016). It sits with the transactions
// (below settlement and attention, which both write it) so that settlement needs nothing above it.
//
// `detail` never holds identity data: only named fields go in (a message, the partner's ids, a result),
// and free text is redacted as the audit store redacts it (audit/redact.ts: digit runs masked to their
// last 4). The partner's own ids (partner_ref, event ids, utr) are references and kept as they are.
import { sql, type RawBuilder } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import type { PartnerEventKind } from '../db/schema.js';
import { maskDigits } from '../audit/redact.js';
import type { Outcome, PartnerReport } from '../providers/connector.js';

export interface PartnerEventInput {
  /** Our transaction id; null when only the partner's own id names it (then partner + partnerRef find it). */
  txnId: string | null;
  partner: string | null;
  partnerRef?: string | null;
  kind: PartnerEventKind;
  status: string | null;
  /** Unset: now; for a request, the transaction's recovery point (when it was about to be sent). */
  at?: Date;
  detail?: Record<string, unknown>;
}

export interface HistoryEntry {
  at: string;
  kind: PartnerEventKind;
  partner: string | null;
  status: string | null;
  detail: Record<string, unknown>;
  /** Where the entry comes from: this history, or the callback log of migration 0003. */
  source: 'partner_events' | 'partner_callbacks';
}

const MESSAGE_MAX = 300;

/** A partner's or our own message as it may be kept: cut, with identity numbers masked. */
const text = (s: unknown) => (typeof s === 'string' && s ? maskDigits(s.length > MESSAGE_MAX ? `${s.slice(0, MESSAGE_MAX)}…` : s) : undefined);

/** Drops unset fields so that detail only says what is known. */
const known = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== ''));

/**
 * Appends events, in one statement, inside the caller's transaction or on its own. An event whose
 * transaction cannot be found (a callback for a transaction we do not have) is skipped: the callback
 * log keeps it.
 */
export async function record(db: Db, events: PartnerEventInput[]): Promise<void> {
  const insert = insertion(events);
  if (insert) await insert.execute(db);
}

/** record's INSERT of the events, if `only` holds, for a statement of the caller's (a CTE); null when there is nothing to append. */
export function insertion(events: PartnerEventInput[], only: RawBuilder<unknown> = sql`TRUE`): RawBuilder<unknown> | null {
  if (events.length === 0) return null;
  const values = events.map(
    (e) =>
      sql`(${e.txnId}::text, ${e.partner}::text, ${e.partnerRef ?? null}::text, ${e.kind}::text, ${e.status}::text, ${e.at ?? null}::timestamptz, ${JSON.stringify(known(e.detail ?? {}))}::jsonb)`,
  );
  return sql`
    INSERT INTO partner_events (txn_id, at, partner, kind, status, detail)
    SELECT t.id, COALESCE(v.at, CASE WHEN v.kind = 'request' THEN t.created_at ELSE now() END), v.partner, v.kind, v.status, v.detail
    FROM (VALUES ${sql.join(values)}) AS v (txn_id, partner, partner_ref, kind, status, at, detail)
    JOIN transactions t ON t.id = COALESCE(v.txn_id,
      (SELECT x.id FROM transactions x WHERE x.partner = v.partner AND x.partner_ref = v.partner_ref ORDER BY x.id LIMIT 1))
    WHERE ${only}`;
}

/** Phase 3 of a live request: it went to `outcome.partner` (at its recovery point), and this is what came back. */
export function exchange(txnId: string, operation: string, outcome: Outcome & { partner?: string }): PartnerEventInput[] {
  const partner = outcome.partner ?? null;
  return [
    { txnId, partner, kind: 'request', status: null, detail: { operation } },
    { txnId, partner, kind: 'answer', status: outcome.status, detail: { message: text(outcome.message), partner_ref: outcome.partnerRef } },
  ];
}

/**
 * A callback settlement applied (or dropped as not final, conflicting…): `result` says what it did.
 * `eventId` is null for what a partner's own route reports (a DigiLocker consent decision).
 */
export function callback(report: PartnerReport, partner: string, eventId: string | null, result: string): PartnerEventInput {
  return {
    txnId: report.txnId,
    partner,
    partnerRef: report.partnerRef,
    kind: 'callback',
    status: report.outcome.status,
    detail: { event_id: eventId, result, message: text(report.outcome.message), partner_ref: report.partnerRef, reversal: text(report.reversal?.reason) },
  };
}

/**
 * A status enquiry, recorded with what it found: the partner's status, `unknown` (the partner has no
 * such transaction) or `error`. The answer (or the error) goes back to the caller unchanged; a failure
 * to record is logged, never allowed to change what the enquiry found.
 */
export async function enquiry<T extends PartnerReport | null>(db: Db, log: FastifyBaseLogger, on: { txnId: string; partner: string }, ask: () => Promise<T>): Promise<T> {
  const note = (status: string, detail: Record<string, unknown>) =>
    record(db, [{ txnId: on.txnId, partner: on.partner, kind: 'enquiry', status, detail }]).catch((err: unknown) => log.error({ err, txn_id: on.txnId }, 'could not record a status enquiry in the partner history'));
  let report: T;
  try {
    report = await ask();
  } catch (err) {
    await note('error', { error: text((err as Error).message) });
    throw err;
  }
  await note(report ? report.outcome.status : 'unknown', report ? { message: text(report.outcome.message), partner_ref: report.partnerRef, reversal: text(report.reversal?.reason) } : { message: 'The partner has no such transaction' });
  return report;
}

/** A transaction's whole history, oldest first: this table, then callbacks it does not show already. */
export async function historyOf(db: Db, txnId: string): Promise<HistoryEntry[]> {
  const events = await db.selectFrom('partner_events').select(['at', 'kind', 'partner', 'status', 'detail']).where('txn_id', '=', txnId).orderBy('at').orderBy('id').execute();
  const shown = new Set(events.filter((e) => e.kind === 'callback').map((e) => e.detail.event_id));
  const callbacks = await db.selectFrom('partner_callbacks').select(['webhook_id', 'status', 'outcome', 'received_at']).where('txn_id', '=', txnId).execute();
  const entries: HistoryEntry[] = events.map((e) => ({ ...e, at: e.at.toISOString(), source: 'partner_events' }));
  for (const c of callbacks.filter((c) => !shown.has(c.webhook_id))) {
    const partner = c.webhook_id.slice(0, c.webhook_id.indexOf(':')) || null;
    entries.push({ at: c.received_at.toISOString(), kind: 'callback', partner, status: c.status, detail: { event_id: c.webhook_id, result: c.outcome }, source: 'partner_callbacks' });
  }
  return entries.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** The label of pendings no partner holds. */
const NO_PARTNER = 'none';

/** Live pendings that have been noted overdue, by partner: the one definition every reader shares. */
export async function overdueByPartner(db: Db): Promise<Map<string, number>> {
  const { rows } = await sql<{ partner: string | null; n: number }>`
    SELECT t.partner, COUNT(*)::int AS n FROM transactions t
    JOIN partner_events e ON e.txn_id = t.id AND e.kind = 'overdue'
    WHERE t.status = 'pending' AND t.environment = 'live'
    GROUP BY t.partner`.execute(db);
  return new Map(rows.map((r) => [r.partner ?? NO_PARTNER, r.n]));
}

export interface OverdueNote {
  txn_id: string;
  partner: string | null;
  operation: string;
  expected_final_s: number;
  age_s: number;
}

/**
 * Notes, once each (a unique index), up to `limit` live pendings older than their partner's expected
 * seconds to a final status (`fallbackS` for a partner not in `expected`), oldest first; answers those
 * noted now.
 */
export async function noteOverdue(db: Db, expected: Array<{ partner: string; seconds: number }>, fallbackS: number, limit: number): Promise<OverdueNote[]> {
  const table = [...expected, { partner: '', seconds: fallbackS }];
  const limits = sql.join(table.map((e) => sql`(${e.partner}::text, ${e.seconds}::int)`));
  const { rows } = await sql<OverdueNote>`
    WITH due AS (
      SELECT t.id, t.partner, t.operation, COALESCE(x.seconds, ${fallbackS}::int) AS expected_final_s,
             FLOOR(EXTRACT(EPOCH FROM now() - t.created_at))::int AS age_s
      FROM transactions t
      LEFT JOIN (VALUES ${limits}) AS x (partner, seconds) ON x.partner = COALESCE(t.partner, '')
      WHERE t.status = 'pending' AND t.environment = 'live'
        AND t.created_at < now() - make_interval(secs => COALESCE(x.seconds, ${fallbackS}::int))
        AND NOT EXISTS (SELECT 1 FROM partner_events e WHERE e.txn_id = t.id AND e.kind = 'overdue')
      ORDER BY t.created_at LIMIT ${limit}
    ), noted AS (
      INSERT INTO partner_events (txn_id, partner, kind, status, detail)
      SELECT id, partner, 'overdue', 'pending', jsonb_build_object('expected_final_s', expected_final_s, 'age_s', age_s) FROM due
      ON CONFLICT (txn_id) WHERE kind = 'overdue' DO NOTHING
      RETURNING txn_id
    )
    SELECT due.id AS txn_id, due.partner, due.operation, due.expected_final_s, due.age_s FROM due JOIN noted ON noted.txn_id = due.id`.execute(db);
  return rows;
}
