// The audit trail as several hash chains with no global lock: a writer holding an open batch never
// makes another connection's writes wait, and with every head held elsewhere writes wait for one rather
// than go in unchained; four concurrent writers leave chains that verify, and an edited, removed or
// reordered row in any chain is named; signed checkpoints catch a chain rewritten
// and re-hashed; a database migrated from the single-chain schema still verifies.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { eventually, freshStoreLocation, PATHS, VALID } from './harness.js';
import { auditRow, onFreshApp } from './audit-fixtures.js';
import { insertChained, type AuditRow } from '../src/audit/chain.js';
import { legacyHash, linkHash, rowDigest } from '../src/audit/hashing.js';
import { verifyAudit } from '../src/audit/checkpoints.js';
import { AuditWriter } from '../src/audit/writer.js';
import { openStore, type Db } from '../src/db/client.js';
import { listMigrations, migrate } from '../src/db/migrate.js';
import { runCommand } from '../src/admin/run.js';

const postgres = !!process.env.DATABASE_URL;
let n = 0;
const row = (tag: string): AuditRow => auditRow({ request_id: `req_${tag}_${++n}_${process.pid}`, reference_id: tag, request_body: JSON.stringify({ n }) });

/** Rejects when `p` takes longer than `ms`: the write waited on someone else's lock. */
const within = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} waited more than ${ms} ms`)), ms).unref())]);

/** Opens a transaction that appends a batch and stays open until release() is called. */
async function openBatch(db: Db) {
  let release!: () => void;
  let appended!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const ready = new Promise<void>((r) => (appended = r));
  const done = db.transaction().execute(async (trx) => {
    await insertChained(trx, [row('held'), row('held')]);
    appended();
    await held;
  });
  await ready;
  return { release, done };
}

/**
 * A separate Node process that group-commits `count` audit rows through AuditWriter, then exits. With
 * `hold`, it first appends a batch of 5 rows in a transaction it keeps open until release() (it says
 * "holding" once it has its chain head), so several such processes hold heads at the same moment.
 */
function writerProcess(databaseUrl: string, tag: string, count: number, hold = false) {
  const mod = (p: string) => JSON.stringify(pathToFileURL(path.resolve(p)).href);
  const code = `
    import { openStore } from ${mod('dist/src/db/client.js')};
    import { AuditWriter } from ${mod('dist/src/audit/writer.js')};
    import { insertChained } from ${mod('dist/src/audit/chain.js')};
    const store = await openStore({ databaseUrl: process.env.DB, poolMax: 4 });
    const row = (n) => ({ request_id: 'req_' + process.env.TAG + '_' + n + '_' + process.pid, created_at: new Date(), account_id: null, key_id: null,
      environment: 'sandbox', client_ip: '127.0.0.1', method: 'POST', path: '/api/v1/test', operation: null, http_status: 200, ok: true,
      statuscode: 'TXN', reference_id: process.env.TAG, latency_ms: 1, request_body: JSON.stringify({ n }), response_body: '{}' });
    if (process.env.HOLD === '1') {
      const go = new Promise((resolve) => process.stdin.once('data', resolve));
      await store.db.transaction().execute(async (trx) => {
        await insertChained(trx, Array.from({ length: 5 }, (_, n) => row('held' + n)));
        process.stdout.write('holding\\n');
        await go;
      });
    }
    const writer = new AuditWriter(store.db);
    await Promise.all(Array.from({ length: Number(process.env.COUNT) }, (_, n) => writer.write(row(n))));
    await store.close();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
    env: { ...process.env, DB: databaseUrl, TAG: tag, COUNT: String(count), HOLD: hold ? '1' : '0' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d));
  const holding = new Promise<void>((resolve) => child.stdout.on('data', (d: Buffer) => d.toString().includes('holding') && resolve()));
  const done = new Promise<void>((resolve, reject) => child.on('exit', (c) => (c === 0 ? resolve() : reject(new Error(`writer ${tag} exited ${c}: ${err}`)))));
  return { holding, release: () => child.stdin.end('go\n'), done, kill: () => child.kill() };
}

const stored = (db: Db, chain: number, seq: number) =>
  db.selectFrom('audit_logs').selectAll().where('chain', '=', chain).where('seq', '=', seq).executeTakeFirstOrThrow();

