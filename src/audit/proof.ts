// Owns the verifiable audit export: one account's rows in one environment, with what it takes to prove
// them offline with nothing but Sangam's public key (verify-export.ts checks it; docs/AUDIT-EXPORT.md
// specifies it). NDJSON, one object a line:
// - header: account, environment, filters, the moment, the signing key's id;
// - checkpoint: a signed checkpoint (every chain head, Merkle root, Ed25519 signature);
// - row: one of the account's rows, with its chain position, hashes, data class, content commitment,
//   and its content and salt unless erased;
// - link: another row of the same chain, as its digest only (who and what stay hidden), needed to
//   carry the account's rows forward to the head a checkpoint signed;
// - end: counts, SHA-256 over every line before it, and a signature over both: a line dropped, added
//   or changed anywhere fails.
// Each of the account's rows is carried by a run: from the row, through every later row of its chain,
// up to the first signed checkpoint that recorded a head at or past it. Runs are short (one checkpoint
// period of one chain). The export first signs a checkpoint over the heads as they are, so every row
// written before it is covered; rows written while it streams are left to the next export.
// It proves that each exported row is in the trail Sangam signed, unchanged. It cannot prove that no
// row of the account is missing (other accounts' rows are opaque); docs/AUDIT-EXPORT.md says so.
import { createHash, sign } from 'node:crypto';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { Db } from '../db/client.js';
import type { Environment } from '../db/schema.js';
import { canonicalJson } from '../canonical.js';
import { BODY_TEXT, PLAIN_COLUMNS, type StoredRow } from './chain.js';
import { loadSigningKey, writeCheckpoint, type SigningKey } from './checkpoints.js';
import { parseBody, rowDigest, type Heads } from './hashing.js';
import { filtered, type AuditFilters } from './search.js';

export const EXPORT_TYPE = 'sangam-audit-export';
const PAGE = 500;

interface Checkpoint {
  id: number;
  created_at: string;
  heads: Heads;
  merkle_root: string;
  key_id: string;
  signature: string;
}

/** What the end line's signature covers. */
export const endMessage = (e: { sha256: string; rows: number; links: number; checkpoints: number; unprovable: number }) =>
  Buffer.from(canonicalJson({ type: `${EXPORT_TYPE}-end`, sha256: e.sha256, rows: e.rows, links: e.links, checkpoints: e.checkpoints, unprovable: e.unprovable }));

const metadataOf = (r: StoredRow) => ({
  request_id: r.request_id,
  created_at: r.created_at.toISOString(),
  account_id: r.account_id,
  key_id: r.key_id,
  environment: r.environment,
  method: r.method,
  path: r.path,
  operation: r.operation,
  http_status: r.http_status,
  ok: r.ok,
  statuscode: r.statuscode,
  reference_id: r.reference_id,
  latency_ms: r.latency_ms,
});

const rowLine = (r: StoredRow) => ({
  type: 'row',
  chain: r.chain,
  seq: Number(r.seq),
  prev_hash: r.prev_hash,
  hash: r.hash,
  ...metadataOf(r),
  data_class: r.data_class,
  content_hash: r.content_hash,
  erased_at: r.erased_at ? r.erased_at.toISOString() : null,
  content: r.erased_at
    ? null
    : { salt: r.content_salt, client_ip: r.client_ip, request_body: parseBody(r.request_body), response_body: parseBody(r.response_body) },
});

const linkLine = (r: StoredRow) => ({
  type: 'link',
  chain: r.chain,
  seq: Number(r.seq),
  digest: rowDigest({ ...r, data_class: r.data_class ?? '', content_hash: r.content_hash ?? '' }),
});

/**
 * A checkpoint signed with `keyId` whose head of `chain` is at or past `seq`: the earliest created from a
 * minute before the row on (index audit_signed_checkpoints_created; the minute is slack for clocks of
 * several processes), else `fallback` (the export's own snapshot, which covers every row before it).
 */
async function coverOf(db: Db, keyId: string, chain: number, seq: number, notBefore: Date, fallback: Checkpoint): Promise<Checkpoint> {
  const c = await db
    .selectFrom('audit_signed_checkpoints')
    .select(['id', 'created_at', sql<string>`heads::text`.as('heads'), 'merkle_root', 'key_id', 'signature'])
    .where('key_id', '=', keyId)
    .where('created_at', '>=', new Date(notBefore.getTime() - 60_000))
    .where(sql<number>`(heads -> ${String(chain)} ->> 'seq')::bigint`, '>=', seq)
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  return c ? { ...c, created_at: new Date(c.created_at).toISOString(), heads: JSON.parse(c.heads) as Heads } : fallback;
}

/** One export under way: its scope, the digest over every line so far, and what it has sent. */
class ExportLines {
  readonly counts = { rows: 0, links: 0, checkpoints: 0 };
  private digest = createHash('sha256');
  private sentCheckpoints = new Set<number>();

  constructor(
    readonly db: Db,
    readonly keyId: string,
    readonly accountId: string,
    readonly filters: AuditFilters,
  ) {}

  /** A line, counted into the digest the end line signs. */
  emit(o: object): string {
    const line = `${JSON.stringify(o)}\n`;
    this.digest.update(line);
    return line;
  }

