// Recharge pre-flight (CONTRACT §10): operator lookup and plans, in the sandbox (deterministic) and live
// (from the recharge partner, cached), and a recharge that leaves out its operator and circle.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CIRCLES, codes, MOBILE_OPERATORS } from '../src/catalog/operators.js';
import { PATHS, ref, startApp, uuid, type TestApp } from './harness.js';
import { startLive, type LiveApp } from './live-harness.js';

const LOOKUP = '/api/v1/mobile-recharge/operator-lookup';
const PLANS = '/api/v1/mobile-recharge/plans';

describe('recharge pre-flight in the sandbox', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  it('operator lookup is deterministic, in our codes, and a bad mobile is a 422 naming mobile', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const mobile = `98${String(10_000_000 + i * 7919).padStart(8, '0')}`;
      const a = await t.call('GET', `${LOOKUP}?mobile=${mobile}`);
      assert.equal(a.status, 200, a.text);
      assert.deepEqual(Object.keys(a.body.data).sort(), ['circle', 'mobile', 'operator', 'ported']);
      assert.equal(a.body.data.mobile, mobile);
      assert.ok(codes(MOBILE_OPERATORS).includes(a.body.data.operator));
      assert.ok(codes(CIRCLES).includes(a.body.data.circle));
      assert.equal(typeof a.body.data.ported, 'boolean');
      assert.deepEqual((await t.call('GET', `${LOOKUP}?mobile=${mobile}`)).body.data, a.body.data);
      seen.add(a.body.data.operator);
    }
    assert.ok(seen.size >= 3, 'lookups spread over the operators');
    for (const bad of ['12345', '5876543210', '98765432100', '', '9876 543210']) {
      const r = await t.call('GET', `${LOOKUP}?mobile=${encodeURIComponent(bad)}`);
      assert.equal(r.status, 422, bad);
      assert.equal(r.body.data.errors[0].field, 'mobile');
    }
  });

  it('plans list amounts in INR with validity, description and category; bad codes are 422', async () => {
    const r = await t.call('GET', `${PLANS}?operator=JIO&circle=KA`);
    assert.equal(r.status, 200, r.text);
    const plans = r.body.data.plans as Array<{ amount: number; validity: string; description: string; category: string }>;
    assert.ok(plans.length >= 5);
    for (const p of plans) {
      assert.ok(p.amount > 0 && Number.isInteger(p.amount * 100));
      assert.ok(p.validity && p.description && p.category);
    }
    assert.ok(plans.some((p) => p.amount === 199));
    assert.equal((await t.call('GET', `${PLANS}?operator=XX&circle=KA`)).body.data.errors[0].field, 'operator');
    assert.equal((await t.call('GET', `${PLANS}?operator=JIO`)).body.data.errors[0].field, 'circle');
  });

  it('a recharge without operator and circle looks them up; data.operator says which', async () => {
    const mobile = '9876543210';
    const found = (await t.call('GET', `${LOOKUP}?mobile=${mobile}`)).body.data;
    const body = { reference_id: ref('rc'), consent: true, mobile, amount: 199, idempotency_key: uuid() };
    const r = await t.call('POST', PATHS.recharge, { body });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.operator, found.operator);
    assert.equal(r.body.data.circle, found.circle);
    const again = await t.call('POST', PATHS.recharge, { body });
    assert.equal(again.headers['idempotent-replayed'], 'true', 'a retry of the same request replays');
    const given = await t.call('POST', PATHS.recharge, { body: { ...body, reference_id: ref('rc'), idempotency_key: uuid(), operator: 'VI', circle: 'MU' } });
    assert.equal(given.body.data.operator, 'VI');
    assert.equal(given.body.data.circle, 'MU');
  });
});

describe('recharge pre-flight live, from the recharge partner', () => {
  let t: LiveApp;
  before(async () => (t = await startLive()));
  after(() => t.close());

  it('lookup and plans come from the partner and are cached; a recharge without operator uses the lookup', async () => {
    const mobile = '9123456780';
    const a = await t.call('GET', `${LOOKUP}?mobile=${mobile}`, { key: t.liveKey });
    assert.equal(a.status, 200, a.text);
    const sandbox = await t.call('GET', `${LOOKUP}?mobile=${mobile}`);
    assert.deepEqual(a.body.data, sandbox.body.data, 'the simulator answers as the sandbox does');
    const plans = await t.call('GET', `${PLANS}?operator=${a.body.data.operator}&circle=${a.body.data.circle}`, { key: t.liveKey });
    assert.equal(plans.status, 200, plans.text);
    assert.ok(plans.body.data.plans.length > 0);
    const rc = await t.call('POST', PATHS.recharge, { key: t.liveKey, body: { reference_id: ref('rc'), consent: true, mobile, amount: 199, idempotency_key: uuid() } });
    assert.equal(rc.status, 200, rc.text);
    assert.equal(rc.body.data.operator, a.body.data.operator);
    await t.assertLedger();
    // Cached: with the partner failing, the same questions are still answered.
    await t.sim.stop();
    assert.deepEqual((await t.call('GET', `${LOOKUP}?mobile=${mobile}`, { key: t.liveKey })).body.data, a.body.data);
    assert.equal((await t.call('GET', `${PLANS}?operator=${a.body.data.operator}&circle=${a.body.data.circle}`, { key: t.liveKey })).status, 200);
    const unknown = await t.call('GET', `${LOOKUP}?mobile=9000012345`, { key: t.liveKey });
    assert.equal(unknown.status, 502, unknown.text);
    assert.equal(unknown.body.data.Errorcode, 113);
  });
});
