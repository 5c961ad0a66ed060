// DTH pre-flight (CONTRACT §10's DTH counterpart): GET /api/v1/dth/subscriber-info in the sandbox
// (deterministic per subscriber id, 422s naming the field, 404 for a subscriber the biller does not know)
// and live through the setu-dth connector against the Setu BBPS emulator (the bill fetch's details,
// cached, and the partner's failures as 502 / 504).
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { codes, DTH_OPERATORS } from '../src/catalog/operators.js';
import { BILLERS, subscriberFor } from '../partner-sim/setu-dth/billers.js';
import { SETU_DTH_CONNECTOR_VARS, startSetuDthEmulator, type SetuDthEmulator } from '../partner-sim/setu-dth/index.js';
import { startApp, type TestApp } from './harness.js';
import { startPartnerApp } from './live-harness.js';

const INFO = '/api/v1/dth/subscriber-info';
const FIELDS = ['balance', 'name', 'next_recharge_date', 'operator', 'pack', 'subscriber_id'];

const info = (t: TestApp, operator: string, id: string, key?: TestApp['liveKey']) =>
  t.call('GET', `${INFO}?operator=${encodeURIComponent(operator)}&subscriber_id=${encodeURIComponent(id)}`, key ? { key } : {});

describe('DTH subscriber info in the sandbox', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  it('is deterministic per subscriber, with a name, a pack, a balance in INR and a next recharge date', async () => {
    const names = new Set<string>();
    const packs = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const operator = codes(DTH_OPERATORS)[i % DTH_OPERATORS.length]!;
      const id = `30${String(10_000_000 + i * 7919).padStart(8, '0')}`;
      const a = await info(t, operator, id);
      assert.equal(a.status, 200, a.text);
      assert.equal(a.body.ok, true);
      assert.deepEqual(Object.keys(a.body.data).sort(), FIELDS);
      const d = a.body.data;
      assert.equal(d.operator, operator);
      assert.equal(d.subscriber_id, id);
      assert.match(d.name, /^[A-Z][a-z]+ [A-Z][a-z]+$/);
      assert.ok(typeof d.pack === 'string' && d.pack.length > 0);
      assert.ok(typeof d.balance === 'number' && d.balance >= 0 && d.balance < 2000 && Number.isInteger(Math.round(d.balance * 100)));
      assert.match(d.next_recharge_date, /^20[0-9]{2}-[01][0-9]-[0-3][0-9]$/);
      assert.ok(d.next_recharge_date >= new Date(Date.now() - 86_400_000).toISOString().slice(0, 10), 'the next recharge is not in the past');
      assert.deepEqual((await info(t, operator, id)).body.data, d, 'the same subscriber, the same answer');
      names.add(d.name);
      packs.add(d.pack);
    }
    assert.ok(names.size >= 5 && packs.size >= 5, 'subscribers differ');
  });

  it('a bad operator or subscriber id is a 422 naming the field; an unknown subscriber (…0009) a 404', async () => {
    for (const [q, field] of [
      ['operator=XX&subscriber_id=3012345678', 'operator'],
      ['subscriber_id=3012345678', 'operator'],
      ['operator=JIO&subscriber_id=3012345678', 'operator'],
      ['operator=TS&subscriber_id=12345', 'subscriber_id'],
      ['operator=TS&subscriber_id=12345678901234567', 'subscriber_id'],
      ['operator=TS&subscriber_id=30123ABC78', 'subscriber_id'],
      ['operator=TS', 'subscriber_id'],
    ] as const) {
      const r = await t.call('GET', `${INFO}?${q}`);
      assert.equal(r.status, 422, `${q}: ${r.text}`);
      assert.equal(r.body.ok, false);
      assert.equal(r.body.data.Errorcode, 104);
      assert.equal(r.body.data.errors[0].field, field, q);
    }
    const none = await info(t, 'DT', '3012340009');
    assert.equal(none.status, 404, none.text);
    assert.equal(none.body.ok, false);
    assert.match(none.body.message, /Dish TV knows no subscriber 3012340009/);
  });
});

