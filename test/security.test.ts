// The shared security suite (after Unkey's common route tests): every authenticated route refuses a
// missing, garbage, revoked or expired key, and no route shows one account's or one environment's
// data to another. New routes must be added to ROUTES; a test fails if one is missing. Handles that
// travel outside the API (a document-locker client id passes through the end user's browser) are
// probed too: holding one must not let another account or environment use it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createAccount, createKey, revokeKey } from '../src/accounts/store.js';
import { approve } from '../src/access/approvals.js';
import { PATHS, ROUTES, startApp, VALID, type TestApp } from './harness.js';

describe('security: every authenticated route', () => {
  let t: TestApp;
  let revoked: string;
  let expired: string;
  before(async () => {
    t = await startApp();
    const r = await createKey(t.store.db, t.accountId, 'sandbox');
    await revokeKey(t.store.db, r.id);
    revoked = r.key;
    const e = await createKey(t.store.db, t.accountId, 'sandbox');
    await t.store.db.updateTable('api_keys').set({ expires_at: new Date(Date.now() - 1) }).where('id', '=', e.id).execute();
    expired = e.key;
  });
  after(() => t.close());

  it('the list covers every /api/v1 route the API documents', async () => {
    const doc = (await t.call('GET', '/openapi.json', { key: null })).body;
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .filter(([p]) => p.startsWith('/api/v1/'))
      .flatMap(([p, ms]) => Object.keys(ms).map((m) => `${m.toUpperCase()} ${p}`));
    const covered = new Set(ROUTES.map((r) => `${r.method} ${r.path}`));
    for (const d of documented) assert.ok(covered.has(d), `not covered by the security suite: ${d}`);
  });

  for (const route of ROUTES) {
    const url = route.path.replace('{reference_id}', 'some-ref').replace('{id}', 'we_AAAAAAAAAAAAAAAAAAAA').replace('{request_id}', 'req_AAAAAAAAAAAAAAAAAAAA');
    for (const [name, key, pattern] of [
      ['no key', null, /missing/i],
      ['garbage key', 'definitely-not-a-key', /invalid/i],
      ['unknown key', `sk_live_${'Z'.repeat(40)}`, /no such key/],
      ['revoked key', 'REVOKED', /revoked/],
      ['expired key', 'EXPIRED', /expired/],
    ] as const) {
      it(`${route.method} ${route.path}: ${name} → 401`, async () => {
        const k = key === 'REVOKED' ? revoked : key === 'EXPIRED' ? expired : key;
        const r = await t.call(route.method, url, { key: k, body: route.body?.() });
        assert.equal(r.status, 401, r.text);
        assert.equal(r.body.data.Errorcode, 101);
        assert.match(r.body.message, pattern);
      });
    }
  }
});

