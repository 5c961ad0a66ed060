import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, PATHS, startApp, uuid, VALID, type TestApp } from '../../../test/harness.js';

describe('upi-payment-status (sandbox)', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  const asQuery = (b: Record<string, unknown>) => Object.fromEntries(Object.entries(b).map(([k, v]) => [k, String(v)]));

  it('GET with the query string: success with txn_id and utr, values coerced', async () => {
    const body = VALID.upi();
    const r = await t.call('GET', PATHS.upi, { query: asQuery({ ...body, amount: '100.50' }) });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.statuscode, 'TXN');
    assert.equal(r.body.data.status, 'success');
    assert.equal(r.body.data.amount, 100.5);
    assert.match(r.body.data.txn_id, /^txn_/);
    assert.match(r.body.data.utr, /^\d{12}$/);
    assert.equal(r.body.data.reference_id, body.reference_id);
  });

  it('GET with a JSON body, and POST with a JSON body, are the same operation', async () => {
    const viaGet = await t.call('GET', PATHS.upi, { body: VALID.upi() });
    assert.equal(viaGet.status, 200, viaGet.text);
    assert.equal(viaGet.body.data.status, 'success');
    const viaPost = await t.call('POST', PATHS.upi, { body: VALID.upi() });
    assert.equal(viaPost.status, 200);
    assert.equal(viaPost.body.data.status, 'success');
  });

  it('a JSON body is strict: the string "true" is not consent', async () => {
    const r = await t.call('POST', PATHS.upi, { body: { ...VALID.upi(), consent: 'true' } });
    assert.equal(r.status, 422);
    assert.deepEqual(r.body.data.errors.map((e: { field: string }) => e.field), ['consent']);
  });

  it('takes the idempotency key from the Idempotency-Key header', async () => {
    const { idempotency_key: _, ...body } = VALID.upi();
    const key = uuid();
    const first = await t.call('POST', PATHS.upi, { body, headers: { 'idempotency-key': key } });
    assert.equal(first.status, 200, first.text);
    const again = await t.call('POST', PATHS.upi, { body, headers: { 'idempotency-key': key } });
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.body.data.txn_id, first.body.data.txn_id);
  });

  it('failure@sandbox fails with HTTP 200 and ERR', async () => {
    const r = await t.call('POST', PATHS.upi, { body: { ...VALID.upi(), vpa: 'failure@sandbox' } });
    assert.equal(r.status, 200);
    assert.equal(r.body.statuscode, 'ERR');
    assert.equal(r.body.ok, false);
    assert.equal(r.body.data.status, 'failed');
    assert.equal(r.body.data.Errorcode, 120);
  });

  for (const [vpa, final] of [['pending@sandbox', 'success'], ['pendingfail@sandbox', 'failed']] as const) {
    it(`${vpa} is pending (TUP, verified_at null), then ${final}`, async () => {
      const body = { ...VALID.upi(), vpa };
      const r = await t.call('POST', PATHS.upi, { body });
      assert.equal(r.body.statuscode, 'TUP');
      assert.equal(r.body.ok, true);
      assert.equal(r.body.data.status, 'pending');
      assert.equal(r.body.data.verified_at, null);
      const settled = await eventually(async () => {
        const s = await t.call('GET', `/api/v1/transactions/${body.reference_id}`);
        return s.body.data.status !== 'pending' && s;
      });
      assert.equal(settled.body.data.status, final);
      assert.equal(settled.body.statuscode, final === 'success' ? 'TXN' : 'ERR');
      assert.equal(settled.body.data.txn_id, r.body.data.txn_id);
      assert.equal(settled.body.data.operation, 'upi-payment-status');
      assert.equal(settled.body.data.environment, 'sandbox');
      assert.ok(settled.body.data.verified_at);
      if (final === 'success') assert.match(settled.body.data.utr, /^\d{12}$/);
    });
  }
});
