// Every /api/v1 request leaves an audit row, written before the response; identity data is redacted.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { PATHS, startApp, VALID, type TestApp } from './harness.js';

describe('audit trail', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  it('records who, what, outcome and latency for each request, under its X-Request-Id', async () => {
    const body = VALID.recharge();
    const r = await t.call('POST', PATHS.recharge, { body });
    const row = await t.store.db.selectFrom('audit_logs').selectAll().where('request_id', '=', String(r.headers['x-request-id'])).executeTakeFirstOrThrow();
    assert.equal(row.account_id, t.accountId);
    assert.equal(row.key_id, t.keyId);
    assert.equal(row.environment, 'sandbox');
    assert.equal(row.method, 'POST');
    assert.equal(row.path, PATHS.recharge);
    assert.equal(row.operation, 'recharge-commission');
    assert.equal(row.http_status, 200);
    assert.equal(row.ok, true);
    assert.equal(row.statuscode, 'TXN');
    assert.equal(row.reference_id, body.reference_id);
    assert.ok(row.latency_ms >= 0);
    assert.ok(row.client_ip);
    assert.equal((row.request_body as Record<string, unknown>).mobile, 'XXXXXX3210');
  });

  it('records failures too, including unauthenticated ones and 404s', async () => {
    const a = await t.call('POST', PATHS.recharge, { body: VALID.recharge(), key: null });
    const b = await t.call('GET', '/api/v1/nowhere');
    for (const r of [a, b]) {
      const row = await t.store.db.selectFrom('audit_logs').selectAll().where('request_id', '=', String(r.headers['x-request-id'])).executeTakeFirstOrThrow();
      assert.equal(row.http_status, r.status);
      assert.equal(row.ok, false);
      assert.equal(row.statuscode, 'ERR');
    }
  });

  it('never stores a full Aadhaar number, VID, mobile or account number, nor the photo', async () => {
    const aadhaar = '498765432102';
    const vid = '9123456789012345';
    await t.call('POST', PATHS.aadhaar, { body: { ...VALID.aadhaar(), aadhaar_number: aadhaar } });
    await t.call('POST', PATHS.aadhaar, { body: { ...VALID.aadhaar(), aadhaar_number: vid } });
    await t.call('POST', PATHS.aadhaar, { body: { ...VALID.aadhaar(), aadhaar_number: '498765432101' } }); // invalid → 422 echo path
    await t.call('POST', PATHS.bank, { body: { ...VALID.bank(), account_number: '123456789012345' } });
    const rows = await t.store.db.selectFrom('audit_logs').select([sql<string>`request_body::text`.as('req'), sql<string>`response_body::text`.as('res')]).execute();
    const all = rows.map((r) => `${r.req} ${r.res}`).join('\n');
    for (const secret of [aadhaar, vid, '498765432101', '9876543210', '123456789012345', '919876543210']) assert.ok(!all.includes(secret), secret);
    assert.ok(!all.includes('iVBOR'), 'no PNG');
    assert.ok(!/\d{12}/.test(all.replace(/"(utr|latency_ms|created_at)":[^,}]*/g, '')), 'no 12-digit run anywhere');
    assert.ok(all.includes('XXXXXXXX2102'));
  });
});
