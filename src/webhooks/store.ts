// Owns webhook endpoints and the event outbox. An event is written in the same database transaction as
// the state change it announces, with one delivery row per endpoint that wants it; the worker
// (worker.ts) sends them. Endpoints belong to one account and one environment.
import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Db } from '../db/client.js';
import type { DB, Environment } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { newId } from '../ids.js';
import { newSecret } from './signing.js';

export const EVENT_TYPES = ['transaction.success', 'transaction.failed', 'transaction.reversed', 'consent.withdrawn', 'consent.expired', 'batch.completed'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export type Scope = { accountId: string; environment: Environment };

export type EndpointView = {
  id: string;
  url: string;
  environment: Environment;
  event_types: string[] | null;
  created_at: string;
  disabled_at: string | null;
  disabled_reason: string | null;
};

const view = (r: {
  id: string;
  url: string;
  environment: Environment;
  event_types: string[] | null;
  created_at: Date;
  disabled_at: Date | null;
  disabled_reason: string | null;
}): EndpointView => ({
  id: r.id,
  url: r.url,
  environment: r.environment,
  event_types: r.event_types,
  created_at: r.created_at.toISOString(),
  disabled_at: r.disabled_at?.toISOString() ?? null,
  disabled_reason: r.disabled_reason,
});

const COLUMNS = ['id', 'url', 'environment', 'event_types', 'created_at', 'disabled_at', 'disabled_reason'] as const;

export async function createEndpoint(db: Db, s: Scope, url: string, eventTypes: string[] | null): Promise<EndpointView & { secret: string }> {
  const id = newId('we', 20);
  const secret = newSecret();
  const row = await db
    .insertInto('webhook_endpoints')
    .values({ id, account_id: s.accountId, environment: s.environment, url, secret, event_types: eventTypes ? JSON.stringify(eventTypes) : null })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return { ...view(row), secret };
}

export async function listEndpoints(db: Db, s: Scope): Promise<EndpointView[]> {
  const rows = await db
    .selectFrom('webhook_endpoints')
    .select(COLUMNS)
    .where('account_id', '=', s.accountId)
    .where('environment', '=', s.environment)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .execute();
  return rows.map(view);
}

/** The caller's live endpoint row, or 404 (never 403) for anything else. */
export async function owned(db: Db | Transaction<DB>, s: Scope, id: string) {
  const row = await db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', s.accountId)
    .where('environment', '=', s.environment)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw new ApiError('not_found', `No webhook endpoint ${id}`);
  return row;
}

export async function deleteEndpoint(db: Db, s: Scope, id: string): Promise<void> {
  await owned(db, s, id);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('webhook_endpoints').set({ deleted_at: new Date() }).where('id', '=', id).execute();
    await trx
      .updateTable('webhook_deliveries')
      .set({ status: 'failed', last_error: 'endpoint deleted', next_attempt_at: null, updated_at: new Date() })
      .where('endpoint_id', '=', id)
      .where('status', '=', 'pending')
      .execute();
  });
}

/** New secret; the old one keeps signing (a second signature) for `overlapS` seconds. */
export async function rotateSecret(db: Db, s: Scope, id: string, overlapS: number): Promise<{ id: string; secret: string; previous_secret_until: string }> {
  const row = await owned(db, s, id);
  const secret = newSecret();
  const until = new Date(Date.now() + overlapS * 1000);
  await db.updateTable('webhook_endpoints').set({ secret, previous_secret: row.secret, previous_secret_until: until }).where('id', '=', id).execute();
  return { id, secret, previous_secret_until: until.toISOString() };
}

export interface NewEvent {
  scope: Scope;
  type: EventType;
  /** The transaction it announces; null for an event about something else (a consent). */
  txnId: string | null;
  data: Record<string, unknown>;
}

/**
 * Writes events and their deliveries, in the database transaction that makes the state change, in
 * three statements whatever their number (the subscribed endpoints of every account involved, the
 * events, the deliveries). Answers each event's id, or null when no endpoint wants it.
 */
export async function enqueueEvents(trx: Transaction<DB>, events: NewEvent[]): Promise<Array<string | null>> {
  if (events.length === 0) return [];
  const endpoints = await trx
    .selectFrom('webhook_endpoints')
    .select(['id', 'account_id', 'environment', 'event_types'])
    .where('account_id', 'in', [...new Set(events.map((e) => e.scope.accountId))])
    .where('deleted_at', 'is', null)
    .where('disabled_at', 'is', null)
    .execute();
  return writeEvents(trx, events, endpoints);
}

/** The `transaction.reversed` event of a success undone after the fact (settlement). */
export async function enqueueReversal(
  trx: Transaction<DB>,
  row: { id: string; account_id: string; environment: Environment; operation: string; result: Record<string, unknown> },
): Promise<void> {
  await enqueueEvents(trx, [
    {
      scope: { accountId: row.account_id, environment: row.environment },
      type: 'transaction.reversed',
      txnId: row.id,
      data: { ...row.result, txn_id: (row.result.txn_id as string | undefined) ?? row.id, utr: row.result.utr ?? null, operation: row.operation, environment: row.environment },
    },
  ]);
}

/** An endpoint that receives events: live (not deleted, not disabled). */
export interface Subscriber {
  id: string;
  account_id: string;
  environment: Environment;
  event_types: string[] | null;
}

/**
 * The live endpoints of the account and environment in columns `account` and `environment` of the
 * enclosing query, as a JSON array of Subscribers: lets a statement that changes transactions return
 * who must hear of it, without a round trip of its own.
 */