describe('audit chains without a global lock', () => {
  it('lets other connections and another process write while one writer holds an open batch transaction', { skip: !postgres && 'needs separate connections (PostgreSQL)' }, async () => {
    await onFreshApp(async (db, writer, t) => {
      const batch = await openBatch(db);
      // A group-committed API row and an admin change's row (inside its own transaction), both on other connections.
      await within(writer.write(row('api')), 2000, 'a group-committed audit row');
      await within(db.transaction().execute((trx) => insertChained(trx, [row('admin')])), 2000, 'an admin audit row');
      // And another process's, as another server process writes: it must not wait either.
      await within(writerProcess(t.config.databaseUrl!, 'other-process', 20).done, 10_000, 'another process\'s audit rows');
      const waiting = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(db);
      assert.equal(waiting.rows[0]!.n, 0);
      batch.release();
      await batch.done;
      const chains = await db.selectFrom('audit_logs').select('chain').where('reference_id', 'in', ['held', 'api', 'admin', 'other-process']).distinct().execute();
      assert.ok(chains.length >= 2, 'the held batch and the others are on different chains');
      const v = await verifyAudit(db);
      assert.equal(v.ok, true, JSON.stringify(v));
    });
  });

  it('every chain head held elsewhere: a group-committed row, a sandbox call and a transaction\'s append wait for one, then go in and verify', { skip: !postgres && 'needs separate connections (PostgreSQL)' }, async () => {
    await onFreshApp(async (db, writer, t) => {
      // Each append is one statement that takes a free head; with none free it waits for one, and
      // nothing goes in without its audit row.
      let release!: () => void;
      let holding!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const ready = new Promise<void>((r) => (holding = r));
      const holder = db.transaction().execute(async (trx) => {
        await trx.selectFrom('audit_heads').select('chain').forUpdate().execute();
        holding();
        await held;
      });
      await ready;
      const body = VALID.upi();
      const written = writer.write(row('waited'));
      const answered = t.call('POST', PATHS.upi, { body });
      const admin = db.transaction().execute((trx) => insertChained(trx, [row('waited-in-transaction')]));
      try {
        await eventually(async () => {
          const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(db);
          return r.rows[0]!.n >= 3;
        });
      } finally {
        release();
        await holder;
      }
      await written;
      await admin;
      assert.equal((await answered).status, 200);
      const rows = await db.selectFrom('audit_logs').select('request_id').where('reference_id', 'in', ['waited', 'waited-in-transaction', body.reference_id]).execute();
      assert.equal(rows.length, 3);
      const v = await verifyAudit(db);
      assert.equal(v.ok, true, JSON.stringify(v));
    });
  });

  it('four concurrent writers in separate processes: verify passes, and catches a row edited, removed or reordered in any chain', async () => {
    await onFreshApp(async (db, _writer, t) => {
      if (postgres) {
        // Four writer processes, as four server processes are, each holding an open batch at the same
        // moment (and one held here too): none may wait for another to get its chain head.
        const batch = await openBatch(db);
        const writers = [0, 1, 2, 3].map((i) => writerProcess(t.config.databaseUrl!, `w${i}`, 60, true));
        try {
          await within(Promise.all(writers.map((w) => w.holding)), 20_000, 'four processes holding open batches');
          writers.forEach((w) => w.release());
          await within(Promise.all(writers.map((w) => w.done)), 20_000, 'the writer processes');
        } finally {
          writers.forEach((w) => w.kill());
        }
        batch.release();
        await batch.done;
      } else {
        // One embedded store has one owner: four writers in this process.
        const writers = [0, 1, 2, 3].map(() => new AuditWriter(db));
        await Promise.all(writers.map((w, i) => Promise.all(Array.from({ length: 60 }, () => w.write(row(`w${i}`))))));
      }

      const ok = await verifyAudit(db);
      assert.equal(ok.ok, true, JSON.stringify(ok));
      assert.ok(ok.checked >= 240, String(ok.checked));
      const used = await db
        .selectFrom('audit_logs')
        .select(['chain', sql<number>`max(seq)::int`.as('top')])
        .where('seq', 'is not', null)
        .groupBy('chain')
        .having(sql`count(*)`, '>=', 4)
        .orderBy('chain')
        .execute();
      if (postgres) assert.ok(used.length >= 4, `the four held batches are on four chains: ${JSON.stringify(used)}`);
      const pick = (i: number) => used[i % used.length]!;

      // Edited, in one chain.
      const e = pick(0);
      const edited = await stored(db, e.chain, 2);
      await db.updateTable('audit_logs').set({ http_status: 299 }).where('id', '=', edited.id).execute();
      let v = await verifyAudit(db);
      assert.equal(v.ok, false);
      assert.deepEqual([v.first_broken!.chain, v.first_broken!.id], [e.chain, edited.id]);
      assert.match(v.first_broken!.reason, /edited/);
      await db.updateTable('audit_logs').set({ http_status: 200 }).where('id', '=', edited.id).execute();

      // Removed, in another.
      const r = pick(1);
      const removed = await stored(db, r.chain, 2);
      const next = await stored(db, r.chain, 3);
      await db.deleteFrom('audit_logs').where('id', '=', removed.id).execute();
      v = await verifyAudit(db);
      assert.equal(v.ok, false);
      assert.deepEqual([v.first_broken!.chain, v.first_broken!.id], [r.chain, next.id]);
      assert.match(v.first_broken!.reason, /removed/);
      await db.insertInto('audit_logs').values({ ...removed, request_body: JSON.stringify(removed.request_body), response_body: JSON.stringify(removed.response_body) }).execute();
      assert.equal((await verifyAudit(db)).ok, true);

      // Reordered (two rows swap places), in a third.
      const o = pick(2);
      const a = await stored(db, o.chain, 2);
      const b = await stored(db, o.chain, 3);
      const setSeq = (id: number, seq: number) => db.updateTable('audit_logs').set({ seq }).where('id', '=', id).execute();
      await setSeq(a.id, -1);
      await setSeq(b.id, 2);
      await setSeq(a.id, 3);
      v = await verifyAudit(db);
      assert.equal(v.ok, false);
      assert.deepEqual([v.first_broken!.chain, v.first_broken!.id], [o.chain, b.id]);
      assert.match(v.first_broken!.reason, /reordered/);
      await setSeq(a.id, -1);
      await setSeq(b.id, 3);
      await setSeq(a.id, 2);

      // The newest row of a chain removed: the chain is short of its head.
      const l = pick(3);
      const newest = await stored(db, l.chain, l.top);
      const before = await stored(db, l.chain, l.top - 1);
      await db.deleteFrom('audit_logs').where('id', '=', newest.id).execute();
      v = await verifyAudit(db);
      assert.deepEqual([v.ok, v.first_broken!.chain, v.first_broken!.id], [false, l.chain, before.id]);
      assert.match(v.first_broken!.reason, /newest rows were removed/);
      await db.insertInto('audit_logs').values({ ...newest, request_body: JSON.stringify(newest.request_body), response_body: JSON.stringify(newest.response_body) }).execute();

      const clean = await runCommand(db, ['audit', 'verify']);
      assert.equal(clean.code, 0, JSON.stringify(clean.output));
    });
  });

  it('signed checkpoints: a chain rewritten and re-hashed is caught, and so is a forged checkpoint; verify needs only the public key', async () => {
    await onFreshApp(async (db, writer) => {
      // One after another, each awaited (a writer used to leave the next item queued for ever).
      for (let i = 0; i < 6; i++) await within(writer.write(row('cp')), 5000, 'a sequential audit write');
      const cp = await runCommand(db, ['audit', 'checkpoint']);
      assert.equal(cp.code, 0, JSON.stringify(cp.output));
      assert.equal(cp.output.chains, 64);
      const pub = await runCommand(db, ['audit', 'public-key']);
      assert.equal(pub.output.key_id, cp.output.key_id);
      assert.match(String(pub.output.public_key_pem), /BEGIN PUBLIC KEY/);
      const withKey = await runCommand(db, ['audit', 'verify', '--public-key', String(pub.output.public_key_base64)]);
      assert.equal(withKey.code, 0, JSON.stringify(withKey.output));
      assert.equal(withKey.output.checkpoints, 1);

      // Someone with write access edits row 3 of chain 0, re-hashes the rest of the chain and moves the head.
      const rows = await db
        .selectFrom('audit_logs')
        .select([
          'id', 'seq', 'hash', 'request_id', 'created_at', 'account_id', 'key_id', 'environment', 'client_ip', 'method', 'path', 'operation',
          'http_status', 'ok', 'statuscode', 'reference_id', 'latency_ms', 'data_class', 'content_hash',
          sql<string>`request_body::text`.as('request_body'), sql<string>`response_body::text`.as('response_body'),
        ])
        .where('chain', '=', 0)
        .where('seq', '>=', 2)
        .orderBy('seq')
        .execute();
      let prev = rows[0]!.hash!;
      for (const r of rows.slice(1)) {
        const forged = { ...r, reference_id: r.seq === 3 ? 'forged' : r.reference_id };
        const hash = linkHash(prev, rowDigest({ ...forged, data_class: r.data_class!, content_hash: r.content_hash! }));
        await db.updateTable('audit_logs').set({ reference_id: forged.reference_id, prev_hash: prev, hash }).where('id', '=', r.id).execute();
        prev = hash;
      }
      await db.updateTable('audit_heads').set({ hash: prev }).where('chain', '=', 0).execute();
      const v = await verifyAudit(db);
      assert.equal(v.ok, false);
      assert.equal(v.first_broken!.chain, 0);
      assert.equal(v.first_broken!.seq, rows.at(-1)!.seq);
      assert.match(v.first_broken!.reason, /signed checkpoint/);

      // A forged checkpoint, or one checked against another key, fails.
      const other = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
      const wrong = await runCommand(db, ['audit', 'verify', '--public-key', other]);
      assert.equal(wrong.code, 1);
      assert.match(String((wrong.output.first_bad_checkpoint as { reason: string }).reason), /not by the given key/);
      await db.updateTable('audit_signed_checkpoints').set({ merkle_root: 'f'.repeat(64) }).execute();
      const forged = await runCommand(db, ['audit', 'verify']);
      assert.equal(forged.code, 1);
      assert.match(String((forged.output.first_bad_checkpoint as { reason: string }).reason), /Merkle root/);
      const bad = await runCommand(db, ['audit', 'verify', '--public-key', 'not a key']);
      assert.equal(bad.code, 2);
    });
  });

  it('a purge keeps every chain verifiable and leaves a signed checkpoint', async () => {
    await onFreshApp(async (db, writer) => {
      for (let i = 0; i < 4; i++) await writer.write(row('old'));
      await db.transaction().execute((trx) => insertChained(trx, [row('old')]));
      const cut = new Date(Date.now() + 1);
      await new Promise((r) => setTimeout(r, 5));
      for (let i = 0; i < 3; i++) await writer.write(row('new'));
      const purged = await runCommand(db, ['audit', 'purge', '--before', cut.toISOString()]);
      assert.equal(purged.code, 0, JSON.stringify(purged.output));
      assert.ok(Number(purged.output.deleted) >= 5);
      assert.ok(purged.output.signed_checkpoint_id);
      for (let i = 0; i < 2; i++) await writer.write(row('after'));
      const v = await verifyAudit(db);
      assert.equal(v.ok, true, JSON.stringify(v));
      assert.equal(v.checked, 5);
      assert.equal(v.checkpoints, 1);
    });
  });
});

