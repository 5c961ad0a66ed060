// Bank account verification (CONTRACT §14) through the HTTP surface: the answer's shape, the IFSC rule,
// the sandbox's magic values and determinism, name_match, replay, and batches (JSON, CSV and NDJSON).
// Live, through the reference simulator, with its fee: test/payee-verification-live.test.ts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, ref, startApp, type TestApp } from '../../../test/harness.js';
import { linkedAccount } from '../../../shared/people.js';

const PATH = '/api/v1/bank-account/account-verification';
const body = (extra: Record<string, unknown> = {}) => ({ reference_id: ref('acv'), consent: true, account_number: '123456789012', ifsc: 'HDFC0000001', ...extra });

describe('account-verification (sandbox)', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  const verify = (extra: Record<string, unknown> = {}) => t.call('POST', PATH, { body: body(extra) });

  it('answers valid by penny drop, with the holder, the bank from the IFSC directory and a UTR', async () => {
    const r = await verify();
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.statuscode, 'TXN');
    const d = r.body.data;
    assert.equal(d.status, 'success');
    assert.equal(d.account_status, 'valid');
    assert.equal(typeof d.name_at_bank, 'string');
    assert.deepEqual(d.bank, { name: 'HDFC Bank', branch: null, ifsc: 'HDFC0000001' });
    assert.equal(d.method, 'penny_drop');
    assert.match(d.utr, /^\d{12}$/);
    assert.ok(d.verified_at);
    assert.equal(d.name_match, undefined);
  });

  it('is deterministic: the same account has the same holder every time; 91+mobile is the holder mobile-to-bank-account links', async () => {
    const a = (await verify({ account_number: '5550001234567' })).body.data;
    const b = (await verify({ account_number: '5550001234567' })).body.data;
    assert.equal(a.name_at_bank, b.name_at_bank);
    const linked = (await verify({ account_number: '919876543210' })).body.data;
    assert.equal(linked.name_at_bank, linkedAccount('9876543210').account_holder_name);
  });

  it('with name, name_match compares it with name_at_bank under the account thresholds', async () => {
    const holder = linkedAccount('9876543210').account_holder_name;
    const same = (await verify({ account_number: '919876543210', name: holder.toUpperCase() })).body.data;
    assert.equal(same.name_match.decision, 'approve');
    assert.equal(same.name_match.match, true);
    const other = (await verify({ account_number: '919876543210', name: 'Zubin Mehta' })).body.data;
    assert.equal(other.name_match.decision, 'reject');
  });

  it('magic values: 0001 does not exist, 0003 closed (invalid, success), 0004 unknown (failed), 0005 pennyless', async () => {
    const missing = (await verify({ account_number: '123450001' })).body;
    assert.equal(missing.statuscode, 'TXN');
    assert.deepEqual([missing.data.status, missing.data.account_status, missing.data.name_at_bank], ['success', 'invalid', null]);
    assert.match(missing.data.reason, /does not exist/);
    const closed = (await verify({ account_number: '123450003', name: 'Priya Sharma' })).body.data;
    assert.equal(closed.account_status, 'invalid');
    assert.match(closed.reason, /closed/);
    assert.equal(closed.name_match, undefined, 'no name at the bank: nothing to compare');
    const unknown = (await verify({ account_number: '123450004' })).body;
    assert.equal(unknown.statuscode, 'ERR');
    assert.deepEqual([unknown.data.status, unknown.data.account_status, unknown.data.Errorcode], ['failed', 'unknown', 120]);
    const pennyless = (await verify({ account_number: '123450005' })).body.data;
    assert.deepEqual([pennyless.account_status, pennyless.method, pennyless.utr], ['valid', 'pennyless', undefined]);
  });

  it('0002: unknown and pending, then valid with its name_match, like any pending operation', async () => {
    const b = body({ account_number: '123450002', name: 'Priya Sharma' });
    const r = await t.call('POST', PATH, { body: b });
    assert.equal(r.body.statuscode, 'TUP');
    assert.deepEqual([r.body.data.status, r.body.data.account_status, r.body.data.verified_at], ['pending', 'unknown', null]);
    assert.equal(r.body.data.bank.ifsc, 'HDFC0000001');
    const final = await eventually(async () => {
      const p = await t.call('GET', `/api/v1/transactions/${b.reference_id}`);
      return p.body.data.status !== 'pending' && p.body.data;
    }, 10_000);
    assert.equal(final.status, 'success');
    assert.equal(final.account_status, 'valid');
    assert.equal(typeof final.name_at_bank, 'string');
    assert.equal(final.bank.name, 'HDFC Bank');
    assert.ok(final.name_match, 'the settled answer carries the comparison');
  });

  it('a well-formed IFSC not in the directory is a 422 naming ifsc, and nothing is recorded; a bad account number names account_number', async () => {
    const b = body({ ifsc: 'QQQQ0123456' });
    const r = await t.call('POST', PATH, { body: b });
    assert.equal(r.status, 422);
    assert.deepEqual(r.body.data.errors, [{ field: 'ifsc', message: 'ifsc is not a known IFSC: no bank branch has this code' }]);
    assert.equal((await t.call('GET', `/api/v1/transactions/${b.reference_id}`)).status, 404);
    const missing = await t.call('POST', PATH, { body: { reference_id: ref('acv'), consent: true, account_number: '12' } });
    assert.equal(missing.status, 422);
    assert.deepEqual(missing.body.data.errors.map((e: { field: string }) => e.field).sort(), ['account_number', 'ifsc']);
  });

  it('the same reference_id and body replays the first answer; another body is 422/107', async () => {
    const b = body();
    const first = await t.call('POST', PATH, { body: b });
    const replay = await t.call('POST', PATH, { body: b });
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.text, first.text);
    const other = await t.call('POST', PATH, { body: { ...b, account_number: '999999999' } });
    assert.equal(other.status, 422);
    assert.equal(other.body.data.Errorcode, 107);
  });

  it('runs in JSON, CSV and NDJSON batches, each row as its own call would answer', async () => {
    const done = async (id: string) =>
      eventually(async () => {
        const r = await t.call('GET', `/api/v1/batches/${id}`);
        return r.body.data.status === 'completed' && r.body.data.counts.pending === 0 && r.body.data;
      }, 20_000);
    const json = await t.call('POST', '/api/v1/batches', { body: { operation: 'account-verification', items: [body(), body({ account_number: '123450001' })] } });
    assert.equal(json.body.statuscode, 'TUP', json.text);
    assert.deepEqual((await done(json.body.data.id)).counts, { total: 2, invalid: 0, pending: 0, success: 2, failed: 0, cancelled: 0 });
    const csvRefs = [ref('acv'), ref('acv')];
    const csv = `reference_id,consent,account_number,ifsc\n${csvRefs[0]},true,123456789012,SBIN0000001\n${csvRefs[1]},true,123450004,SBIN0000001\n`;
    const c = await t.call('POST', '/api/v1/batches?operation=account-verification', { payload: csv, headers: { 'content-type': 'text/csv' } });
    assert.equal(c.body.statuscode, 'TUP', c.text);
    assert.deepEqual((await done(c.body.data.id)).counts, { total: 2, invalid: 0, pending: 0, success: 1, failed: 1, cancelled: 0 });
    const row = (await t.call('GET', `/api/v1/transactions/${csvRefs[0]}`)).body.data;
    assert.deepEqual([row.account_status, row.bank.name], ['valid', 'State Bank of India']);
    const nd = [body(), body({ ifsc: 'QQQQ0123456' })].map((x) => JSON.stringify(x)).join('\n');
    const n = await t.call('POST', '/api/v1/batches?operation=account-verification', { payload: nd, headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(n.body.statuscode, 'TUP', n.text);
    assert.deepEqual((await done(n.body.data.id)).counts, { total: 2, invalid: 1, pending: 0, success: 1, failed: 0, cancelled: 0 });
  });
});