  /** The checkpoint's line, the first time a run needs it. */
  *checkpoint(c: Checkpoint): Generator<string> {
    if (this.sentCheckpoints.has(c.id)) return;
    this.sentCheckpoints.add(c.id);
    this.counts.checkpoints++;
    yield this.emit({ type: 'checkpoint', ...c });
  }

  sha256(): string {
    return this.digest.digest('hex');
  }
}

/** The export as NDJSON lines (see the module header). */
async function* lines(db: Db, key: SigningKey, accountId: string, environment: Environment, filters: AuditFilters): AsyncGenerator<string> {
  const f: AuditFilters = { ...filters, environment };
  // Sign the heads as they are now, so every row written so far has a checkpoint that covers it.
  const signed = await writeCheckpoint(db, key, 'verifiable export');
  const snapshot: Checkpoint = { ...signed, created_at: signed.created_at.toISOString() };
  const out = new ExportLines(db, key.keyId, accountId, f);
  yield out.emit({ type: EXPORT_TYPE, version: 1, account_id: accountId, environment, filters: f, generated_at: new Date().toISOString(), key_id: key.keyId, checkpoint_id: snapshot.id });
  const { unprovable } = await filtered(db, accountId, f)
    .where('content_hash', 'is', null)
    .select((eb) => eb.fn.countAll<string>().as('unprovable'))
    .executeTakeFirstOrThrow();
  yield* runs(out, snapshot);
  const end = { ...out.counts, unprovable: Number(unprovable), sha256: out.sha256() };
  yield `${JSON.stringify({ type: 'end', ...end, key_id: key.keyId, signature: sign(null, endMessage(end), key.privateKey).toString('base64') })}\n`;
}

/** The account's rows chain by chain, in order; each not yet sent starts a run up to its cover. */
async function* runs(out: ExportLines, snapshot: Checkpoint): AsyncGenerator<string> {
  let carried = { chain: -1, upTo: 0 }; // the last run: rows of `chain` up to `upTo` are sent
  for await (const mine of provableRows(out)) {
    const seq = Number(mine.seq);
    if (mine.chain === carried.chain && seq <= carried.upTo) continue; // sent in the last run
    const snapshotHead = snapshot.heads[String(mine.chain)]?.seq ?? 0;
    if (seq > snapshotHead) continue; // written after the export began: the next export has it
    const cover = await coverOf(out.db, out.keyId, mine.chain, seq, mine.created_at, snapshot);
    yield* out.checkpoint(cover);
    const upTo = cover.heads[String(mine.chain)]!.seq;
    yield* run(out, mine.chain, seq, upTo, mine.id);
    carried = { chain: mine.chain, upTo };
  }
}

/** The account's matching rows that have a content commitment, by (chain, seq), a page at a time. */
async function* provableRows(out: ExportLines) {
  let at = { chain: -1, seq: 0 };
  for (;;) {
    const page = await filtered(out.db, out.accountId, out.filters)
      .where('content_hash', 'is not', null)
      // A row comparison, so the (account_id, chain, seq) index serves each page as a range.
      .where((eb) => eb(eb.refTuple('chain', 'seq'), '>', eb.tuple(at.chain, at.seq)))
      .select(['id', 'chain', 'seq', 'created_at'])
      .orderBy('chain')
      .orderBy('seq')
      .limit(PAGE)
      .execute();
    yield* page;
    if (page.length < PAGE) return;
    const last = page.at(-1)!;
    at = { chain: last.chain, seq: Number(last.seq) };
    await new Promise((resolve) => setImmediate(resolve)); // let other requests in between pages (embedded store)
  }
}

/**
 * Every row of `chain` from `from` to `upTo`: the account's matching rows whole, the others as links.
 * The first is the row that starts the run (`first`), whole even if it stopped matching meanwhile (an
 * erasure emptied the message a `q` filter matched): a run must start with a row.
 */
async function* run(out: ExportLines, chain: number, from: number, upTo: number, first: number): AsyncGenerator<string> {
  let seq = from - 1;
  while (seq < upTo) {
    const rows = (await out.db
      .selectFrom('audit_logs')
      .select([...PLAIN_COLUMNS, ...BODY_TEXT])
      .where('chain', '=', chain)
      .where('seq', '>', seq)
      .where('seq', '<=', upTo)
      .orderBy('seq')
      .limit(PAGE)
      .execute()) as StoredRow[];
    if (rows.length === 0) return; // rows missing: the verifier will say the run does not reach its checkpoint
    const ids = rows.map((r) => r.id);
    const mine = new Set([first, ...(await filtered(out.db, out.accountId, out.filters).where('id', 'in', ids).select('id').execute()).map((r) => r.id)]);
    for (const r of rows) {
      if (mine.has(r.id)) out.counts.rows++;
      else out.counts.links++;
      yield out.emit(mine.has(r.id) ? rowLine(r) : linkLine(r));
    }
    seq = Number(rows.at(-1)!.seq);
  }
}

/** The verifiable export of one account's rows in one environment, streamed. */
export function verifiableExport(db: Db, configuredKey: string | undefined, accountId: string, environment: Environment, filters: AuditFilters): Readable {
  return Readable.from(
    (async function* () {
      yield* lines(db, await loadSigningKey(db, configuredKey), accountId, environment, filters);
    })(),
  );
}
