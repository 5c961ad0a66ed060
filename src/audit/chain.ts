// Owns the audit trail's tamper evidence. One hash chain runs over every audit row in id order:
// hash = SHA-256(prev_hash + canonical JSON of the row's content). The bodies enter the hash as the
// JSON text they are stored as, parsed and re-serialised canonically — on write from the text being
// inserted, on verify from the column read back as text — so the hash never depends on how a driver
// hands jsonb back (a body that is itself a JSON string, "x", is as safe as an object). Writers lock the chain's head row
// (audit_head) while they append, so ids and the chain advance together even with several server
// processes writing. A row edited or deleted in the store breaks the chain at that row, and removing
// the newest rows leaves the chain short of its recorded head; `sangam audit verify` reports the first
// broken link. Retention purges old rows and records a
// checkpoint (the last purged row's hash), from which verification starts.
import { createHash } from 'node:crypto';
import { sql, type Insertable, type Selectable, type Transaction } from 'kysely';
import type { Db } from '../db/client.js';
import type { AuditLogsTable, DB } from '../db/schema.js';
import { canonicalJson } from '../canonical.js';

export type AuditRow = Omit<Insertable<AuditLogsTable>, 'prev_hash' | 'hash'>;
const GENESIS = 'genesis';

/** A body as stored: JSON text (or null). */
const parse = (v: string | null | undefined): unknown => (v == null ? null : (JSON.parse(v) as unknown));
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());

const PLAIN_COLUMNS = [
  'id', 'request_id', 'created_at', 'account_id', 'key_id', 'environment', 'client_ip', 'method', 'path', 'operation',
  'http_status', 'ok', 'statuscode', 'reference_id', 'latency_ms', 'prev_hash', 'hash',
] as const;

/** A row as verify reads it: the bodies as the JSON text the store holds. */
type StoredRow = Omit<Selectable<AuditLogsTable>, 'request_body' | 'response_body'> & { request_body: string | null; response_body: string | null };

/** The hashed content of a row: every column but id and the hashes, in a fixed canonical form. */
function content(r: (AuditRow & { request_body?: string | null; response_body?: string | null }) | StoredRow): string {
  return canonicalJson({
    request_id: r.request_id,
    created_at: iso(r.created_at),
    account_id: r.account_id ?? null,
    key_id: r.key_id ?? null,
    environment: r.environment ?? null,
    client_ip: r.client_ip ?? null,
    method: r.method,
    path: r.path,
    operation: r.operation ?? null,
    http_status: r.http_status,
    ok: r.ok,
    statuscode: r.statuscode ?? null,
    reference_id: r.reference_id ?? null,
    latency_ms: r.latency_ms,
    request_body: parse(r.request_body),
    response_body: parse(r.response_body),
  });
}

export const linkHash = (prev: string, row: AuditRow | StoredRow) =>
  createHash('sha256').update(prev).update('\n').update(content(row)).digest('hex');

/** Inserts rows at the end of the chain, in order. */
export async function insertChained(trx: Transaction<DB>, rows: AuditRow[]): Promise<void> {
  if (rows.length === 0) return;
  // Locks the head row; once granted, FOR UPDATE reads its latest committed version, so a batch another
  // writer committed while we waited is seen and the chain never forks.
  let prev = (await lockHead(trx)).hash;
  const values = rows.map((r) => {
    const hash = linkHash(prev, r);
    const v = { ...r, prev_hash: prev, hash };
    prev = hash;
    return v;
  });
  // The batch and the new head in one statement.
  await trx
    .with('inserted', (db) => db.insertInto('audit_logs').values(values))
    .updateTable('audit_head')
    .set({ hash: prev })
    .execute();
}

const lockHead = (trx: Transaction<DB>) => trx.selectFrom('audit_head').select('hash').forUpdate().executeTakeFirstOrThrow();

async function latestCheckpoint(db: Db | Transaction<DB>): Promise<{ upto_id: number; hash: string }> {
  return (
    (await db.selectFrom('audit_checkpoints').select(['upto_id', 'hash']).orderBy('id', 'desc').limit(1).executeTakeFirst()) ?? { upto_id: 0, hash: GENESIS }
  );
}

export interface VerifyResult {
  ok: boolean;
  checked: number;
  from_id: number;
  first_broken?: { id: number; request_id: string; reason: string };
}

/** Walks the chain from the latest checkpoint, in pages, with constant memory. */
export async function verifyChain(db: Db, onProgress?: (checked: number) => void): Promise<VerifyResult> {
  // The head as it is now: the walk must reach it (rows appended meanwhile are walked too), or the
  // newest rows were removed.
  const head = (await db.selectFrom('audit_head').select('hash').executeTakeFirstOrThrow()).hash;
  const start = await latestCheckpoint(db);
  let prev = start.hash;
  let after = start.upto_id;
  let checked = 0;
  let reachedHead = head === start.hash;
  let last: { id: number; request_id: string } = { id: start.upto_id, request_id: '' };
  for (;;) {
    const page: StoredRow[] = await db
      .selectFrom('audit_logs')
      .select([...PLAIN_COLUMNS, sql<string | null>`request_body::text`.as('request_body'), sql<string | null>`response_body::text`.as('response_body')])
      .where('id', '>', after)
      .orderBy('id')
      .limit(1000)
      .execute();
    if (page.length === 0) {
      if (reachedHead) return { ok: true, checked, from_id: start.upto_id };
      return { ok: false, checked, from_id: start.upto_id, first_broken: { ...last, reason: 'the chain ends before its recorded head (the newest rows were removed)' } };
    }
    for (const row of page) {
      if (row.prev_hash !== prev) {
        return { ok: false, checked, from_id: start.upto_id, first_broken: { id: row.id, request_id: row.request_id, reason: 'prev_hash does not match the previous row (a row was removed or reordered)' } };
      }
      if (row.hash !== linkHash(prev, row)) {
        return { ok: false, checked, from_id: start.upto_id, first_broken: { id: row.id, request_id: row.request_id, reason: 'hash does not match the row content (the row was edited)' } };
      }
      prev = row.hash!;
      reachedHead ||= prev === head;
      last = { id: row.id, request_id: row.request_id };
      checked++;
    }
    after = page.at(-1)!.id;
    onProgress?.(checked);
  }
}

/** Deletes rows created before `before` and records a checkpoint so the rest still verifies. */
export async function purgeBefore(db: Db, before: Date): Promise<{ deleted: number; checkpoint_upto_id: number | null }> {
  return db.transaction().execute(async (trx) => {
    await lockHead(trx); // no batch is appended while the purge picks its checkpoint
    const last = await trx
      .selectFrom('audit_logs')
      .select(['id', 'hash'])
      .where('created_at', '<', before)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!last?.hash) return { deleted: 0, checkpoint_upto_id: null };
    const res = await trx.deleteFrom('audit_logs').where('id', '<=', last.id).executeTakeFirst();
    await trx.insertInto('audit_checkpoints').values({ upto_id: last.id, hash: last.hash, reason: `retention purge before ${before.toISOString()}` }).execute();
    return { deleted: Number(res.numDeletedRows), checkpoint_upto_id: last.id };
  });
}
