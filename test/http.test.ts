// The HTTP surface itself: envelope on every status, request ids, authentication failures, method
// and path errors, media type, size, hostile bodies, and the 500 that leaks nothing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { addEntry } from '../src/access/allowlist.js';
import { PATHS, startApp, VALID, type TestApp } from './harness.js';

function assertError(r: { status: number; body: any; headers: Record<string, unknown> }, status: number, errorcode: number) {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.equal(r.body.statuscode, 'ERR');
  assert.equal(r.body.ok, false);
  assert.equal(typeof r.body.message, 'string');
  assert.equal(r.body.data.Errorcode, errorcode);
  assert.equal(r.body.data.Status, 'Failed');
  assert.match(String(r.headers['x-request-id']), /^req_[0-9A-Za-z]{20}$/);
  assert.equal(r.body.data.request_id, r.headers['x-request-id']);
}

describe('HTTP surface', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  it('every response carries a distinct X-Request-Id', async () => {
    const a = await t.call('POST', PATHS.signature, { body: VALID.signature() });
    const b = await t.call('POST', PATHS.signature, { body: VALID.signature() });
    assert.match(String(a.headers['x-request-id']), /^req_/);
    assert.notEqual(a.headers['x-request-id'], b.headers['x-request-id']);
  });

  describe('401 / Errorcode 101', () => {
    it('no key', async () => {
      const r = await t.call('POST', PATHS.signature, { body: VALID.signature(), key: null });
      assertError(r, 401, 101);
      assert.match(r.body.message, /missing/i);
    });
    it('not a bearer header', async () => assertError(await t.call('POST', PATHS.signature, { body: VALID.signature(), key: null, headers: { authorization: 'Basic abc' } }), 401, 101));
    it('garbage key', async () => assertError(await t.call('POST', PATHS.signature, { body: VALID.signature(), key: 'nonsense' }), 401, 101));
    it('well-formed unknown key', async () => {
      const r = await t.call('POST', PATHS.signature, { body: VALID.signature(), key: `sk_test_${'a'.repeat(40)}` });
      assertError(r, 401, 101);
      assert.match(r.body.message, /no such key/);
    });
    it('revoked key says revoked', async () => {
      const { createKey } = await import('../src/accounts/store.js');
      const k = await createKey(t.store.db, t.accountId, 'sandbox');
      await t.store.db.updateTable('api_keys').set({ revoked_at: new Date() }).where('id', '=', k.id).execute();
      const r = await t.call('POST', PATHS.signature, { body: VALID.signature(), key: k.key });
      assertError(r, 401, 101);
      assert.match(r.body.message, /revoked/);
    });
    it('expired key says expired', async () => {
      const { createKey } = await import('../src/accounts/store.js');
      const k = await createKey(t.store.db, t.accountId, 'sandbox');
      await t.store.db.updateTable('api_keys').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', k.id).execute();
      const r = await t.call('POST', PATHS.signature, { body: VALID.signature(), key: k.key });
      assertError(r, 401, 101);
      assert.match(r.body.message, /expired/);
    });
    it('auth comes before body checks', async () => {
      assertError(await t.call('POST', PATHS.signature, { payload: '{bad json', key: null, headers: { 'content-type': 'application/json' } }), 401, 101);
    });
    it('every authenticated route refuses a missing key', async () => {
      for (const [m, p] of [['GET', '/api/v1/account/wallet'], ['GET', '/api/v1/transactions/abc'], ['GET', '/api/v1/dth/operators'], ['GET', PATHS.upi]]) {
        assertError(await t.call(m!, p!, { key: null }), 401, 101);
      }
    });
  });


  it('400 / 103 on invalid JSON', async () => {
    const r = await t.call('POST', PATHS.signature, { payload: '{"reference_id": "x",', headers: { 'content-type': 'application/json' } });
    assertError(r, 400, 103);
  });

  it('404 / 109 on an unknown path, 405 / 110 with Allow on a wrong method', async () => {
    assertError(await t.call('POST', '/api/v1/nope'), 404, 109);
    assertError(await t.call('GET', '/api/v1/transactions/does-not-exist'), 404, 109);
    const r = await t.call('DELETE', PATHS.recharge);
    assertError(r, 405, 110);
    assert.equal(r.headers.allow, 'POST');
    const g = await t.call('PUT', PATHS.upi);
    assertError(g, 405, 110);
    assert.match(String(g.headers.allow), /GET/);
  });

  it('413 / 111 over 64 KiB', async () => {
    const r = await t.call('POST', PATHS.bank, { body: { ...VALID.bank(), pad: 'x'.repeat(70 * 1024) } });
    assertError(r, 413, 111);
  });

  it('415 / 112 when the body is not JSON', async () => {
    assertError(await t.call('POST', PATHS.bank, { payload: 'mobile=9876543210', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 112);
    assertError(await t.call('POST', PATHS.bank, { payload: 'hello', headers: { 'content-type': 'text/plain' } }), 415, 112);
    assertError(await t.call('GET', PATHS.upi, { payload: 'a=b', headers: { 'content-type': 'text/plain' } }), 415, 112);
  });

  describe('hostile bodies get a 4xx envelope, never a 5xx', () => {
    const hostile: Array<[string, string]> = [
      ['__proto__ key', '{"reference_id":"x","consent":true,"input":"a","__proto__":{"admin":true}}'],
      ['constructor.prototype', '{"reference_id":"x","consent":true,"input":"a","constructor":{"prototype":{"x":1}}}'],
      ['deep nesting', `{"input":${'['.repeat(20000)}${']'.repeat(20000)}}`],
      ['deep objects', `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`],
      ['huge string', JSON.stringify({ reference_id: 'x', consent: true, input: 'y'.repeat(60 * 1024) }).replace('"x"', `"${'r'.repeat(1000)}"`)],
      ['array body', '[1,2,3]'],
      ['string body', '"hello"'],
      ['null body', 'null'],
      ['number body', '12'],
      ['wrong types everywhere', '{"reference_id":[],"consent":{},"input":null,"name":false}'],
      ['empty body', ''],
      ['unicode junk', '{"reference_id":"\\u0000\\ud800","consent":true,"input":"\\u0000"}'],
    ];
    for (const [name, payload] of hostile) {
      it(name, async () => {
        const r = await t.call('POST', PATHS.signature, { payload, headers: { 'content-type': 'application/json' } });
        assert.ok(r.status >= 400 && r.status < 500, `${name}: ${r.status} ${r.text.slice(0, 200)}`);
        assert.equal(r.body.statuscode, 'ERR');
        assert.equal(r.body.ok, false);
        assert.equal(typeof r.body.data.Errorcode, 'number');
      });
    }
    it('a __proto__ key pollutes nothing', async () => {
      await t.call('POST', PATHS.signature, { payload: '{"__proto__":{"polluted":"yes"}}', headers: { 'content-type': 'application/json' } });
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });
  });

  it('the wallet answers balance, held and currency; sandbox calls never change it', async () => {
    await addEntry(t.store.db, t.accountId, 'live', '127.0.0.1');
    assert.deepEqual((await t.call('GET', '/api/v1/account/wallet', { key: t.liveKey })).body.data, { balance: 0, held: 0, currency: 'INR' });
    const before = await t.call('GET', '/api/v1/account/wallet');
    assert.deepEqual(before.body.data, { balance: 1_000_000, held: 0, currency: 'INR', simulated: true });
    await t.call('POST', PATHS.upi, { body: VALID.upi() });
    await t.call('POST', PATHS.recharge, { body: VALID.recharge() });
    assert.deepEqual((await t.call('GET', '/api/v1/account/wallet')).body.data, before.body.data);
  });

  it('transactions are visible only to their own account', async () => {
    const body = VALID.signature();
    await t.call('POST', PATHS.signature, { body });
    const { createAccount, createKey } = await import('../src/accounts/store.js');
    const other = await createKey(t.store.db, (await createAccount(t.store.db, 'Other')).id, 'sandbox');
    assertError(await t.call('GET', `/api/v1/transactions/${body.reference_id}`, { key: other.key }), 404, 109);
    assert.equal((await t.call('GET', `/api/v1/transactions/${body.reference_id}`)).status, 200);
  });

  it('OpenAPI 3.1 at /openapi.json lists the six operations; docs at /docs', async () => {
    const r = await t.call('GET', '/openapi.json', { key: null });
    assert.equal(r.body.openapi, '3.1.0');
    for (const p of Object.values(PATHS)) assert.ok(r.body.paths[p], p);
    assert.ok(r.body.paths[PATHS.upi].get.parameters.some((p: { name: string }) => p.name === 'vpa'));
    assert.equal((await t.call('GET', '/docs/', { key: null })).status, 200);
  });
});

describe('HTTP surface: internal errors', () => {
  it('a store failure is a 500 / 199 envelope with no SQL, stack or secret', async () => {
    const t = await startApp();
    try {
      await t.store.db.schema.dropTable('transactions').cascade().execute();
      const r = await t.call('POST', PATHS.signature, { body: VALID.signature() });
      assertError(r, 500, 199);
      assert.doesNotMatch(r.text, /transactions|relation|select|insert|at \w+ \(|\.ts:|\.js:/i);
    } finally {
      await t.close();
    }
  });
});
