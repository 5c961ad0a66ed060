// Regression: one tenant downloading another tenant's end-user Aadhaar record. Account A initializes
// a document-locker request and its user allows; account B, holding A's doclocker__client__id (it
// passes through the user's browser, so it is no secret), calls download. B must get the 404 of an id
// issued by nobody — before and after consent — and nothing may be recorded, charged or sent to the
// partner on B's behalf. Replayed in the sandbox (Sangam's consent page) and in live (the partner
// simulator as a separate process, its consent page posted as a browser form).
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createAccount, createKey } from '../src/accounts/store.js';
import { addEntry } from '../src/access/allowlist.js';
import { approve } from '../src/access/approvals.js';
import { OPERATION_SLUGS } from '../src/operations/registry.js';
import { topUp } from '../src/ledger/ledger.js';
import { eventually, PATHS, startApp, VALID, type TestApp } from './harness.js';
import { startLive, type LiveApp } from './live-harness.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** B's download of `id` is the 404 / 109 of an unknown id and leaves no transaction behind. */
async function assertRefused(t: TestApp, key: string, id: string): Promise<void> {
  const body = { ...VALID.aadhaar(), doclocker__client__id: id };
  const r = await t.call('POST', PATHS.aadhaar, { key, body });
  assert.equal(r.status, 404, r.text);
  assert.equal(r.body.statuscode, 'ERR');
  assert.equal(r.body.data.Errorcode, 109);
  // As fields of the answer, not as letters anywhere: a random request id once held "doB".
  assert.doesNotMatch(r.text, /"(consent[a-z_]*|Aadhaar_Xml_Data|Full_Name|Dob|Profile_Image)"\s*:/i);
  const rows = await t.store.db.selectFrom('transactions').select('id').where('reference_id', '=', body.reference_id).execute();
  assert.equal(rows.length, 0);
}

describe('doclocker isolation: sandbox', () => {
  let t: TestApp;
  let bKey: string;
  before(async () => {
    t = await startApp();
    bKey = (await createKey(t.store.db, (await createAccount(t.store.db, 'Tenant B')).id, 'sandbox')).key;
  });
  after(() => t.close());

  it("B cannot download A's id, pending or allowed; A can, once allowed", async () => {
    const init = await t.call('POST', PATHS.init, { body: VALID.init() });
    const { doclocker__client__id: id, authorization_url: url } = init.body.data;
    const mineEarly = await t.call('POST', PATHS.aadhaar, { body: { ...VALID.aadhaar(), doclocker__client__id: id } });
    assert.match(mineEarly.body.data.message, /consent pending/i, 'A itself still sees "consent pending"');
    await assertRefused(t, bKey, id);

    const page = new URL(url).pathname;
    const allow = await t.call('POST', `${page}/allow`, { key: null, payload: '', headers: FORM });
    assert.equal(allow.status, 200, allow.text);
    await assertRefused(t, bKey, id);

    const mine = await t.call('POST', PATHS.aadhaar, { body: { ...VALID.aadhaar(), doclocker__client__id: id } });
    assert.equal(mine.body.data.status, 'success', mine.text);
    assert.ok(mine.body.data.Aadhaar_Xml_Data.Full_Name);
  });

  it('the /api/v1 routes still refuse a form body with 415 (the consent page parser is its own)', async () => {
    for (const path of [PATHS.init, PATHS.aadhaar]) {
      const r = await t.call('POST', path, { payload: 'reference_id=x&consent=true', headers: FORM });
      assert.equal(r.status, 415, r.text);
      assert.equal(r.body.data.Errorcode, 112);
    }
  });
});

describe('doclocker isolation: live', () => {
  let t: LiveApp;
  let bKey: string;
  let bAccount: string;
  before(async () => {
    t = await startLive();
    bAccount = (await createAccount(t.store.db, 'Tenant B')).id;
    bKey = (await createKey(t.store.db, bAccount, 'live')).key;
    await addEntry(t.store.db, bAccount, 'live', '127.0.0.1');
    await approve(t.store.db, bAccount, OPERATION_SLUGS);
    await topUp(t.store.db, bAccount, 100_000, null);
  });
  after(() => t.close());
  afterEach(() => t.assertLedger());

  const live = (body: unknown, key = t.liveKey) => t.call('POST', PATHS.aadhaar, { key, body });

  it("B cannot download A's id, pending or allowed; nothing is charged to B or sent to the partner", async () => {
    const init = await t.call('POST', PATHS.init, { key: t.liveKey, body: VALID.init() });
    assert.equal(init.body.statuscode, 'TUP', init.text);
    const { doclocker__client__id: id, authorization_url: url } = init.body.data;
    const wallet = await t.wallet(bKey);
    const calls = Object.keys(await t.sim.calls()).length;

    await assertRefused(t, bKey, id);
    // The user allows on the partner's page, posted the way a browser posts a form.
    const allow = await fetch(`${url}/allow`, { method: 'POST', headers: FORM, body: '' });
    assert.equal(allow.status, 200, await allow.text());
    await eventually(async () => (await t.call('GET', `/api/v1/transactions/${init.body.data.reference_id}`, { key: t.liveKey })).body.data.status === 'success');
    await assertRefused(t, bKey, id);
    await assertRefused(t, t.key, id); // A's own sandbox key: the other environment

    assert.deepEqual(await t.wallet(bKey), wallet);
    assert.equal(Object.keys(await t.sim.calls()).length, calls, 'no partner call on B’s behalf');

    const mine = await live({ ...VALID.aadhaar(), doclocker__client__id: id });
    assert.equal(mine.body.data.status, 'success', mine.text);
    assert.ok(mine.body.data.Aadhaar_Xml_Data.Profile_Image.length > 100);
  });

  it('a live id issued by nobody is the same 404, and the partner is not asked', async () => {
    const calls = Object.keys(await t.sim.calls()).length;
    await assertRefused(t, t.liveKey, 'dl_neverIssuedByAnyone12345');
    assert.equal(Object.keys(await t.sim.calls()).length, calls);
  });

  it("a sandbox id is refused by the same account's live key", async () => {
    const init = await t.call('POST', PATHS.init, { body: VALID.init() });
    await assertRefused(t, t.liveKey, init.body.data.doclocker__client__id);
  });

  it('a denial on the partner page fails the initialize; the download answers "consent denied"', async () => {
    const init = await t.call('POST', PATHS.init, { key: t.liveKey, body: VALID.init() });
    const { doclocker__client__id: id, authorization_url: url } = init.body.data;
    assert.equal((await fetch(`${url}/deny`, { method: 'POST', headers: FORM, body: '' })).status, 200);
    await eventually(async () => (await t.call('GET', `/api/v1/transactions/${init.body.data.reference_id}`, { key: t.liveKey })).body.data.status === 'failed');
    const r = await live({ ...VALID.aadhaar(), doclocker__client__id: id });
    assert.equal(r.body.data.status, 'failed');
    assert.match(r.body.data.message, /denied/i);
  });
});