describe('security: isolation between accounts and environments', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  it("another account's transaction is a 404, not a 403", async () => {
    const body = VALID.upi();
    assert.equal((await t.call('POST', PATHS.upi, { body })).status, 200);
    const other = await createKey(t.store.db, (await createAccount(t.store.db, 'Other')).id, 'sandbox');
    const r = await t.call('GET', `/api/v1/transactions/${body.reference_id}`, { key: other.key });
    assert.equal(r.status, 404);
    assert.equal(r.body.data.Errorcode, 109);
  });

  it('a sandbox transaction is invisible to the live key of the same account', async () => {
    const body = VALID.signature();
    await t.call('POST', PATHS.signature, { body });
    const { addEntry } = await import('../src/access/allowlist.js');
    await addEntry(t.store.db, t.accountId, 'live', '127.0.0.1');
    const r = await t.call('GET', `/api/v1/transactions/${body.reference_id}`, { key: t.liveKey });
    assert.equal(r.status, 404);
  });

  it('idempotency keys do not cross accounts', async () => {
    const body = VALID.upi();
    await t.call('POST', PATHS.upi, { body });
    const other = await createKey(t.store.db, (await createAccount(t.store.db, 'Third')).id, 'sandbox');
    const r = await t.call('POST', PATHS.upi, { body, key: other.key });
    assert.equal(r.status, 200);
    assert.equal(r.headers['idempotent-replayed'], undefined);
  });

  it("another account's webhook endpoint is a 404 on every verb", async () => {
    const mine = await t.call('POST', '/api/v1/webhook-endpoints', { body: { url: 'https://example.com/hooks' } });
    assert.equal(mine.status, 200, mine.text);
    const other = await createKey(t.store.db, (await createAccount(t.store.db, 'Snoop')).id, 'sandbox');
    const id = mine.body.data.id;
    for (const [m, p, body] of [
      ['DELETE', `/api/v1/webhook-endpoints/${id}`, undefined],
      ['POST', `/api/v1/webhook-endpoints/${id}/rotate-secret`, {}],
      ['GET', `/api/v1/webhook-endpoints/${id}/deliveries`, undefined],
      ['POST', `/api/v1/webhook-endpoints/${id}/replay`, { since: '2026-01-01T00:00:00Z' }],
    ] as const) {
      assert.equal((await t.call(m, p, { key: other.key, body })).status, 404, `${m} ${p}`);
    }
    assert.equal((await t.call('GET', '/api/v1/webhook-endpoints', { key: other.key })).body.data.items.length, 0);
  });

  describe("a document-locker client id is its initializer's alone", () => {
    let other: string;
    let id: string;
    let consentPath: string;
    before(async () => {
      other = (await createKey(t.store.db, (await createAccount(t.store.db, 'Tenant B')).id, 'sandbox')).key;
      const { addEntry } = await import('../src/access/allowlist.js');
      await addEntry(t.store.db, t.accountId, 'live', '127.0.0.1');
      await approve(t.store.db, t.accountId, 'all');
      const init = await t.call('POST', PATHS.init, { body: VALID.init() });
      assert.equal(init.status, 200, init.text);
      id = init.body.data.doclocker__client__id;
      consentPath = new URL(init.body.data.authorization_url).pathname;
    });

    /** A download that must be the 404 of an id issued by nobody, leaving no transaction behind. */
    const refused = async (key: string) => {
      const body = { ...VALID.aadhaar(), doclocker__client__id: id };
      const r = await t.call('POST', PATHS.aadhaar, { key, body });
      assert.equal(r.status, 404, r.text);
      assert.equal(r.body.ok, false);
      assert.equal(r.body.data.Errorcode, 109);
      assert.doesNotMatch(r.text, /consent|pending|authori[sz]ed|Aadhaar_Xml_Data/i);
      const rows = await t.store.db.selectFrom('transactions').select('id').where('reference_id', '=', body.reference_id).execute();
      assert.equal(rows.length, 0, 'a refused download records nothing');
    };

    it("another account's key: 404 while consent is pending and after the user allowed", async () => {
      await refused(other);
      assert.equal((await t.call('POST', `${consentPath}/allow`, { key: null })).status, 200);
      await refused(other);
      const mine = await t.call('POST', PATHS.aadhaar, { body: { ...VALID.aadhaar(), doclocker__client__id: id } });
      assert.equal(mine.body.data.status, 'success', mine.text);
    });

    it("the same account's key of the other environment: 404", async () => {
      await refused(t.liveKey);
    });

    it('a sandbox id issued by nobody stays accepted (synthetic data, CONTRACT §3)', async () => {
      const r = await t.call('POST', PATHS.aadhaar, { key: other, body: VALID.aadhaar() });
      assert.equal(r.body.data.status, 'success', r.text);
    });
  });

  it('the wallet read is the caller’s own', async () => {
    const a = await createAccount(t.store.db, 'Rich');
    const { topUp } = await import('../src/ledger/ledger.js');
    await topUp(t.store.db, a.id, 12_345, null);
    const k = await createKey(t.store.db, a.id, 'sandbox');
    assert.equal((await t.call('GET', '/api/v1/account/wallet', { key: k.key })).body.data.balance, 123.45);
    assert.equal((await t.call('GET', '/api/v1/account/wallet')).body.data.balance, 0);
  });
});
