import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, PATHS, startApp, VALID, type TestApp } from '../../../test/harness.js';

describe('recharge-commission (sandbox)', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  it('recharges and reports the commission in INR (JIO 2% of 199 = 3.98)', async () => {
    const r = await t.call('POST', PATHS.recharge, { body: { ...VALID.recharge(), circle: 'KA', type: 'prepaid' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.statuscode, 'TXN');
    assert.equal(r.body.data.status, 'success');
    assert.equal(r.body.data.commission, 3.98);
    assert.match(r.body.data.txn_id, /^txn_/);
    assert.match(r.body.data.utr, /^JIO\d{10}$/);
  });

  it('rounds commission down to the paisa (AT 2.5% of 10.01 = 0.25)', async () => {
    const r = await t.call('POST', PATHS.recharge, { body: { ...VALID.recharge(), operator: 'AT', amount: 10.01 } });
    assert.equal(r.body.data.commission, 0.25);
  });

  it('a mobile ending in 0001 fails', async () => {
    const r = await t.call('POST', PATHS.recharge, { body: { ...VALID.recharge(), mobile: '9876540001' } });
    assert.equal(r.status, 200);
    assert.equal(r.body.statuscode, 'ERR');
    assert.equal(r.body.data.status, 'failed');
  });

  it('a mobile ending in 0002 is pending, then succeeds', async () => {
    const body = { ...VALID.recharge(), mobile: '9876540002' };
    const r = await t.call('POST', PATHS.recharge, { body });
    assert.equal(r.body.statuscode, 'TUP');
    assert.equal(r.body.data.verified_at, null);
    const s = await eventually(async () => {
      const x = await t.call('GET', `/api/v1/transactions/${body.reference_id}`);
      return x.body.data.status === 'success' && x;
    });
    assert.match(s.body.data.utr, /^JIO\d{10}$/);
    assert.equal(s.body.data.commission, 3.98);
  });

  it('lists operators, commission rates and circles', async () => {
    const r = await t.call('GET', '/api/v1/mobile-recharge/operators');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data.operators.map((o: { code: string }) => o.code), ['AT', 'JIO', 'VI', 'BT', 'BS']);
    assert.equal(r.body.data.circles.length, 23);
  });
});
