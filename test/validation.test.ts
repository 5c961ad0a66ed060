// Every field rule of CONTRACT §3, each with its own case: the answer is 422 / Errorcode 104 with the
// contract's message and errors[] naming exactly the bad field.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { addEntry } from '../src/access/allowlist.js';
import { approve } from '../src/access/approvals.js';
import { OPERATION_SLUGS } from '../src/operations/registry.js';
import { PATHS, startApp, VALID, type TestApp } from './harness.js';

type Op = keyof typeof VALID;
const CASES: Array<[Op, string, unknown, string?]> = [
  // [operation, field, bad value, expected field name if different]
  ['signature', 'reference_id', undefined],
  ['signature', 'reference_id', ''],
  ['signature', 'reference_id', 'a'.repeat(65)],
  ['signature', 'reference_id', 'has space'],
  ['signature', 'reference_id', 'emoji-😀'],
  ['signature', 'reference_id', 42],
  ['signature', 'consent', undefined],
  ['signature', 'consent', false],
  ['signature', 'consent', 'true'],
  ['signature', 'consent', 1],
  ['signature', 'input', undefined],
  ['signature', 'input', ''],
  ['signature', 'input', { nested: true }],
  ['signature', 'name', ''],
  ['init', 'redirect_url', 'ftp://x.example/'],
  ['init', 'redirect_url', 'not a url'],
  ['aadhaar', 'doclocker__client__id', undefined],
  ['aadhaar', 'doclocker__client__id', 'short'],
  ['aadhaar', 'aadhaar_number', '234123412345'], // bad Verhoeff check digit
  ['aadhaar', 'aadhaar_number', '134123412346'], // starts with 1
  ['aadhaar', 'aadhaar_number', '23412341234'], // 11 digits
  ['aadhaar', 'aadhaar_number', '91234567890123'], // 14 digits: neither Aadhaar nor VID
  ['aadhaar', 'aadhaar_number', 234123412346],
  ['bank', 'mobile', undefined],
  ['bank', 'mobile', '5876543210'],
  ['bank', 'mobile', '98765432101'],
  ['bank', 'mobile', '+919876543210'],
  ['bank', 'mobile', 9876543210],
  ['bank', 'account_number', '12345678'],
  ['bank', 'account_number', '1234567890123456789'],
  ['bank', 'account_number', '12345abc901'],
  ['bank', 'ifsc', 'HDFC1234567'],
  ['bank', 'ifsc', 'hdfc0001234'],
  ['bank', 'ifsc', 'HDFC000123'],
  ['upi', 'vpa', undefined],
  ['upi', 'vpa', 'no-at-sign'],
  ['upi', 'vpa', 'a@'],
  ['upi', 'vpa', 'x@1bank'],
  ['upi', 'amount', undefined],
  ['upi', 'amount', 0],
  ['upi', 'amount', -5],
  ['upi', 'amount', 10.001],
  ['upi', 'amount', 100000.01],
  ['upi', 'amount', '100'],
  ['upi', 'idempotency_key', undefined],
  ['upi', 'idempotency_key', 'not-a-uuid'],
  ['upi', 'currency', 'USD'],
  ['upi', 'beneficiary_id', 'bad id!'],
  ['recharge', 'mobile', '12345'],
  ['recharge', 'operator', 'XX'],
  ['recharge', 'operator', 'jio'],
  ['recharge', 'amount', 10000.01],
  ['recharge', 'amount', 0.001],
  ['recharge', 'circle', 'ZZ'],
  ['recharge', 'type', 'prepay'],
  ['recharge', 'idempotency_key', 'bad key!'],
  ['dth', 'subscriber_id', undefined],
  ['dth', 'subscriber_id', '12345'],
  ['dth', 'subscriber_id', 'ABC1234567'],
  ['dth', 'operator', 'JIO'],
  ['dth', 'amount', 50000.01],
  ['names', 'name_1', undefined],
  ['names', 'name_1', ''],
  ['names', 'name_2', 'x'.repeat(201)],
  ['names', 'name_2', 12345],
  // The engine's own refusals (no letters to compare), found before anything is recorded.
  ['names', 'name_1', '12345 678'],
  ['names', 'name_2', '-- / --'],
];

const PATH: Record<Op, string> = PATHS;

