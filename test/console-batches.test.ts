// The console's batches routes over HTTP on a real store: an upload runs as the API's batch does (rows
// as ordinary calls, key_id console:<email>, an ADMIN event), the list newest first page by page,
// results in row order, validate_only and unreadable uploads by row and field with nothing created,
// cancel, the account and environment boundary, and bad input answered with a 4xx, never a 500.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createAccount } from '../src/accounts/store.js';
import { runCommand } from '../src/admin/run.js';
import { UPLOAD_LIMIT } from '../src/batches/upload.js';
import { eventually, ref, startApp, type TestApp } from './harness.js';

type Session = { cookie: string; csrf: string };
const EMAIL = 'ops@acme.test';

const namesCsv = (rows: Array<[string, string]>, prefix: string) => {
  const refs = rows.map(() => ref(prefix));
  return { refs, csv: ['reference_id,consent,name_1,name_2', ...rows.map(([a, b], i) => `${refs[i]},true,${a},${b}`)].join('\n') };
};

describe('console batches API', () => {
  let t: TestApp;
  let me: Session;

  const login = async (email: string, password: string): Promise<Session> => {
    const r = await t.app.inject({ method: 'POST', url: '/console/api/login', payload: { email, password } });
    assert.equal(r.statusCode, 200, r.body);
    return { cookie: String(r.headers['set-cookie']).split(';')[0]!, csrf: JSON.parse(r.body).data.csrf_token };
  };
  const get = (s: Session, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: s.cookie } });
  const post = (s: Session, url: string, payload?: string | object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload, headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, ...headers } });
  const upload = (s: Session, query: string, body: string, type = 'text/csv') => post(s, `/console/api/batches?${query}`, body, { 'content-type': type });
  const json = (r: { body: string }) => JSON.parse(r.body);
  const ended = (id: string, s = me) =>
    eventually(async () => {
      const b = json(await get(s, `/console/api/batches/${id}?environment=sandbox`)).data;
      return ['completed', 'cancelled', 'failed'].includes(b.status) && b;
    }, 20_000);
  const batchCount = async () => Number((await t.store.db.selectFrom('batches').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  before(async () => {
    t = await startApp({ SANGAM_BATCH_POLL_MS: '50', SANGAM_BATCH_ROWS_IN_FLIGHT: '5' });
    assert.equal((await runCommand(t.store.db, ['users', 'create', '--email', EMAIL, '--password', 'correct horse', '--account', t.accountId])).code, 0);
    me = await login(EMAIL, 'correct horse');
  });
  after(() => t.close());

  it('an upload runs as the API runs it: rows as ordinary calls, counts, results in row order, who submitted it audited', async () => {
    const { refs, csv } = namesCsv([['Priya Sharma', 'PRIYA SHARMA'], ['Priya Sharma', 'Rahul Verma'], ['Anil Kumar', 'Anil Kumar']], 'cb');
    const r = await upload(me, 'environment=sandbox&operation=name-match&client_batch_id=console-1&file_name=people.csv', csv);
    assert.equal(r.statusCode, 200, r.body);
    assert.equal(json(r).statuscode, 'TUP');
    const id = json(r).data.id;
    const done = await ended(id);
    assert.equal(done.status, 'completed');
    assert.deepEqual(done.counts, { total: 3, invalid: 0, pending: 0, success: 3, failed: 0, cancelled: 0 });
    // The same client_batch_id answers the same batch.
    assert.equal(json(await upload(me, 'environment=sandbox&operation=name-match&client_batch_id=console-1', csv)).data.id, id);

    const res = await get(me, `/console/api/batches/${id}/results?environment=sandbox&format=csv`);
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/csv/);
    assert.match(String(res.headers['content-disposition']), new RegExp(`${id}-results\\.csv`));
    const [header, ...lines] = res.body.trim().split('\n');
    assert.match(header!, /^row,reference_id,status,/);
    assert.deepEqual(lines.map((l) => l.split(',').slice(0, 3)), refs.map((x, i) => [String(i + 1), x, 'success']));
    const nd = await get(me, `/console/api/batches/${id}/results?environment=sandbox&format=ndjson`);
    assert.deepEqual(nd.body.trim().split('\n').map((l) => JSON.parse(l).row), [1, 2, 3]);

    // Each row is an ordinary call, found by its reference; its audit row and the ADMIN event name the console user.
    assert.equal((await t.call('GET', `/api/v1/transactions/${refs[1]}`)).status, 200);
    const rows = await t.store.db.selectFrom('audit_logs').select(['key_id', 'method', 'path', 'request_body']).where('account_id', '=', t.accountId).where((eb) => eb.or([eb('reference_id', '=', refs[0]!), eb('path', '=', 'batch submit')])).execute();
    assert.equal(rows.find((x) => x.method === 'POST')?.key_id, `console:${EMAIL}`);
    const event = rows.find((x) => x.method === 'ADMIN');
    assert.ok(event, 'the submission is an ADMIN event');
    assert.equal((event.request_body as Record<string, unknown>).actor, `console:${EMAIL}`);
    assert.equal((event.request_body as Record<string, unknown>).file, 'people.csv');
  });

  it('lists the batches of one environment newest first, a page at a time (CSV and NDJSON uploads)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await upload(me, 'environment=sandbox&operation=name-match', namesCsv([['Priya Sharma', 'Priya Sharma']], `pg${i}`).csv);
      ids.push(json(r).data.id);
    }
    const row = { reference_id: ref('pgnd'), consent: true, name_1: 'Priya Sharma', name_2: 'Priya Sharma' };
    const nd = await upload(me, 'environment=sandbox&operation=name-match', `${JSON.stringify(row)}\n`, 'application/x-ndjson');
    assert.equal(nd.statusCode, 200, nd.body);
    ids.push(json(nd).data.id);
    const first = json(await get(me, '/console/api/batches?environment=sandbox&limit=2')).data;
    assert.deepEqual(first.items.map((b: { id: string }) => b.id), [ids[2], ids[1]]);
    assert.ok(first.operations.find((o: { slug: string; fields: string[] }) => o.slug === 'name-match')?.fields.includes('name_1'));
    assert.equal(first.items[0].counts.total, 1);
    const second = json(await get(me, `/console/api/batches?environment=sandbox&limit=2&after=${first.next_cursor}`)).data;
    assert.equal(second.items[0].id, ids[0]);
    assert.equal(json(await get(me, '/console/api/batches?environment=live')).data.items.length, 0);
  });

  it('validate_only lists the bad rows by row and field and stores nothing; an unreadable upload is refused whole', async () => {
    const before = await batchCount();
    const bad = 'reference_id,consent,name_1,name_2\nv-1,true,Priya Sharma,Priya Sharma\nv-2,true,Priya Sharma,\n';
    const r = await upload(me, 'environment=sandbox&operation=name-match&validate_only=true', bad);
    assert.equal(r.statusCode, 200, r.body);
    const d = json(r).data;
    assert.equal(d.validate_only, true);
    assert.deepEqual(d.counts, { total: 2, invalid: 1, pending: 0, success: 0, failed: 0, cancelled: 0 });
    assert.deepEqual(d.errors.map((e: { row: number; field: string }) => [e.row, e.field]), [[2, 'name_2']]);
    const wrongColumn = await upload(me, 'environment=sandbox&operation=name-match', 'reference_id,consent,name_1,nmae_2\nx,true,A B,A B\n');
    assert.equal(wrongColumn.statusCode, 422, wrongColumn.body);
    assert.deepEqual(json(wrongColumn).data.errors.map((e: { row: number; field: string }) => [e.row, e.field]), [[0, 'nmae_2']]);
    const nul = await upload(me, 'environment=sandbox&operation=name-match', 'reference_id,consent,name_1,name_2\nx,true,A\u0000B,A B\n');
    assert.equal(nul.statusCode, 422, nul.body);
    assert.deepEqual(json(nul).data.errors.map((e: { row: number; field: string }) => [e.row, e.field]), [[1, 'name_1']]);
    assert.equal(await batchCount(), before, 'nothing was created');
  });

  it('bad input is a clear 4xx naming what is wrong, never a 500', async () => {
    const before = await batchCount();
    const fields = (r: { body: string }) => json(r).data.errors?.map((e: { field: string }) => e.field);
    const noFile = await post(me, '/console/api/batches?environment=sandbox&operation=name-match');
    assert.equal(noFile.statusCode, 422, noFile.body);
    assert.deepEqual(fields(noFile), ['file']);
    const emptyFile = await upload(me, 'environment=sandbox&operation=name-match', '');
    assert.equal(emptyFile.statusCode, 422, emptyFile.body);
    const unknownOp = await upload(me, 'environment=sandbox&operation=teleport', 'a\n1\n');
    assert.equal(unknownOp.statusCode, 422, unknownOp.body);
    assert.deepEqual(fields(unknownOp), ['operation']);
    const noEnv = await upload(me, 'operation=name-match', 'a\n1\n');
    assert.equal(noEnv.statusCode, 422, noEnv.body);
    assert.deepEqual(fields(noEnv), ['environment']);
    const badFlag = await upload(me, 'environment=sandbox&operation=name-match&validate_only=maybe', 'a\n1\n');
    assert.equal(badFlag.statusCode, 422, badFlag.body);
    const wrongType = await post(me, '/console/api/batches?environment=sandbox&operation=name-match', 'x', { 'content-type': 'application/vnd.ms-excel' });
    assert.equal(wrongType.statusCode, 415, wrongType.body);
    assert.match(json(wrongType).message, /text\/csv/);
    const big = await upload(me, 'environment=sandbox&operation=name-match', 'x'.repeat(UPLOAD_LIMIT + 1));
    assert.equal(big.statusCode, 413, big.body);
    assert.match(json(big).message, /MiB/);
    const badCursor = await get(me, '/console/api/batches?environment=sandbox&after=x%27--');
    assert.equal(badCursor.statusCode, 422, badCursor.body);
    const badId = await get(me, '/console/api/batches/nope?environment=sandbox');
    assert.equal(badId.statusCode, 422, badId.body);
    assert.equal(await batchCount(), before);
  });

  it('a live upload is refused (403): live batches are sent with a live key', async () => {
    const r = await upload(me, 'environment=live&operation=name-match', namesCsv([['A B', 'A B']], 'lv').csv);
    assert.equal(r.statusCode, 403, r.body);
    assert.match(json(r).message, /live key/);
  });

  it('needs a session and the CSRF token; another account or environment does not see the batch', async () => {
    const id = json(await upload(me, 'environment=sandbox&operation=name-match', namesCsv([['A B', 'A B']], 'iso').csv)).data.id;
    assert.equal((await t.app.inject({ method: 'GET', url: '/console/api/batches?environment=sandbox' })).statusCode, 401);
    const noCsrf = await t.app.inject({ method: 'POST', url: '/console/api/batches?environment=sandbox&operation=name-match', payload: 'a', headers: { cookie: me.cookie, 'content-type': 'text/csv' } });
    assert.equal(noCsrf.statusCode, 403);
    const other = await createAccount(t.store.db, 'Other Co');
    await runCommand(t.store.db, ['users', 'create', '--email', 'eve@other.test', '--password', 'other pass 1', '--account', other.id]);
    const eve = await login('eve@other.test', 'other pass 1');
    assert.equal((await get(eve, `/console/api/batches/${id}?environment=sandbox`)).statusCode, 404);
    assert.equal((await get(eve, `/console/api/batches/${id}/results?environment=sandbox`)).statusCode, 404);
    assert.equal((await post(eve, `/console/api/batches/${id}/cancel`, { environment: 'sandbox' })).statusCode, 404);
    assert.equal(json(await get(eve, '/console/api/batches?environment=sandbox')).data.items.length, 0);
    assert.equal((await get(me, `/console/api/batches/${id}?environment=live`)).statusCode, 404);
  });

  it('cancel stops the rows not yet started, once', async () => {
    // Two rows a second: the batch is still running when the cancel arrives.
    await t.store.db.updateTable('accounts').set({ rate_limit_per_sec: 2, rate_limit_burst: 2 }).where('id', '=', t.accountId).execute();
    const rows = Array.from({ length: 40 }, (): [string, string] => ['Priya Sharma', 'Priya Sharma']);
    const id = json(await upload(me, 'environment=sandbox&operation=name-match', namesCsv(rows, 'cx').csv)).data.id;
    const c = await post(me, `/console/api/batches/${id}/cancel`, { environment: 'sandbox' });
    assert.equal(c.statusCode, 200, c.body);
    assert.equal(json(c).data.status, 'cancelled');
    const done = await eventually(async () => {
      const b = json(await get(me, `/console/api/batches/${id}?environment=sandbox`)).data;
      return b.counts.pending === 0 && b;
    }, 20_000);
    assert.ok(done.counts.cancelled > 20, JSON.stringify(done.counts));
    assert.equal(done.counts.success + done.counts.cancelled, 40);
    const again = await post(me, `/console/api/batches/${id}/cancel`, { environment: 'sandbox' });
    assert.match(json(again).message, /already ended \(cancelled\)/);
    const events = await t.store.db.selectFrom('audit_logs').select('request_body').where('path', '=', 'batch cancel').execute();
    assert.equal(events.length, 1);
    assert.equal((events[0]!.request_body as Record<string, unknown>).batch, id);
  });
});
