// Owns the audit trail's tamper evidence. The trail is several hash chains (shards, audit_heads): each
// row belongs to one chain, at position seq, and hash = SHA-256(prev_hash "\n" digest) links it to the
// row before it in its chain, where the digest covers the row's metadata and a salted commitment to its
// erasable content (hashing.ts has the formulas). The bodies enter the commitment as the JSON text they
// are stored as, parsed and re-serialised canonically, so the hash never depends on how a driver hands
// jsonb back. Erasing content (admin/actions/erasure.ts) leaves the commitment, so the chain still verifies.
// A writer appends its batch to the first chain whose head nobody holds (FOR UPDATE SKIP LOCKED), so
// concurrent writers (batches, admin changes inside their own transactions, several server processes)
// never wait on one another; only when every head is held does a writer wait for one. Signed checkpoints
// (checkpoints.ts) bind all the heads together at moments in time.
// A row edited, removed or reordered breaks its chain at that row, and removing the newest rows leaves
// the chain short of its recorded head (or of a signed checkpoint); `sangam audit verify` reports the
// first broken row. Metadata retention deletes old rows and records, per chain, a checkpoint (the last
// deleted row's seq and hash), from which verification of that chain starts.
import { sql, type Insertable, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import type { Db } from '../db/client.js';
import { readColumns, recordset, type ColumnTypes } from '../db/recordset.js';
import type { AuditLogsTable, DB } from '../db/schema.js';
import { contentCommitment, legacyHash, linkHash, rowDigest } from './hashing.js';
import { dataClassOf, type DataClass } from './retention.js';
import { randomHex } from '../ids.js';

export type AuditRow = Omit<Insertable<AuditLogsTable>, 'prev_hash' | 'hash' | 'chain' | 'seq' | 'data_class' | 'content_salt' | 'content_hash' | 'erased_at'> & {
  /** The operation's declared class; derived from the row when absent (retention.ts). */
  data_class?: DataClass;
};
/** A row's own columns, and their types: what prepareChained made of it. */
const ROW_COLUMNS = {
  request_id: 'text',
  created_at: 'timestamptz',
  account_id: 'text',
  key_id: 'text',
  environment: 'text',
  client_ip: 'text',
  method: 'text',
  path: 'text',
  operation: 'text',
  http_status: 'integer',
  ok: 'boolean',
  statuscode: 'text',
  reference_id: 'text',
  latency_ms: 'double precision',
  request_body: 'jsonb',
  response_body: 'jsonb',
  data_class: 'text',
  content_salt: 'text',
  content_hash: 'text',
  trace_id: 'text',
} satisfies ColumnTypes<'audit_logs'>;
/** The columns a chained row is written with (chainedCtes): its own, then its place in a chain. */
const CHAINED_COLUMNS = [...Object.keys(ROW_COLUMNS), 'prev_hash', 'hash', 'chain', 'seq'];

/** Where a chain starts before any row: chain 0 keeps the single chain's historic genesis. */
export const genesis = (chain: number) => (chain === 0 ? 'genesis' : `genesis:${chain}`);

export const PLAIN_COLUMNS = [
  'id', 'request_id', 'created_at', 'account_id', 'key_id', 'environment', 'client_ip', 'method', 'path', 'operation',
  'http_status', 'ok', 'statuscode', 'reference_id', 'latency_ms', 'prev_hash', 'hash', 'chain', 'seq',
  'data_class', 'content_salt', 'content_hash', 'erased_at',
] as const;
/** The bodies as the JSON text the store holds (never as the driver's parse of jsonb). */
export const BODY_TEXT = [sql<string | null>`request_body::text`.as('request_body'), sql<string | null>`response_body::text`.as('response_body')] as const;

/** A row as verify reads it: the bodies as the JSON text the store holds. */
export type StoredRow = Omit<Selectable<AuditLogsTable>, 'request_body' | 'response_body' | 'trace_id'> & { request_body: string | null; response_body: string | null };

/** What is wrong with a stored row's own hashes given the hash before it, or null when it links. */
export function rowFault(prev: string, row: StoredRow): string | null {
  if (row.content_hash == null) return row.hash === legacyHash(prev, row) ? null : 'hash does not match the row content (the row was edited)';
  if (row.erased_at == null && (row.content_salt == null || contentCommitment(row.content_salt, row) !== row.content_hash)) {
    return 'content does not match its commitment (the content was edited)';
  }
  if (row.hash !== linkHash(prev, rowDigest({ ...row, data_class: row.data_class ?? '', content_hash: row.content_hash }))) {
    return 'hash does not match the row metadata (the row was edited)';
  }
  return null;
}

/** Rows hashed as far as they can be before their place in a chain is known (prepareChained). */
export type PreparedRows = ReadonlyArray<{ row: AuditRow & { data_class: DataClass; content_salt: string; content_hash: string }; digest: string }>;

/**
 * Everything of the rows' hashes that does not depend on the chain position: done before the head is
 * locked, and by the group commit before its transaction opens (operations/recorder.ts), so neither
 * the head nor the embedded store's one connection waits on it.
 */
export function prepareChained(rows: AuditRow[]): PreparedRows {
  return rows.map((r) => {
    const data_class = dataClassOf(r.data_class, r.reference_id);
    const content_salt = randomHex(16);
    const content_hash = contentCommitment(content_salt, r);
    return { row: { ...r, data_class, content_salt, content_hash }, digest: rowDigest({ ...r, data_class, content_hash }) };
  });
}

/**
 * Inserts rows at the end of one chain (the first free one), in order; `alongside`, writes of the
 * caller's, go in the same statement (appendChained).
 */
export function insertChained(trx: Transaction<DB>, rows: AuditRow[], alongside: ReadonlyArray<RawBuilder<unknown>> = []): Promise<void> {
  return appendChained(trx, prepareChained(rows), alongside);
}

/** The chain each open transaction appends to: a transaction that appends twice stays on its chain. */
const held = new WeakMap<Transaction<DB>, number>();

/**
 * Inserts prepared rows at the end of one chain inside `trx`, in order (chainedCtes: one statement), on
 * the chain it already holds if it appended before, else on the first free one. `alongside` (INSERTs or
 * UPDATEs of other tables) run as CTEs of the same statement: one round trip for the transaction's last
 * writes (a batch of live outcomes: its partner history and stored answers with its audit rows).
 */
export async function appendChained(trx: Transaction<DB>, prepared: PreparedRows, alongside: ReadonlyArray<RawBuilder<unknown>> = []): Promise<void> {
  if (prepared.length === 0) {
    for (const write of alongside) await write.execute(trx);
    return;
  }
  const writes = alongside.map((write, i) => sql`${sql.raw(`alongside_${i}`)} AS (${write}), `);
  const r = await sql<{ chain: number }>`WITH ${sql.join(writes, sql``)}${chainedCtes(prepared, undefined, held.get(trx))} SELECT link_chain AS chain FROM audit_links LIMIT 1`.execute(trx);
  held.set(trx, r.rows[0]!.chain);
}

/** Inserts prepared rows at the end of one chain in one statement of its own, with no transaction around it. */
export async function appendAlone(db: Db, prepared: PreparedRows): Promise<void> {
  if (prepared.length > 0) await sql`WITH ${chainedCtes(prepared)} SELECT 1`.execute(db);
}

/**
 * The CTEs (for a statement's WITH list) that append prepared rows to the end of a chain within that
 * one statement, so that a writer with nothing else to write needs no transaction around it. The
 * store's audit_append (migrations 0024, 0025) locks a head, links the rows to it with linkHash's
 * formula and moves it; the rows go in with their links, in order. The head is `mine` (one the
 * statement's transaction holds already), else the lowest one nobody holds (FOR UPDATE SKIP LOCKED),
 * else, with every head held, one picked at random, waited for. It stays locked until the transaction
 * (or the statement, alone) commits. With `keep`, only the rows it holds for go in; it reads a row's
 * `keep` value as `v.keep`. The statement's `audit_links` names each row's chain (link_chain).
 */
export function chainedCtes(rows: ReadonlyArray<PreparedRows[number] & { keep?: string }>, keep: RawBuilder<unknown> = sql`TRUE`, mine?: number): RawBuilder<unknown> {
  const values = rows.map(({ row, digest, keep }) => ({ ...row, digest, keep }));
  return sql`
    audit_rows AS (
      SELECT v.*, (row_number() OVER (ORDER BY v.ordinality))::int AS n
      FROM ${recordset({ ...ROW_COLUMNS, digest: 'text', keep: 'text' }, values)}
      WHERE ${keep}),
    audit_links AS (SELECT * FROM audit_append(ARRAY(SELECT digest FROM audit_rows ORDER BY n), ${mine ?? null}::smallint)),
    audit_inserted AS (
      INSERT INTO audit_logs (${sql.join(CHAINED_COLUMNS.map((c) => sql.id(c)))})
      SELECT ${sql.join(readColumns(ROW_COLUMNS, 'r'))}, l.link_prev, l.link_hash, l.link_chain, l.link_seq
      FROM audit_rows r JOIN audit_links l ON l.link_n = r.n
      ORDER BY r.n)`;
}

/** Where each chain's verification starts: its latest checkpoint, or its genesis. */
export async function chainStarts(db: Db): Promise<Map<number, { seq: number; hash: string; upto_id: number }>> {
  const heads = await db.selectFrom('audit_heads').select('chain').orderBy('chain').execute();
  const cps = await db
    .selectFrom('audit_checkpoints')
    .select(['chain', 'seq', 'hash', 'upto_id'])
    .distinctOn('chain')
    .orderBy('chain')
    .orderBy('id', 'desc')
    .execute();
  const starts = new Map(heads.map((h) => [h.chain, { seq: 0, hash: genesis(h.chain), upto_id: 0 }]));
  for (const c of cps) starts.set(c.chain, { seq: c.seq, hash: c.hash, upto_id: c.upto_id });
  return starts;
}

export interface Broken {
  id: number;
  request_id: string;
  chain: number;
  seq: number;
  reason: string;
}

export interface VerifyResult {
  ok: boolean;
  checked: number;
  chains: number;
  checkpoints: number;
  first_broken?: Broken;
}

/** Expected (seq → hash) of rows in one chain, from signed checkpoints; checked as the walk passes them. */
export type Expectations = Map<number, Map<number, { hash: string; checkpoint_id: number }>>;

/**
 * Walks one chain from its start to its head, in pages, checking links, positions and the hashes signed
 * checkpoints recorded. Returns the rows checked, or the first broken row.
 */
async function verifyOne(
  db: Db,
  chain: number,
  start: { seq: number; hash: string },
  expected: Map<number, { hash: string; checkpoint_id: number }> | undefined,
  onPage: (n: number) => void,
): Promise<{ checked: number; broken?: Broken }> {
  // The head as it is now: the walk must reach it (rows appended meanwhile are walked too), or the
  // newest rows were removed.
  const head = await db.selectFrom('audit_heads').select(['seq', 'hash']).where('chain', '=', chain).executeTakeFirstOrThrow();
  let prev = start.hash;
  let seq = start.seq;
  let checked = 0;
  let last = { id: 0, request_id: '' };
  const at = (row: { id: number; request_id: string }, reason: string): { checked: number; broken: Broken } => ({
    checked,
    broken: { id: row.id, request_id: row.request_id, chain, seq: seq + 1, reason },
  });
  for (;;) {
    const page: StoredRow[] = await db
      .selectFrom('audit_logs')
      .select([...PLAIN_COLUMNS, ...BODY_TEXT])
      .where('chain', '=', chain)
      .where('seq', '>', seq)
      .orderBy('seq')
      .limit(1000)
      .execute();
    if (page.length === 0) {
      const short = head.seq > seq || (expected && [...expected.keys()].some((s) => s > seq));
      if (!short && (head.seq < seq || head.hash === prev)) return { checked };
      const reason = short ? 'the chain ends before its recorded head (the newest rows were removed)' : 'the chain does not end at its recorded head';
      return { checked, broken: { ...last, chain, seq, reason } };
    }
    for (const row of page) {
      if (row.seq !== seq + 1) return at(row, `seq ${row.seq} follows ${seq} (a row was removed or reordered)`);
      if (row.prev_hash !== prev) return at(row, 'prev_hash does not match the previous row (a row was removed or reordered)');
      const fault = rowFault(prev, row);
      if (fault) return at(row, fault);
      const want = expected?.get(row.seq!);
      if (want && want.hash !== row.hash) return at(row, `hash differs from signed checkpoint ${want.checkpoint_id} (the chain was rewritten)`);
      prev = row.hash!;
      seq = row.seq;
      last = { id: row.id, request_id: row.request_id };
      checked++;
    }
    onPage(page.length);
  }
}

/** Walks every chain from its latest checkpoint; with `expected`, also against signed checkpoints. */
export async function verifyChains(db: Db, expected: Expectations = new Map(), onProgress?: (checked: number) => void): Promise<VerifyResult> {
  const starts = await chainStarts(db);
  let checked = 0;
  for (const [chain, start] of starts) {
    let done = 0;
    const r = await verifyOne(db, chain, start, expected.get(chain), (n) => onProgress?.(checked + (done += n)));
    checked += r.checked;
    if (r.broken) return { ok: false, checked, chains: starts.size, checkpoints: 0, first_broken: r.broken };
  }
  return { ok: true, checked, chains: starts.size, checkpoints: 0 };
}

/** Deletes rows created before `before`, chain by chain, recording a checkpoint per chain so the rest still verifies. */
export async function purgeBefore(db: Db, before: Date): Promise<{ deleted: number; checkpoints: Array<{ chain: number; upto_seq: number }> }> {
  return db.transaction().execute(async (trx) => {
    // No head lock: a chain's rows up to the last old one are committed and never change, and a batch
    // appended meanwhile lands after it. Rows are deleted by position, so the kept part stays contiguous.
    const lasts = await trx
      .selectFrom('audit_logs')
      .select(['chain', 'seq', 'id', 'hash'])
      .distinctOn('chain')
      .where('created_at', '<', before)
      .where('seq', 'is not', null)
      .orderBy('chain')
      .orderBy('seq', 'desc')
      .execute();
    let deleted = 0;
    const checkpoints: Array<{ chain: number; upto_seq: number }> = [];
    for (const last of lasts) {
      const res = await trx.deleteFrom('audit_logs').where('chain', '=', last.chain).where('seq', '<=', last.seq).executeTakeFirst();
      deleted += Number(res.numDeletedRows);
      await trx
        .insertInto('audit_checkpoints')
        .values({ chain: last.chain, seq: last.seq!, upto_id: last.id, hash: last.hash!, reason: `retention purge before ${before.toISOString()}` })
        .execute();
      checkpoints.push({ chain: last.chain, upto_seq: last.seq! });
    }
    // Rows from before hashing began (no seq) go too once old enough.
    const legacy = await trx.deleteFrom('audit_logs').where('seq', 'is', null).where('created_at', '<', before).executeTakeFirst();
    deleted += Number(legacy.numDeletedRows);
    return { deleted, checkpoints };
  });
}
