// The audit log API and its hash chain: search, every filter, cursor pages, isolation, CSV / NDJSON
// export parsed back with a real CSV parser, `audit verify` catching an edited or deleted row, and a
// retention purge that keeps the chain verifiable.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { createAccount, createKey } from '../src/accounts/store.js';
import { purgeBefore } from '../src/audit/chain.js';
import { verifyAudit } from '../src/audit/checkpoints.js';
import { PATHS, startApp, VALID, type TestApp } from './harness.js';
import { auditRow } from './audit-fixtures.js';

describe('audit log API', () => {
  let t: TestApp;
  const refs: string[] = [];
  before(async () => {
    t = await startApp();
    for (let i = 0; i < 5; i++) {
      const body = VALID.signature();
      refs.push(body.reference_id);
      await t.call('POST', PATHS.signature, { body });
    }
    await t.call('POST', PATHS.bank, { body: { ...VALID.bank(), mobile: '9000000000' } });
    await t.call('POST', PATHS.upi, { body: { ...VALID.upi(), amount: -1 } }); // 422
  });
  after(() => t.close());

  const search = (query: Record<string, string>) => t.call('GET', '/api/v1/audit-logs', { query });

  it('lists the account’s requests, newest first, with the contract fields', async () => {
    const r = await search({ limit: '100' });
    assert.equal(r.status, 200, r.text);
    const items = r.body.data.items;
    assert.ok(items.length >= 7);
    for (const f of ['request_id', 'created_at', 'operation', 'environment', 'http_status', 'ok', 'statuscode', 'reference_id', 'latency_ms']) assert.ok(f in items[0], f);
    const times = items.map((i: { created_at: string }) => Date.parse(i.created_at));
    assert.deepEqual(times, [...times].sort((a: number, b: number) => b - a));
    assert.equal(r.body.data.next_cursor, null);
  });

  it('a row’s request_id is the X-Request-Id its response carried', async () => {
    const body = VALID.signature();
    const res = await t.call('POST', PATHS.signature, { body });
    const r = await search({ reference_id: body.reference_id });
    assert.equal(r.body.data.items.length, 1);
    assert.equal(r.body.data.items[0].request_id, res.headers['x-request-id']);
    const one = await t.call('GET', `/api/v1/audit-logs/${res.headers['x-request-id']}`);
    assert.equal(one.body.data.request_body.reference_id, body.reference_id);
    assert.equal(one.body.data.response_body.statuscode, 'TXN');
  });

  it('filters: operation, ok, http_status, environment, free text, time range, request and key id', async () => {
    assert.ok((await search({ operation: 'signature-match' })).body.data.items.every((i: { operation: string }) => i.operation === 'signature-match'));
    const failed = await search({ ok: 'false' });
    assert.ok(failed.body.data.items.length >= 2 && failed.body.data.items.every((i: { ok: boolean }) => !i.ok));
    const v = await search({ http_status: '422' });
    assert.ok(v.body.data.items.length >= 1 && v.body.data.items.every((i: { http_status: number }) => i.http_status === 422));
    const text = await search({ q: 'no bank account' });
    assert.equal(text.body.data.items.length, 1);
    assert.equal(text.body.data.items[0].operation, 'mobile-to-bank-account');
    const own = (await search({ environment: 'sandbox' })).body.data.items;
    assert.ok(own.length >= 7 && own.every((i: { environment: string }) => i.environment === 'sandbox'));
    const other = await search({ environment: 'live' }); // a sandbox key reads only sandbox rows
    assert.equal(other.status, 422);
    assert.equal(other.body.data.errors[0].field, 'environment');
    assert.equal((await search({ from: new Date(Date.now() + 60_000).toISOString() })).body.data.items.length, 0);
    assert.ok((await search({ to: new Date(Date.now() + 60_000).toISOString() })).body.data.items.length >= 7);
    assert.ok((await search({ key_id: t.keyId })).body.data.items.length >= 7);
    const any = (await search({ limit: '1' })).body.data.items[0];
    assert.equal((await search({ request_id: any.request_id })).body.data.items.length, 1);
  });

  it('cursor pagination walks every row once', async () => {
    const all = (await search({ limit: '500' })).body.data.items.map((i: { request_id: string }) => i.request_id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r: { body: { data: { items: Array<{ request_id: string }>; next_cursor: string | null } } } = await search({ limit: '2', ...(cursor ? { cursor } : {}) });
      seen.push(...r.body.data.items.map((i) => i.request_id));
      cursor = r.body.data.next_cursor;
    } while (cursor);
    // Rows written by the searches themselves come after the first listing; compare what it saw.
    assert.deepEqual(seen.filter((id) => all.includes(id)), all);
  });

  it('a bad cursor, format or filter is a 422', async () => {
    for (const query of [{ cursor: "not-a-cursor" }, { from: "yesterday" }, { ok: "maybe" }, { limit: "0" }] as Array<Record<string, string>>) {
      const r = await search(query);
      assert.equal(r.status, 422, JSON.stringify(query));
      assert.equal(r.body.data.Errorcode, 104);
    }
    const f = await t.call('GET', '/api/v1/audit-logs/export', { query: { format: 'xml' } });
    assert.equal(f.status, 422);
  });

  it('another account sees none of these rows', async () => {
    const other = await createKey(t.store.db, (await createAccount(t.store.db, 'Other')).id, 'sandbox');
    const r = await t.call('GET', '/api/v1/audit-logs', { key: other.key, query: { reference_id: refs[0]! } });
    assert.equal(r.body.data.items.length, 0);
    const mine = (await search({ reference_id: refs[0]! })).body.data.items[0];
    assert.equal((await t.call('GET', `/api/v1/audit-logs/${mine.request_id}`, { key: other.key })).status, 404);
  });

  it('exports CSV that a CSV parser reads back, and NDJSON, with the same filters', async () => {
    const csv = await t.call('GET', '/api/v1/audit-logs/export', { query: { format: 'csv', operation: 'signature-match' } });
    assert.equal(csv.status, 200);
    assert.match(String(csv.headers['content-type']), /text\/csv/);
    assert.match(String(csv.headers['content-disposition']), /attachment; filename="sangam-audit-.*\.csv"/);
    const rows = parse(csv.text, { columns: true }) as Array<Record<string, string>>;
    assert.ok(rows.length >= 6);
    assert.ok(rows.every((r) => r.operation === 'signature-match'));
    for (const ref of refs) assert.ok(rows.some((r) => r.reference_id === ref));
    assert.ok(rows.every((r) => r.ok === 'true' || r.ok === 'false'));
    const nd = await t.call('GET', '/api/v1/audit-logs/export', { query: { format: 'ndjson', reference_id: refs[1]! } });
    const lines = nd.text.trim().split('\n').map((l) => JSON.parse(l) as { reference_id: string });
    assert.equal(lines.length, 1);
    assert.equal(lines[0]!.reference_id, refs[1]);
  });
});