describe('DTH subscriber info live, from the setu-dth bill fetch', () => {
  let emu: SetuDthEmulator;
  let t: TestApp;

  before(async () => {
    emu = await startSetuDthEmulator({ fetchMs: 50, latencyMs: 0 });
    t = await startPartnerApp(
      {
        SANGAM_PARTNER_SETUDTH_KIND: 'setu-dth',
        SANGAM_PARTNER_SETUDTH_URL: emu.url,
        SANGAM_PARTNER_SETUDTH_CLIENT_ID: emu.settings.clientId,
        SANGAM_PARTNER_SETUDTH_CLIENT_SECRET: emu.settings.clientSecret,
        SANGAM_PARTNER_SETUDTH_PARTNER_ID: String(emu.settings.partnerId),
        SANGAM_PARTNER_SETUDTH_CUSTOMER_MOBILE: '9812300000',
        ...Object.fromEntries(Object.entries(SETU_DTH_CONNECTOR_VARS).map(([k, v]) => [`SANGAM_PARTNER_SETUDTH_${k}`, v])),
        SANGAM_PARTNER_SETUDTH_WEBHOOK_SECRET: 'setu_dth_webhook_path_secret_for_tests_01',
        SANGAM_PARTNER_ROUTES: 'dth-recharge=setudth',
        SANGAM_PARTNER_TIMEOUT_MS: '1000',
        SANGAM_BREAKER_MIN_CALLS: '10000',
      },
      { topUpInr: 0 },
    );
  });
  after(async () => {
    await t.close();
    await emu.close();
  });
  afterEach(() => emu.setFaults({}));

  it("answers the biller's name, pack, balance and next recharge date, cached; an unknown subscriber is a 404", async () => {
    const id = '4123456789';
    const expected = subscriberFor(BILLERS.find((b) => b.name === 'Tata Play')!, id);
    const before = emu.bills().length;
    const a = await info(t, 'TS', id, t.liveKey);
    assert.equal(a.status, 200, a.text);
    assert.deepEqual(a.body.data, {
      operator: 'TS',
      subscriber_id: id,
      name: expected.customerName,
      pack: expected.plan.name,
      balance: expected.balancePaise / 100,
      next_recharge_date: expected.nextRechargeDate,
    });
    assert.equal(emu.bills().length, before + 1, 'one bill fetch');
    assert.deepEqual((await info(t, 'TS', id, t.liveKey)).body.data, a.body.data);
    assert.equal(emu.bills().length, before + 1, 'the second answer is cached');
    assert.ok(emu.bills().every((b) => !b.payment), 'nothing is paid');

    // The biller knows no such subscriber (the emulator's …0009), or cannot have one (Tata Play's ids are 10 digits).
    const none = await info(t, 'AD', '4123450009', t.liveKey);
    assert.equal(none.status, 404, none.text);
    assert.match(none.body.message, /Airtel Digital TV knows no subscriber 4123450009/);
    const short = await info(t, 'TS', '4123456', t.liveKey);
    assert.equal(short.status, 404, short.text);
  });

  it("the partner's failures are 502 / 504 envelopes", async () => {
    await info(t, 'DT', '5123456789', t.liveKey); // token and billers cached: the next call is the fetch
    emu.setFaults({ error_next: 1, error_status: 500 });
    const failed = await info(t, 'DT', '5123456780', t.liveKey);
    assert.equal(failed.status, 502, failed.text);
    assert.equal(failed.body.ok, false);
    assert.equal(failed.body.data.Errorcode, 113);
    assert.match(failed.body.message, /bill fetch/);

    emu.setFaults({ timeout_next: 1, timeout_ms: 1300 });
    const slow = await info(t, 'DT', '5123456781', t.liveKey);
    assert.equal(slow.status, 504, slow.text);
    assert.equal(slow.body.data.Errorcode, 113);

    // A failure is not cached: asked again, the partner answers.
    const again = await info(t, 'DT', '5123456780', t.liveKey);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.data.name, subscriberFor(BILLERS.find((b) => b.name === 'Dish TV')!, '5123456780').customerName);
  });
});