export const subscribersOf = (account: string, environment: string) => sql<Subscriber[]>`COALESCE((
  SELECT json_agg(json_build_object('id', e.id, 'account_id', e.account_id, 'environment', e.environment, 'event_types', e.event_types))
  FROM webhook_endpoints e
  WHERE e.account_id = ${sql.ref(account)} AND e.environment = ${sql.ref(environment)} AND e.deleted_at IS NULL AND e.disabled_at IS NULL), '[]')`;

/** Writes events and their deliveries to the given subscribers (those of each event's account that want its type). */
export async function writeEvents(trx: Transaction<DB>, events: NewEvent[], endpoints: Subscriber[]): Promise<Array<string | null>> {
  const timestamp = new Date().toISOString();
  const rows = events.map((e) => {
    const wanted = endpoints.filter(
      (ep) => ep.account_id === e.scope.accountId && ep.environment === e.scope.environment && (!ep.event_types || ep.event_types.includes(e.type)),
    );
    return { e, wanted, id: wanted.length > 0 ? newId('msg', 24) : null };
  });
  const written = rows.filter((r) => r.id !== null);
  if (written.length > 0) {
    await trx
      .insertInto('webhook_events')
      .values(
        written.map(({ e, id }) => ({
          id: id!,
          account_id: e.scope.accountId,
          environment: e.scope.environment,
          type: e.type,
          txn_id: e.txnId,
          payload: JSON.stringify({ type: e.type, timestamp, data: e.data }),
        })),
      )
      .execute();
    await trx
      .insertInto('webhook_deliveries')
      .values(written.flatMap(({ wanted, id }) => wanted.map((ep) => ({ event_id: id!, endpoint_id: ep.id, status: 'pending' as const, next_attempt_at: sql<Date>`now()` }))))
      .execute();
  }
  return rows.map((r) => r.id);
}

/**
 * writeEvents() for one event as CTEs of a caller's statement (a live outcome written in one statement:
 * transactions/store.ts settledCtes): the event and its deliveries to the live endpoints of its account
 * that want its type, none when there is no such endpoint, and only when `only` holds.
 */
export function eventCtes(e: NewEvent, only: RawBuilder<unknown>): RawBuilder<unknown> {
  const payload = JSON.stringify({ type: e.type, timestamp: new Date().toISOString(), data: e.data });
  return sql`
    event_endpoints AS (
      SELECT p.id FROM webhook_endpoints p
      WHERE p.account_id = ${e.scope.accountId} AND p.environment = ${e.scope.environment} AND p.deleted_at IS NULL AND p.disabled_at IS NULL
        AND (jsonb_typeof(p.event_types) IS DISTINCT FROM 'array' OR p.event_types ? ${e.type}) AND ${only}),
    event_written AS (
      INSERT INTO webhook_events (id, account_id, environment, type, txn_id, payload)
      SELECT ${newId('msg', 24)}, ${e.scope.accountId}, ${e.scope.environment}, ${e.type}, ${e.txnId}, ${payload}
      WHERE EXISTS (SELECT 1 FROM event_endpoints) RETURNING id),
    event_deliveries AS (
      INSERT INTO webhook_deliveries (event_id, endpoint_id, status, next_attempt_at)
      SELECT w.id, p.id, 'pending', now() FROM event_written w CROSS JOIN event_endpoints p)`;
}

/** Sends an event again (a new delivery), or every event that failed to reach the endpoint since a time. */
export async function replay(db: Db, s: Scope, endpointId: string, what: { eventId?: string; since?: Date }): Promise<number> {
  const endpoint = await owned(db, s, endpointId);
  if (endpoint.disabled_at) {
    await db.updateTable('webhook_endpoints').set({ disabled_at: null, disabled_reason: null, failing_since: null }).where('id', '=', endpointId).execute();
  }
  let events: string[];
  if (what.eventId) {
    const e = await db
      .selectFrom('webhook_events')
      .select('id')
      .where('id', '=', what.eventId)
      .where('account_id', '=', s.accountId)
      .where('environment', '=', s.environment)
      .executeTakeFirst();
    if (!e) throw new ApiError('not_found', `No event ${what.eventId}`);
    events = [e.id];
  } else {
    const rows = await db
      .selectFrom('webhook_deliveries')
      .select('event_id')
      .where('endpoint_id', '=', endpointId)
      .where('status', '=', 'failed')
      .where('created_at', '>=', what.since ?? new Date(0))
      .distinct()
      .execute();
    events = rows.map((r) => r.event_id);
  }
  if (events.length === 0) return 0;
  await db
    .insertInto('webhook_deliveries')
    .values(events.map((event_id) => ({ event_id, endpoint_id: endpointId, status: 'pending' as const, next_attempt_at: sql<Date>`now()` })))
    .execute();
  return events.length;
}

export async function deliveries(db: Db, s: Scope, endpointId: string, limit: number) {
  await owned(db, s, endpointId);
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .select(['d.id', 'd.event_id', 'e.type', 'd.status', 'd.attempts', 'd.next_attempt_at', 'd.last_status', 'd.last_error', 'd.created_at'])
    .where('d.endpoint_id', '=', endpointId)
    .orderBy('d.id', 'desc')
    .limit(limit)
    .execute();
  const attempts = rows.length
    ? await db
        .selectFrom('webhook_attempts')
        .select(['delivery_id', 'attempted_at', 'http_status', 'latency_ms', 'response_excerpt', 'error'])
        .where('delivery_id', 'in', rows.map((r) => r.id))
        .orderBy('id')
        .execute()
    : [];
  return rows.map((r) => ({
    ...r,
    next_attempt_at: r.next_attempt_at?.toISOString() ?? null,
    created_at: r.created_at.toISOString(),
    attempts_log: attempts.filter((a) => a.delivery_id === r.id).map(({ delivery_id: _, attempted_at, ...a }) => ({ ...a, attempted_at: attempted_at.toISOString() })),
  }));
}
