// Batches (CONTRACT §12) on a real store: JSON, CSV and NDJSON submissions, validate_only, invalid rows
// by row and field, results in row order, items by status and page, cancel, a repeated client_batch_id,
// uploads that cannot be read (refused whole, nothing created), pacing that leaves interactive calls
// alone, and the batch.completed webhook.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { Webhook } from 'standardwebhooks';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAccount, createKey } from '../src/accounts/store.js';
import { runCommand } from '../src/admin/run.js';
import { BatchStore } from '../src/batches/store.js';
import { eventually, ref, startApp, uuid, type TestApp } from './harness.js';

const BATCH_ENV = { SANGAM_BATCH_POLL_MS: '50', SANGAM_WEBHOOK_ALLOW_PRIVATE: '1', SANGAM_WEBHOOK_POLL_MS: '30' };

const names = (n: number, prefix = 'bn') =>
  Array.from({ length: n }, (_, i) => ({ reference_id: `${prefix}-${i + 1}-${uuid().slice(0, 8)}`, consent: true, name_1: 'Priya Sharma', name_2: i % 2 ? 'PRIYA SHARMA' : 'Rahul Verma' }));

async function count(t: TestApp, table: 'batches' | 'batch_items' | 'transactions'): Promise<number> {
  const r = await t.store.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(r.n);
}

/**
 * The batch once it has ended and every row is final (a cancelled batch's rows in flight finish after
 * it ends), its counts (kept on the batch's row) checked against its items' statuses read page by page.
 */
const ended = async (t: TestApp, id: string, timeoutMs = 60_000, key?: string) => {
  const done = await eventually(async () => {
    const r = await t.call('GET', `/api/v1/batches/${id}`, { key });
    return ['completed', 'cancelled', 'failed'].includes(r.body.data.status) && r.body.data.counts.pending === 0 && r.body.data;
  }, timeoutMs);
  const tally: Record<string, number> = { total: 0, invalid: 0, pending: 0, success: 0, failed: 0, cancelled: 0 };
  for (let cursor = ''; ; ) {
    const page = (await t.call('GET', `/api/v1/batches/${id}/items?limit=1000${cursor && `&cursor=${cursor}`}`, { key })).body.data;
    for (const i of page.items as Array<{ status: string }>) {
      tally.total!++;
      tally[i.status === 'queued' || i.status === 'running' ? 'pending' : i.status]!++;
    }
    if (!page.next_cursor) break;
    cursor = page.next_cursor;
  }
  assert.deepEqual(done.counts, tally, "the batch's counts are its items' statuses");
  return done;
};

const upload = (t: TestApp, type: string, text: string | Buffer, query: string) =>
  t.call('POST', `/api/v1/batches?${query}`, { payload: text, headers: { 'content-type': type } });

