// Owns the audit trail's tamper evidence. One hash chain runs over every audit row in id order:
// hash = SHA-256(prev_hash + canonical JSON of the row's content). Writers lock the chain's head row
// (audit_head) while they append, so ids and the chain advance together even with several server
// processes writing. A row edited or deleted in the store breaks the chain at that row, and removing
// the newest rows leaves the chain short of its recorded head; `sangam audit verify` reports the first
// broken link. Retention purges old rows and records a
// checkpoint (the last purged row's hash), from which verification starts.
import { createHash } from 'node:crypto';
import type { Insertable, Selectable, Transaction } from 'kysely';
import type { Db } from '../db/client.js';
import type { AuditLogsTable, DB } from '../db/schema.js';
import { canonicalJson } from '../canonical.js';

export type AuditRow = Omit<Insertable<AuditLogsTable>, 'prev_hash' | 'hash'>;
const GENESIS = 'genesis';

const parse = (v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as unknown) : (v ?? null));
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());

/** The hashed content of a row: every column but id and the hashes, in a fixed canonical form. */
function content(r: AuditRow | Selectable<AuditLogsTable>): string {
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

export const linkHash = (prev: string, row: AuditRow | Selectable<AuditLogsTable>) =>
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
    const page = await db.selectFrom('audit_logs').selectAll().where('id', '>', after).orderBy('id').limit(1000).execute();
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