describe('audit hash chain', () => {
  it('verifies; catches an edited row and a deleted row; survives a retention purge', async () => {
    const t = await startApp();
    try {
      for (let i = 0; i < 6; i++) await t.call('POST', PATHS.signature, { body: VALID.signature() });
      const ok = await verifyAudit(t.store.db);
      assert.equal(ok.ok, true);
      assert.ok(ok.checked >= 6);

      const rows = await t.store.db.selectFrom('audit_logs').select(['id', 'request_id']).orderBy('id').execute();
      const victim = rows[3]!;
      await t.store.db.updateTable('audit_logs').set({ http_status: 299 }).where('id', '=', victim.id).execute();
      const edited = await verifyAudit(t.store.db);
      assert.equal(edited.ok, false);
      assert.equal(edited.first_broken!.id, victim.id);
      assert.match(edited.first_broken!.reason, /edited/);
      await t.store.db.updateTable('audit_logs').set({ http_status: 200 }).where('id', '=', victim.id).execute();
      assert.equal((await verifyAudit(t.store.db)).ok, true);

      await t.store.db.deleteFrom('audit_logs').where('id', '=', rows[2]!.id).execute();
      const deleted = await verifyAudit(t.store.db);
      assert.equal(deleted.ok, false);
      assert.equal(deleted.first_broken!.id, victim.id);
      assert.match(deleted.first_broken!.reason, /removed/);

      // Purging everything up to and including the gap leaves a chain that verifies from its checkpoint.
      const cut = await t.store.db.selectFrom('audit_logs').select('created_at').where('id', '=', victim.id).executeTakeFirstOrThrow();
      const purged = await purgeBefore(t.store.db, new Date(cut.created_at.getTime() + 1));
      assert.ok(purged.deleted >= 3);
      await t.call('POST', PATHS.signature, { body: VALID.signature() });
      const after = await verifyAudit(t.store.db);
      assert.equal(after.ok, true, JSON.stringify(after));

      // Removing the newest rows leaves the chain short of its recorded head.
      await t.call('POST', PATHS.signature, { body: VALID.signature() });
      const newest = await t.store.db.selectFrom('audit_logs').select(['id', 'request_id']).orderBy('id', 'desc').limit(2).execute();
      const saved = await t.store.db.selectFrom('audit_logs').selectAll().where('id', '=', newest[0]!.id).executeTakeFirstOrThrow();
      await t.store.db.deleteFrom('audit_logs').where('id', '=', newest[0]!.id).execute();
      const truncated = await verifyAudit(t.store.db);
      assert.equal(truncated.ok, false);
      assert.equal(truncated.first_broken!.id, newest[1]!.id);
      assert.match(truncated.first_broken!.reason, /newest rows were removed/);
      await t.store.db
        .insertInto('audit_logs')
        .values({ ...saved, request_body: JSON.stringify(saved.request_body), response_body: JSON.stringify(saved.response_body) })
        .execute();
      assert.equal((await verifyAudit(t.store.db)).ok, true);

      const { runCommand } = await import('../src/admin/run.js');
      assert.equal((await runCommand(t.store.db, ['audit', 'verify'])).code, 0);
      const last = await t.store.db.selectFrom('audit_logs').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
      await t.store.db.updateTable('audit_logs').set({ reference_id: 'forged' }).where('id', '=', last.id).execute();
      const bad = await runCommand(t.store.db, ['audit', 'verify']);
      assert.equal(bad.code, 1);
      assert.equal((bad.output.first_broken as { id: number }).id, last.id);
    } finally {
      await t.close();
    }
  });

  it('stays one unbroken chain when several writers (server processes) commit batches at once', async () => {
    const t = await startApp();
    try {
      const { AuditWriter } = await import('../src/audit/writer.js');
      // Each writer batches on its own connection, as separate server processes do on PostgreSQL.
      const writers = Array.from({ length: 4 }, () => new AuditWriter(t.store.db));
      const row = (w: number, i: number) => auditRow({ request_id: `req_w${w}_${i}_${process.pid}`, account_id: t.accountId });
      await Promise.all(writers.map((w, n) => Promise.all(Array.from({ length: 60 }, (_, i) => w.write(row(n, i))))));
      const result = await verifyAudit(t.store.db);
      assert.equal(result.ok, true, JSON.stringify(result.first_broken));
      assert.ok(result.checked >= 240);
    } finally {
      await t.close();
    }
  });
});