describe('batches', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp(BATCH_ENV);
  });
  after(() => t.close());

  it('a JSON batch: accepted as TUP, each row run as its own call, found by reference, audited, in row order', async () => {
    const items = names(3);
    items[1] = { ...items[1]!, name_2: '' } as (typeof items)[number]; // invalid: a name of 0 characters
    const r = await t.call('POST', '/api/v1/batches', { body: { operation: 'name-match', items } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.statuscode, 'TUP');
    const d = r.body.data;
    assert.match(d.id, /^bat_/);
    assert.equal(d.operation, 'name-match');
    assert.equal(d.environment, 'sandbox');
    assert.ok(['validating', 'running', 'completed'].includes(d.status));
    assert.equal(d.counts.total, 3);
    assert.equal(d.counts.invalid, 1);
    assert.ok(d.created_at);
    const done = await ended(t, d.id);
    assert.equal(done.status, 'completed');
    assert.deepEqual({ ...done.counts }, { total: 3, invalid: 1, pending: 0, success: 2, failed: 0, cancelled: 0 });
    const page = await t.call('GET', `/api/v1/batches/${d.id}/items`);
    assert.deepEqual(page.body.data.items.map((i: { row: number }) => i.row), [1, 2, 3]);
    const bad = page.body.data.items[1];
    assert.equal(bad.status, 'invalid');
    assert.equal(bad.result.errors[0].field, 'name_2');
    const first = page.body.data.items[0];
    assert.equal(first.status, 'success');
    assert.equal(first.reference_id, items[0]!.reference_id);
    assert.ok(typeof first.result.score === 'number');
    // The row is an ordinary transaction: the single call's lookup finds it, with the same answer.
    const tx = await t.call('GET', `/api/v1/transactions/${items[0]!.reference_id}`);
    assert.equal(tx.status, 200);
    assert.equal(tx.body.data.operation, 'name-match');
    assert.equal(tx.body.data.score, first.result.score);
    const audit = await t.call('GET', '/api/v1/audit-logs', { query: { reference_id: items[2]!.reference_id } });
    assert.equal(audit.body.data.items.length, 1);
    assert.equal(audit.body.data.items[0].operation, 'name-match');
    assert.equal(audit.body.data.items[0].path, `/api/v1/batches/${d.id}`);
    // A row already run answers its first answer again (its reference is its idempotency key): never twice.
    const again = await t.call('POST', '/api/v1/name-match', { body: items[0] });
    assert.equal(again.headers['idempotent-replayed'], 'true');
  });

  it('a CSV batch: coerced like a query string, failures and pendings as the single calls give them, results as CSV and NDJSON in row order', async () => {
    const mobiles = ['9876543210', '9876540001', '9876540002', '9876543211'];
    const refs = mobiles.map(() => ref('csv'));
    const csv = ['reference_id,consent,mobile,operator,amount', ...mobiles.map((m, i) => `${refs[i]},true,${m},JIO,${199 + i}`)].join('\r\n');
    const r = await upload(t, 'text/csv', csv, 'operation=recharge-commission');
    assert.equal(r.status, 200, r.text);
    const done = await ended(t, r.body.data.id);
    assert.deepEqual({ ...done.counts }, { total: 4, invalid: 0, pending: 0, success: 3, failed: 1, cancelled: 0 });
    const res = await t.call('GET', `/api/v1/batches/${done.id}/results`, { query: { format: 'csv' } });
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /text\/csv/);
    const lines = res.text.trim().split('\n');
    const header = lines[0]!.split(',');
    for (const col of ['row', 'reference_id', 'status']) assert.ok(header.includes(col), `${col} in ${lines[0]}`);
    assert.equal(lines.length, 5);
    const cells = lines.slice(1).map((l) => l.split(','));
    assert.deepEqual(cells.map((c) => c[header.indexOf('row')]), ['1', '2', '3', '4']);
    assert.deepEqual(cells.map((c) => c[header.indexOf('reference_id')]), refs);
    assert.deepEqual(cells.map((c) => c[header.indexOf('status')]), ['success', 'failed', 'success', 'success']);
    const nd = await t.call('GET', `/api/v1/batches/${done.id}/results`, { query: { format: 'ndjson' } });
    const rows = nd.text.trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(rows.map((x) => x.row), [1, 2, 3, 4]);
    assert.equal(rows[0].result.amount, 199);
    assert.ok(rows[0].result.txn_id);
  });

  it('an NDJSON batch of payments: each row gets its own idempotency key when it brings none', async () => {
    const rows = [
      { reference_id: ref('nd'), consent: true, vpa: 'success@sandbox', amount: 10 },
      { reference_id: ref('nd'), consent: true, vpa: 'failure@sandbox', amount: 11, idempotency_key: uuid() },
    ];
    const r = await upload(t, 'application/x-ndjson', rows.map((x) => JSON.stringify(x)).join('\n'), 'operation=upi-payment-status');
    assert.equal(r.status, 200, r.text);
    const done = await ended(t, r.body.data.id);
    assert.equal(done.counts.success, 1);
    assert.equal(done.counts.failed, 1);
  });

  it('validate_only checks every row, runs none and lists the bad ones by row and field', async () => {
    const before = await count(t, 'transactions');
    const batches = await count(t, 'batches');
    const items = names(4);
    Object.assign(items[0]!, { consent: false });
    Object.assign(items[3]!, { reference_id: items[2]!.reference_id });
    const r = await t.call('POST', '/api/v1/batches', { body: { operation: 'name-match', items, validate_only: true } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.validate_only, true);
    assert.equal(r.body.data.counts.total, 4);
    assert.equal(r.body.data.counts.invalid, 2);
    assert.deepEqual(
      r.body.data.errors.map((e: { row: number; field: string }) => [e.row, e.field]),
      [
        [1, 'consent'],
        [4, 'reference_id'],
      ],
    );
    const csv = `reference_id,consent,mobile,operator,amount\n${ref()},true,12345,JIO,199\n${ref()},true,9876543210,XX,abc\n`;
    const c = await upload(t, 'text/csv', csv, 'operation=recharge-commission&validate_only=true');
    assert.equal(c.status, 200, c.text);
    const fields = c.body.data.errors.map((e: { row: number; field: string }) => `${e.row}:${e.field}`);
    assert.ok(fields.includes('1:mobile') && fields.includes('2:operator') && fields.includes('2:amount'), fields.join());
    assert.equal(await count(t, 'transactions'), before);
    assert.equal(await count(t, 'batches'), batches);
  });

  it('items page by page in row order, filtered by status', async () => {
    const items = names(7);
    Object.assign(items[2]!, { consent: 'yes' });
    const r = await t.call('POST', '/api/v1/batches', { body: { operation: 'name-match', items } });
    await ended(t, r.body.data.id);
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const p = await t.call('GET', `/api/v1/batches/${r.body.data.id}/items`, { query: { limit: '3', ...(cursor ? { cursor } : {}) } });
      assert.equal(p.status, 200, p.text);
      seen.push(...p.body.data.items.map((i: { row: number }) => i.row));
      cursor = p.body.data.next_cursor ?? undefined;
    } while (cursor);
    assert.deepEqual(seen, [1, 2, 3, 4, 5, 6, 7]);
    const invalid = await t.call('GET', `/api/v1/batches/${r.body.data.id}/items`, { query: { status: 'invalid' } });
    assert.deepEqual(invalid.body.data.items.map((i: { row: number }) => i.row), [3]);
    const wrong = await t.call('GET', `/api/v1/batches/${r.body.data.id}/items`, { query: { status: 'nope' } });
    assert.equal(wrong.status, 422);
  });

  it('a repeated client_batch_id answers the existing batch; another account or environment does not see it', async () => {
    const body = { operation: 'name-match', items: names(2), client_batch_id: `cb-${uuid()}` };
    const a = await t.call('POST', '/api/v1/batches', { body });
    const rows = await count(t, 'batch_items');
    const b = await t.call('POST', '/api/v1/batches', { body: { ...body, items: names(5) } });
    assert.equal(b.status, 200);
    assert.equal(b.body.data.id, a.body.data.id);
    assert.equal(b.body.data.counts.total, 2);
    assert.equal(await count(t, 'batch_items'), rows);
    const other = await createKey(t.store.db, (await createAccount(t.store.db, 'Other')).id, 'sandbox');
    const foreign = await t.call('GET', `/api/v1/batches/${a.body.data.id}`, { key: other.key });
    assert.equal(foreign.status, 404);
  });

  it('the CLI submits a file for an account; the server runs it like any other batch', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sangam-batch-'));
    const file = path.join(dir, 'names.csv');
    const refs = [ref('cli'), ref('cli')];
    writeFileSync(file, `reference_id,consent,name_1,name_2\n${refs[0]},true,Priya Sharma,P Sharma\n${refs[1]},true,Ravi Kumar,Ravi Kumar\n`);
    const out = await runCommand(t.store.db, ['batches', 'submit', '--account', t.accountId, '--env', 'sandbox', '--operation', 'name-match', file]);
    assert.equal(out.code, 0, JSON.stringify(out.output));
    const id = (out.output as { id: string }).id;
    const done = await ended(t, id);
    assert.equal(done.counts.success, 2);
    assert.equal((await t.call('GET', `/api/v1/transactions/${refs[1]}`)).body.data.match, true);
    // No network address submitted it: the batch and its rows' audit rows say so (null), not ''.
    const from = await t.store.db.selectFrom('batches').select('client_ip').where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(from.client_ip, null);
    const audited = await t.store.db.selectFrom('audit_logs').select('client_ip').where('reference_id', '=', refs[1]!).where('path', '=', `/api/v1/batches/${id}`).executeTakeFirstOrThrow();
    assert.equal(audited.client_ip, null);
    // An erasure of a row's reference reaches the batch's copy too: its input goes, its answer is scrubbed.
    const erased = await t.call('POST', '/api/v1/erasures', { body: { reference_id: refs[0] } });
    assert.equal(erased.status, 200, erased.text);
    const item = (await t.call('GET', `/api/v1/batches/${id}/items`)).body.data.items[0];
    assert.ok(item.result.erased_at);
    assert.equal(item.result.score, undefined);
    const stored = await t.store.db.selectFrom('batch_items').select('input').where('batch_id', '=', id).where('row_no', '=', 1).executeTakeFirstOrThrow();
    assert.equal(stored.input, null);
    const bad = await runCommand(t.store.db, ['batches', 'submit', '--account', t.accountId, '--env', 'sandbox', '--operation', 'name-match', path.join(dir, 'none.csv')]);
    assert.equal(bad.code, 2);
    rmSync(dir, { recursive: true, force: true });
  });

  it('uploads that cannot be read are refused whole, naming the row and field, and create nothing', async () => {
    const batches = await count(t, 'batches');
    const op = 'operation=recharge-commission';
    const noHeader = await upload(t, 'text/csv', `${ref()},true,9876543210,JIO,199\n`, op);
    assert.equal(noHeader.status, 422, noHeader.text);
    assert.equal(noHeader.body.data.errors[0].row, 0);
    assert.match(noHeader.body.data.errors[0].message, /header/);
    const wrongColumn = await upload(t, 'text/csv', `reference_id,consent,mobile,operator,amount,colour\n${ref()},true,9876543210,JIO,199,red\n`, op);
    assert.equal(wrongColumn.status, 422);
    assert.deepEqual([wrongColumn.body.data.errors[0].row, wrongColumn.body.data.errors[0].field], [0, 'colour']);
    const nul = await upload(t, 'text/csv', `reference_id,consent,mobile,operator,amount\n${ref()},true,9876543210,JIO,199\n${ref()},true,98765\u000043210,JIO,199\n`, op);
    assert.equal(nul.status, 422, nul.text);
    assert.deepEqual([nul.body.data.errors[0].row, nul.body.data.errors[0].field], [2, 'mobile']);
    const ndNul = await upload(t, 'application/x-ndjson', `{"reference_id":"a","consent":true,"name_1":"x\\u0000y","name_2":"z"}\n`, 'operation=name-match');
    assert.equal(ndNul.status, 422);
    assert.deepEqual([ndNul.body.data.errors[0].row, ndNul.body.data.errors[0].field], [1, 'name_1']);
    const line = (i: number) => `r-${i},true,Priya,Priya\n`;
    const many = `reference_id,consent,name_1,name_2\n${Array.from({ length: 100_001 }, (_, i) => line(i)).join('')}`;
    const tooMany = await upload(t, 'text/csv', many, 'operation=name-match');
    assert.equal(tooMany.status, 422, tooMany.text.slice(0, 300));
    assert.equal(tooMany.body.data.errors[0].row, 100_001);
    assert.match(tooMany.body.data.errors[0].message, /100,000/);
    const huge = await upload(t, 'text/csv', Buffer.alloc(30 * 1024 * 1024, 'a'), 'operation=name-match');
    assert.equal(huge.status, 413);
    assert.equal(huge.body.data.Errorcode, 111);
    const plain = await upload(t, 'text/plain', 'reference_id,consent\n', 'operation=name-match');
    assert.equal(plain.status, 415);
    assert.equal(plain.body.message, 'Content-Type must be one of application/json, text/csv, application/x-ndjson');
    const json = await t.call('POST', '/api/v1/batches', { body: { operation: 'name-match', items: [] } });
    assert.equal(json.status, 422);
    assert.equal(json.body.data.errors[0].field, 'items');
    const unknownOp = await t.call('POST', '/api/v1/batches', { body: { operation: 'teleport', items: names(1) } });
    assert.equal(unknownOp.status, 422);
    assert.equal(unknownOp.body.data.errors[0].field, 'operation');
    const stop = await t.call('POST', '/api/v1/batches', { body: { operation: 'name-match', items: [...names(1), { reference_id: 'x' }], on_error: 'stop' } });
    assert.equal(stop.status, 422);
    assert.equal(stop.body.data.errors[0].row, 2);
    assert.equal(await count(t, 'batches'), batches);
  });
});