describe('migrating the single-chain schema', () => {
  it('keeps an existing chain valid as chain 0, and new rows append to it', async () => {
    // An empty store: a fresh database on PostgreSQL; a new directory for PGlite (not the migrated template).
    const location = postgres
      ? await freshStoreLocation()
      : ((dir) => ({ databaseUrl: undefined, dataDir: dir, drop: async () => rmSync(dir, { recursive: true, force: true }) }))(mkdtempSync(path.join(tmpdir(), 'sangam-test-')));
    const store = await openStore({ databaseUrl: location.databaseUrl, dataDir: location.dataDir });
    try {
      const db = store.db;
      // The schema as it was before the chains: every migration up to 0011.
      await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
        name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`.execute(db);
      for (const m of listMigrations().filter((x) => x.name < '0012')) {
        await db.transaction().execute(async (trx) => {
          await sql.raw(m.sql).execute(trx);
          await sql`INSERT INTO schema_migrations (name, checksum) VALUES (${m.name}, ${m.checksum})`.execute(trx);
        });
      }
      // Rows written by the single-chain writer: linked in id order from 'genesis', head in audit_head.
      let prev = 'genesis';
      for (let i = 0; i < 5; i++) {
        const r = row('legacy');
        const hash = legacyHash(prev, r);
        await sql`INSERT INTO audit_logs (request_id, created_at, method, path, http_status, ok, statuscode, reference_id, latency_ms, client_ip, environment, request_body, response_body, prev_hash, hash)
          VALUES (${r.request_id}, ${r.created_at}, ${r.method}, ${r.path}, ${r.http_status}, ${r.ok}, ${r.statuscode}, ${r.reference_id}, ${r.latency_ms}, ${r.client_ip}, ${r.environment}, ${r.request_body}::jsonb, ${r.response_body}::jsonb, ${prev}, ${hash})`.execute(db);
        prev = hash;
      }
      await sql`UPDATE audit_head SET hash = ${prev}`.execute(db);

      assert.deepEqual(await migrate(db), listMigrations().filter((x) => x.name >= '0012').map((x) => x.name));
      let v = await verifyAudit(db);
      assert.equal(v.ok, true, JSON.stringify(v));
      assert.equal(v.checked, 5);
      const head = await db.selectFrom('audit_heads').selectAll().where('chain', '=', 0).executeTakeFirstOrThrow();
      assert.deepEqual(head, { chain: 0, seq: 5, hash: prev });

      await new AuditWriter(db).write(row('new'));
      const added = await db.selectFrom('audit_logs').select(['chain', 'seq', 'prev_hash']).where('reference_id', '=', 'new').executeTakeFirstOrThrow();
      assert.deepEqual(added, { chain: 0, seq: 6, prev_hash: prev });
      const legacy = await stored(db, 0, 3);
      await db.updateTable('audit_logs').set({ path: '/edited' }).where('id', '=', legacy.id).execute();
      v = await verifyAudit(db);
      assert.deepEqual([v.ok, v.first_broken?.id], [false, legacy.id]);
    } finally {
      await store.close();
      await location.drop();
    }
  });
});