describe('validation: every rule', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  for (const [op, field, value] of CASES) {
    it(`${op}: ${field} = ${JSON.stringify(value) ?? 'missing'} → 422/104 naming ${field}`, async () => {
      const body: Record<string, unknown> = { ...VALID[op]() };
      if (value === undefined) delete body[field];
      else body[field] = value;
      const r = await t.call('POST', PATH[op], { body });
      assert.equal(r.status, 422, r.text);
      assert.equal(r.body.statuscode, 'ERR');
      assert.equal(r.body.ok, false);
      assert.match(r.body.message, /check the required parameters/);
      assert.equal(r.body.data.Errorcode, 104);
      assert.equal(r.body.data.Status, 'Failed');
      assert.equal(r.body.data.request_id, r.headers['x-request-id']);
      assert.deepEqual(r.body.data.errors.map((e: { field: string }) => e.field), [field]);
      assert.ok(r.body.data.errors[0].message.length > 5);
    });
  }

  it('names every bad field at once', async () => {
    const r = await t.call('POST', PATHS.upi, { body: { reference_id: 'ok', consent: false, vpa: 'x', amount: -1 } });
    assert.equal(r.status, 422);
    assert.deepEqual(r.body.data.errors.map((e: { field: string }) => e.field).sort(), ['amount', 'consent', 'idempotency_key', 'vpa']);
  });

  it('coerces query values on the GET operation, and still validates them', async () => {
    const q = { ...VALID.upi(), amount: 'abc', consent: 'true' } as Record<string, unknown>;
    const r = await t.call('GET', PATHS.upi, { query: Object.fromEntries(Object.entries(q).map(([k, v]) => [k, String(v)])) });
    assert.equal(r.status, 422);
    assert.deepEqual(r.body.data.errors.map((e: { field: string }) => e.field), ['amount']);
  });

  it('the idempotency key header and body field must agree', async () => {
    const r = await t.call('POST', PATHS.upi, { body: VALID.upi(), headers: { 'idempotency-key': crypto.randomUUID() } });
    assert.equal(r.status, 422);
    assert.equal(r.body.data.errors[0].field, 'idempotency_key');
  });

  it('accepts the largest amounts and exactly 2 decimals', async () => {
    for (const [op, amount] of [['upi', 100000], ['recharge', 10000], ['dth', 50000], ['upi', 0.01], ['recharge', 19.99]] as const) {
      const r = await t.call('POST', PATH[op], { body: { ...VALID[op](), amount } });
      assert.equal(r.status, 200, `${op} ${amount}: ${r.text}`);
    }
  });
});

// Issue #22, finding 1: positive amounts worth 0 paise were executed (`{"amount": 5e-324}` answered
// success with amount 0, live too): Ajv's multipleOf tolerance. An amount is at least ₹0.01 and a
// whole number of paise, checked exactly.
describe('amounts are whole paise, at least ₹0.01 (issue #22)', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
    await addEntry(t.store.db, t.accountId, 'live', '127.0.0.1');
    await approve(t.store.db, t.accountId, OPERATION_SLUGS);
  });
  after(() => t.close());

  const TINY = [5e-324, 1e-12, 1e-9, 0.001, 0.009, 19.999, 19.990000000001, 0.01 + 1e-15, -0, -0.01, 1e308];
  const MONEY = ['upi', 'recharge', 'dth'] as const;

  for (const [env, key] of [['sandbox', () => t.key], ['live', () => t.liveKey]] as const) {
    it(`${env}: 5e-324, 1e-12, 19.999 and other amounts that are not whole paise are 422 naming amount; nothing runs`, async () => {
      for (const op of MONEY) {
        for (const amount of TINY) {
          const body = { ...VALID[op](), amount };
          const r = await t.call('POST', PATH[op], { key: key(), body });
          assert.equal(r.status, 422, `${env} ${op} ${amount}: ${r.text}`);
          assert.equal(r.body.data.Errorcode, 104);
          assert.deepEqual(r.body.data.errors.map((e: { field: string }) => e.field), ['amount'], `${op} ${amount}`);
          assert.match(r.body.data.errors[0].message, /at least 0\.01 .*at most 2 decimals/);
          const rows = await t.store.db.selectFrom('transactions').select('id').where('reference_id', '=', body.reference_id).execute();
          assert.equal(rows.length, 0, `${env} ${op} ${amount} recorded a transaction`);
        }
      }
    });
  }

  it('the raw JSON texts of the report (5e-324, 1e-12, 19.999) are refused as sent', async () => {
    for (const op of MONEY) {
      for (const text of ['5e-324', '1e-12', '19.999', '4.9406564584124654e-324']) {
        const body = JSON.stringify({ ...VALID[op](), amount: 1 }).replace('"amount":1', `"amount":${text}`);
        const r = await t.call('POST', PATH[op], { payload: body, headers: { 'content-type': 'application/json' } });
        assert.equal(r.status, 422, `${op} ${text}: ${r.text}`);
        assert.deepEqual(r.body.data.errors.map((e: { field: string }) => e.field), ['amount']);
      }
    }
  });

  it('19.99, 0.07, 1.15 and 0.01 pass and are answered as the same amount', async () => {
    for (const amount of [19.99, 0.07, 1.15, 0.01, 99999.99]) {
      const r = await t.call('POST', PATHS.upi, { body: { ...VALID.upi(), amount } });
      assert.equal(r.status, 200, `${amount}: ${r.text}`);
      assert.equal(r.body.data.amount, amount);
    }
    for (const op of ['recharge', 'dth'] as const) {
      for (const amount of [19.99, 0.07, 1.15]) assert.equal((await t.call('POST', PATH[op], { body: { ...VALID[op](), amount } })).status, 200, `${op} ${amount}`);
    }
  });

  it('the query-string form refuses them too', async () => {
    for (const amount of ['5e-324', '1e-12', '0.001', '19.999', '0.00']) {
      const q = { ...VALID.upi(), amount, consent: 'true' } as Record<string, unknown>;
      const r = await t.call('GET', PATHS.upi, { query: Object.fromEntries(Object.entries(q).map(([k, v]) => [k, String(v)])) });
      assert.equal(r.status, 422, `${amount}: ${r.text}`);
      assert.deepEqual(r.body.data.errors.map((e: { field: string }) => e.field), ['amount']);
    }
  });
});
