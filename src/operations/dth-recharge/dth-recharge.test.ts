import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, PATHS, startApp, VALID, type TestApp } from '../../../test/harness.js';

describe('dth-recharge (sandbox)', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  it('recharges a subscriber (Tata Play 2.5% of 350 = 8.75)', async () => {
    const r = await t.call('POST', PATHS.dth, { body: VALID.dth() });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.status, 'success');
    assert.equal(r.body.data.commission, 8.75);
    assert.match(r.body.data.utr, /^TS\d{10}$/);
  });

  it('accepts the subscriber as mobile (the seed illustrative body)', async () => {
    const { subscriber_id: _, ...rest } = VALID.dth();
    const r = await t.call('POST', PATHS.dth, { body: { ...rest, mobile: '9876543210' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.status, 'success');
  });

  it('ending 0001 fails; ending 0002 is pending then succeeds', async () => {
    const failed = await t.call('POST', PATHS.dth, { body: { ...VALID.dth(), subscriber_id: '3000010001' } });
    assert.equal(failed.body.data.status, 'failed');
    const body = { ...VALID.dth(), subscriber_id: '3000010002' };
    const pending = await t.call('POST', PATHS.dth, { body });
    assert.equal(pending.body.data.status, 'pending');
    await eventually(async () => (await t.call('GET', `/api/v1/transactions/${body.reference_id}`)).body.data.status === 'success');
  });

  it('lists DTH operators', async () => {
    const r = await t.call('GET', '/api/v1/dth/operators');
    assert.deepEqual(r.body.data.operators.map((o: { code: string }) => o.code), ['AD', 'DT', 'SD', 'TS', 'VD']);
  });
});