describe('batches: pacing, cancel, webhook', () => {
  let t: TestApp;
  let got: string[];
  let server: http.Server;
  let secret: string;
  before(async () => {
    t = await startApp({ ...BATCH_ENV, SANGAM_BATCH_ROWS_IN_FLIGHT: '5' });
    got = [];
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got.push(JSON.stringify({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
    const ep = await t.call('POST', '/api/v1/webhook-endpoints', { body: { url } });
    secret = ep.body.data.secret;
    // The account's limit: 40 calls a second, bursts of 20. Batch rows are paced by it, in a bucket of their own.
    await t.store.db.updateTable('accounts').set({ rate_limit_per_sec: 40, rate_limit_burst: 20 }).where('id', '=', t.accountId).execute();
  });
  after(async () => {
    await t.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('rows are paced by the account limit in their own bucket: interactive calls keep theirs; cancel stops the rows not started', async () => {
    const r = await t.call('POST', '/api/v1/batches', { body: { operation: 'name-match', items: names(400, 'cx') } });
    assert.equal(r.status, 200, r.text);
    const id = r.body.data.id;
    await eventually(async () => (await t.call('GET', `/api/v1/batches/${id}`)).body.data.counts.success >= 10);
    // While the batch runs at the account's pace, the key's own calls are not refused.
    for (let i = 0; i < 5; i++) {
      const single = await t.call('POST', '/api/v1/name-match', { body: names(1, 'solo')[0] });
      assert.equal(single.status, 200, single.text);
    }
    const c = await t.call('POST', `/api/v1/batches/${id}/cancel`);
    assert.equal(c.status, 200, c.text);
    assert.equal(c.body.data.status, 'cancelled');
    // Rows in flight at the cancel finish (ended() waits for them); none after it starts.
    const done = await ended(t, id);
    assert.equal(done.status, 'cancelled');
    assert.ok(done.counts.cancelled > 100, JSON.stringify(done.counts));
    const settled = done.counts;
    const cancelled = await t.call('GET', `/api/v1/batches/${id}/items`, { query: { status: 'cancelled', limit: '1' } });
    const skippedRef = cancelled.body.data.items[0].reference_id;
    const tx = await t.call('GET', `/api/v1/transactions/${skippedRef}`);
    assert.equal(tx.status, 404, 'a cancelled row never ran');
    assert.equal(settled.success + settled.cancelled, 400);
  });

  it('a cancelled batch whose worker died with rows started: another lease finishes those rows, and only those', async () => {
    // As a process that died would leave it: rows 1-3 taken (the cursor past them, still queued), the lease its own (written in one
    // transaction, so that no live worker takes the batch first), then a cancel.
    const id = `bat_dead${uuid().replace(/-/g, '').slice(0, 12)}`;
    await t.store.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('batches')
        .values({ id, account_id: t.accountId, environment: 'sandbox', key_id: t.keyId, client_ip: null, operation: 'name-match', client_batch_id: null, on_error: 'continue', status: 'running', total: 30, taken_through: 3, lease_owner: 'bw_dead', lease_until: new Date(Date.now() + 3_600_000) })
        .execute();
      const rows = names(30, 'dead').map((input, i) => ({ batch_id: id, row_no: i + 1, reference_id: input.reference_id, input: JSON.stringify(input), status: 'queued' as const }));
      await trx.insertInto('batch_items').values(rows).execute();
    });
    const before = await t.call('GET', `/api/v1/batches/${id}/items?status=running`);
    assert.deepEqual(before.body.data.items.map((i: { row: number }) => i.row), [1, 2, 3], 'rows at or below the cursor show as running');
    const c = await t.call('POST', `/api/v1/batches/${id}/cancel`);
    assert.equal(c.body.data.status, 'cancelled');
    await t.store.db.updateTable('batches').set({ lease_until: new Date(0) }).where('id', '=', id).execute(); // its lease runs out
    const done = await eventually(async () => {
      const g = (await t.call('GET', `/api/v1/batches/${id}`)).body.data;
      return g.counts.pending === 0 && g;
    });
    assert.equal(done.status, 'cancelled');
    assert.equal(done.counts.success + done.counts.cancelled, 30);
    assert.deepEqual([done.counts.success, done.counts.cancelled], [3, 27]);
  });

  it('takes racing each other and a cancel: each row is taken once, and every row is either taken or cancelled', async () => {
    // Eight takes of 25 rows at once (as two workers whose leases overlapped would) and a cancel among
    // them, on a batch no live worker holds. On PostgreSQL they run on separate connections.
    const id = `bat_race${uuid().replace(/-/g, '').slice(0, 12)}`;
    const total = 300;
    await t.store.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('batches')
        .values({ id, account_id: t.accountId, environment: 'sandbox', key_id: t.keyId, client_ip: null, operation: 'name-match', client_batch_id: null, on_error: 'continue', status: 'running', total, lease_owner: 'bw_other', lease_until: new Date(Date.now() + 3_600_000) })
        .execute();
      const rows = names(total, 'race').map((input, i) => ({ batch_id: id, row_no: i + 1, reference_id: input.reference_id, input: JSON.stringify(input), status: 'queued' as const }));
      await trx.insertInto('batch_items').values(rows).execute();
    });
    const store = new BatchStore(t.store.db);
    const takes = Array.from({ length: 8 }, () => store.take(id, 25, false));
    const [cancelled, ...taken] = await Promise.all([(async () => (await store.end(id, true)) && 'cancelled')(), ...takes]);
    assert.equal(cancelled, 'cancelled');
    const rows = taken.flatMap((t) => t.items.map((i) => i.row)).sort((a, b) => a - b);
    assert.equal(new Set(rows).size, rows.length, 'no row taken twice');
    const through = (await t.store.db.selectFrom('batches').select('taken_through').where('id', '=', id).executeTakeFirstOrThrow()).taken_through;
    assert.deepEqual(rows, Array.from({ length: through }, (_, i) => i + 1), 'the rows taken are exactly those up to the cursor');
    const page = await t.call('GET', `/api/v1/batches/${id}/items?limit=1000`);
    const statuses = page.body.data.items.map((i: { status: string }) => i.status);
    assert.deepEqual(statuses, [...Array(through).fill('running'), ...Array(total - through).fill('cancelled')]);
    assert.deepEqual((await store.take(id, 25, false)).items, [], 'a cancelled batch gives out no new rows');
    const again = await store.take(id, 1000, true);
    assert.deepEqual(
      again.items.map((i) => i.row),
      rows,
      'only those taken and not finished, to whoever holds its lease next',
    );
  });

  it('batch.completed is delivered with the batch as GET shows it', async () => {
    const r = await t.call('POST', '/api/v1/batches', { body: { operation: 'name-match', items: names(3) } });
    const id = r.body.data.id;
    const done = await ended(t, id);
    const msg = await eventually(async () => got.map((g) => JSON.parse(g) as { headers: Record<string, string>; body: string }).find((g) => g.body.includes(id) && g.body.includes('batch.completed')));
    const event = new Webhook(secret).verify(msg.body, msg.headers) as { type: string; data: { id: string; status: string; counts: unknown } };
    assert.equal(event.type, 'batch.completed');
    assert.equal(event.data.id, id);
    assert.equal(event.data.status, 'completed');
    assert.deepEqual(event.data.counts, done.counts);
  });
});
