// Owns reading the audit trail for one account: filtered search with keyset cursor pagination
// (created_at, id — newest first; the (account_id, created_at, id) index serves it), one row by
// request id, and a page-by-page iterator that export streams with constant memory.
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../db/client.js';
import type { DB, Environment } from '../db/schema.js';
import { ApiError } from '../errors.js';

export interface AuditFilters {
  from?: string;
  to?: string;
  operation?: string;
  environment?: Environment;
  http_status?: number;
  ok?: boolean;
  reference_id?: string;
  key_id?: string;
  request_id?: string;
  q?: string;
}

export interface AuditItem {
  id: number;
  request_id: string;
  created_at: string;
  operation: string | null;
  environment: Environment | null;
  method: string;
  path: string;
  http_status: number;
  ok: boolean;
  statuscode: string | null;
  reference_id: string | null;
  latency_ms: number;
  key_id: string | null;
  client_ip: string | null;
  message: string | null;
}

export function encodeCursor(item: { created_at: string; id: number }): string {
  return Buffer.from(JSON.stringify([item.created_at, item.id])).toString('base64url');
}

export function decodeCursor(cursor: string): { at: Date; id: number } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, number];
    const d = new Date(at);
    if (Number.isNaN(d.getTime()) || !Number.isSafeInteger(id)) throw new Error('bad');
    return { at: d, id };
  } catch {
    throw ApiError.validation([{ field: 'cursor', message: 'cursor is not valid: use next_cursor from a previous page' }]);
  }
}

const like = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function filtered(db: Db, accountId: string, f: AuditFilters) {
  let q = db.selectFrom('audit_logs').where('account_id', '=', accountId);
  if (f.from) q = q.where('created_at', '>=', new Date(f.from));
  if (f.to) q = q.where('created_at', '<', new Date(f.to));
  if (f.operation) q = q.where('operation', '=', f.operation);
  if (f.environment) q = q.where('environment', '=', f.environment);
  if (f.http_status !== undefined) q = q.where('http_status', '=', f.http_status);
  if (f.ok !== undefined) q = q.where('ok', '=', f.ok);
  if (f.reference_id) q = q.where('reference_id', '=', f.reference_id);
  if (f.key_id) q = q.where('key_id', '=', f.key_id);
  if (f.request_id) q = q.where('request_id', '=', f.request_id);
  if (f.q) q = q.where(sql<string>`response_body->>'message'`, 'ilike', like(f.q));
  return q;
}

const ITEM = (eb: ExpressionBuilder<DB, 'audit_logs'>) =>
  [
    'id',
    'request_id',
    'created_at',
    'operation',
    'environment',
    'method',
    'path',
    'http_status',
    'ok',
    'statuscode',
    'reference_id',
    'latency_ms',
    'key_id',
    'client_ip',
    eb.ref('response_body', '->>').key('message').as('message'),
  ] as const;

function page(q: SelectQueryBuilder<DB, 'audit_logs', object>, after: { at: Date; id: number } | null, limit: number) {
  let p = q.select(ITEM);
  if (after) p = p.where((eb) => eb.or([eb('created_at', '<', after.at), eb.and([eb('created_at', '=', after.at), eb('id', '<', after.id)])]));
  return p.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit);
}

const toItem = (r: Omit<AuditItem, 'created_at'> & { created_at: Date }): AuditItem => ({ ...r, created_at: r.created_at.toISOString() });

export async function searchAudit(db: Db, accountId: string, f: AuditFilters, limit: number, cursor?: string): Promise<{ items: AuditItem[]; next_cursor: string | null }> {
  const rows = (await page(filtered(db, accountId, f), cursor ? decodeCursor(cursor) : null, limit + 1).execute()) as Array<Omit<AuditItem, 'created_at'> & { created_at: Date }>;
  const items = rows.slice(0, limit).map(toItem);
  return { items, next_cursor: rows.length > limit ? encodeCursor(items.at(-1)!) : null };
}

/**
 * Every matching row, newest first, fetched a page at a time. Between pages it yields to the event
 * loop, so on the embedded store (one connection, queries on this thread) other requests run between
 * an export's pages instead of queueing behind the whole export.
 */
export async function* iterateAudit(db: Db, accountId: string, f: AuditFilters, pageSize = 500): AsyncGenerator<AuditItem> {
  let after: { at: Date; id: number } | null = null;
  for (;;) {
    if (after) await new Promise((resolve) => setImmediate(resolve));
    const rows = (await page(filtered(db, accountId, f), after, pageSize).execute()) as Array<Omit<AuditItem, 'created_at'> & { created_at: Date }>;
    for (const r of rows) yield toItem(r);
    if (rows.length < pageSize) return;
    const last = rows.at(-1)!;
    after = { at: last.created_at, id: last.id };
  }
}

/** One row of the account's; with `environment`, only a row of that environment (others are 404). */
export async function auditRow(db: Db, accountId: string, requestId: string, environment?: Environment) {
  let q = db.selectFrom('audit_logs').selectAll().where('account_id', '=', accountId).where('request_id', '=', requestId);
  if (environment) q = q.where('environment', '=', environment);
  const row = await q.executeTakeFirst();
  if (!row) throw new ApiError('not_found', `No audit log with request_id ${requestId}`);
  return { ...row, created_at: row.created_at.toISOString(), erased_at: row.erased_at ? row.erased_at.toISOString() : null };
}
