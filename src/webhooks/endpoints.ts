// Owns the webhook endpoint changes that the API (routes/api/v1/webhook-endpoints/) and the console both make beyond the store's
// rows: registering an endpoint behind the SSRF guard, sending one endpoint a test event, and each
// endpoint's delivery status (the console's list).
import { sql } from 'kysely';
import type { Db } from '../db/client.js';
import { ApiError } from '../errors.js';
import { newId } from '../ids.js';
import { refuseUrl } from './ssrf.js';
import { createEndpoint, listEndpoints, owned, type EndpointView, type Scope } from './store.js';

/** The type of a test event: nobody subscribes to it; it goes to the one endpoint it tests. */
export const TEST_EVENT = 'webhook.test';

/**
 * Registers an endpoint; its secret is in the answer, once. `allowPrivate`: SANGAM_WEBHOOK_ALLOW_PRIVATE.
 * Errors: validation (field `url`: not http(s), https in live, or an address the guard refuses).
 */
export async function registerEndpoint(db: Db, s: Scope, input: { url: string; eventTypes: string[] | null }, allowPrivate: boolean) {
  const why = await refuseUrl(input.url, { live: s.environment === 'live', allowPrivate });
  if (why) throw ApiError.validation([{ field: 'url', message: why }]);
  return createEndpoint(db, s, input.url, input.eventTypes);
}

/** Queues a `webhook.test` event to this endpoint alone, signed and retried like any other. Errors: not_found. */
export async function sendTestEvent(db: Db, s: Scope, endpointId: string): Promise<{ event_id: string }> {
  await owned(db, s, endpointId);
  const id = newId('msg', 24);
  const payload = { type: TEST_EVENT, timestamp: new Date().toISOString(), data: { endpoint_id: endpointId, environment: s.environment, test: true } };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('webhook_events').values({ id, account_id: s.accountId, environment: s.environment, type: TEST_EVENT, txn_id: null, payload: JSON.stringify(payload) }).execute();
    await trx.insertInto('webhook_deliveries').values({ event_id: id, endpoint_id: endpointId, status: 'pending', next_attempt_at: sql<Date>`now()` }).execute();
  });
  return { event_id: id };
}

export interface DeliveryStatus {
  /** Deliveries of the last 24 hours by status. */
  last_day: { delivered: number; failed: number; pending: number };
  /** The newest delivery's status and when it last changed; null before the first. */
  last: { status: string; http_status: number | null; at: string } | null;
}

/** The scope's endpoints, each with its delivery status. */
export async function endpointsWithStatus(db: Db, s: Scope): Promise<Array<EndpointView & { deliveries: DeliveryStatus }>> {
  const endpoints = await listEndpoints(db, s);
  if (endpoints.length === 0) return [];
  const ids = endpoints.map((e) => e.id);
  // The day's counts and the newest delivery from one snapshot, so that they never disagree (a delivery
  // that finished between two separate reads would show as the last one and be missing from the counts).
  const { counts, last } = await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => ({
      counts: await trx
        .selectFrom('webhook_deliveries')
        .select(['endpoint_id', 'status', sql<number>`count(*)::int`.as('n')])
        .where('endpoint_id', 'in', ids)
        .where('created_at', '>', sql<Date>`now() - interval '24 hours'`)
        .groupBy(['endpoint_id', 'status'])
        .execute(),
      last: await sql<{ endpoint_id: string; status: string; last_status: number | null; updated_at: Date }>`
        SELECT DISTINCT ON (endpoint_id) endpoint_id, status, last_status, updated_at FROM webhook_deliveries
        WHERE endpoint_id IN (${sql.join(ids)}) ORDER BY endpoint_id, id DESC`.execute(trx),
    }));
  return endpoints.map((e) => {
    const n = (status: string) => counts.find((c) => c.endpoint_id === e.id && c.status === status)?.n ?? 0;
    const l = last.rows.find((r) => r.endpoint_id === e.id);
    const deliveries = {
      last_day: { delivered: n('delivered'), failed: n('failed'), pending: n('pending') },
      last: l ? { status: l.status, http_status: l.last_status, at: l.updated_at.toISOString() } : null,
    };
    return { ...e, deliveries };
  });
}
