// UPI ID verification (CONTRACT §14) through the HTTP surface: the answer's shape, the sandbox's magic
// values and determinism, name_match, replay, batches; and "verify once, pay many": a UPI payout with
// beneficiary_name uses the account's recent verification of the same VPA (not an older one than the
// reuse window, not another account's, not an invalid one) and says so in name_match.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, PATHS, ref, startApp, VALID, type TestApp } from '../../../test/harness.js';
import { accounts } from '../../admin/actions/index.js';
import { createAccount, createKey } from '../../accounts/store.js';
import { vpaHolderName } from '../../../shared/people.js';

const PATH = '/api/v1/upi-payment/vpa-verification';
const body = (extra: Record<string, unknown> = {}) => ({ reference_id: ref('vpav'), consent: true, vpa: 'ramesh.kumar@okbank', ...extra });

describe('vpa-verification (sandbox)', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  const verify = (extra: Record<string, unknown> = {}, key = t.key) => t.call('POST', PATH, { body: body(extra), key });
  const final = (reference: string) =>
    eventually(async () => {
      const p = await t.call('GET', `/api/v1/transactions/${reference}`);
      return p.body.data.status !== 'pending' && p.body.data;
    }, 10_000);

  it('answers valid with the holder the payout name check finds, the account behind it, deterministically', async () => {
    const r = await verify({ name: 'Ramesh Kumar' });
    assert.equal(r.status, 200, r.text);
    const d = r.body.data;
    assert.deepEqual([r.body.statuscode, d.status, d.vpa_status, d.vpa, d.name_at_bank], ['TXN', 'success', 'valid', 'ramesh.kumar@okbank', 'Ramesh Kumar']);
    assert.match(d.ifsc, /^[A-Z]{4}0[A-Z0-9]{6}$/);
    assert.equal(d.account_type, 'savings');
    assert.equal(d.name_match.decision, 'approve');
    const again = (await verify()).body.data;
    assert.deepEqual([again.ifsc, again.name_at_bank], [d.ifsc, d.name_at_bank]);
    assert.equal((await verify({ vpa: '9876543210@upi' })).body.data.name_at_bank, vpaHolderName('9876543210@upi'));
  });

  it('magic values: novpa@sandbox invalid (success), failure@sandbox unknown (failed), pending@sandbox and pendingfail@sandbox settle later', async () => {
    const invalid = (await verify({ vpa: 'novpa@sandbox' })).body;
    assert.deepEqual([invalid.statuscode, invalid.data.vpa_status, invalid.data.name_at_bank], ['TXN', 'invalid', null]);
    assert.match(invalid.data.reason, /does not exist/);
    const unknown = (await verify({ vpa: 'failure@sandbox' })).body;
    assert.deepEqual([unknown.statuscode, unknown.data.status, unknown.data.vpa_status], ['ERR', 'failed', 'unknown']);
    for (const [vpa, status, found] of [['pending@sandbox', 'success', 'valid'], ['pendingfail@sandbox', 'failed', 'unknown']] as const) {
      const b = body({ vpa });
      const r = (await t.call('POST', PATH, { body: b })).body;
      assert.deepEqual([r.statuscode, r.data.vpa_status, r.data.verified_at], ['TUP', 'unknown', null]);
      const f = await final(b.reference_id);
      assert.deepEqual([f.status, f.vpa_status], [status, found], vpa);
    }
  });

  it('validation: a bad vpa is a 422 naming vpa; replay by reference_id', async () => {
    const bad = await verify({ vpa: 'not-a-vpa' });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.data.errors.map((e: { field: string }) => e.field), ['vpa']);
    const b = body();
    const first = await t.call('POST', PATH, { body: b });
    const replay = await t.call('POST', PATH, { body: b });
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.text, first.text);
  });

  it('runs in JSON, CSV and NDJSON batches', async () => {
    const done = async (id: string) =>
      eventually(async () => {
        const r = await t.call('GET', `/api/v1/batches/${id}`);
        return r.body.data.status === 'completed' && r.body.data.counts.pending === 0 && r.body.data;
      }, 20_000);
    const json = await t.call('POST', '/api/v1/batches', { body: { operation: 'vpa-verification', items: [body(), body({ vpa: 'failure@sandbox' })] } });
    assert.equal(json.body.statuscode, 'TUP', json.text);
    assert.deepEqual((await done(json.body.data.id)).counts, { total: 2, invalid: 0, pending: 0, success: 1, failed: 1, cancelled: 0 });
    const refs = [ref('vpav'), ref('vpav')];
    const csv = `reference_id,consent,vpa,name\n${refs[0]},true,priya.sharma@okaxis,Priya Sharma\n${refs[1]},true,novpa@sandbox,\n`;
    const c = await t.call('POST', '/api/v1/batches?operation=vpa-verification', { payload: csv, headers: { 'content-type': 'text/csv' } });
    assert.equal(c.body.statuscode, 'TUP', c.text);
    assert.deepEqual((await done(c.body.data.id)).counts, { total: 2, invalid: 0, pending: 0, success: 2, failed: 0, cancelled: 0 });
    const row = (await t.call('GET', `/api/v1/transactions/${refs[0]}`)).body.data;
    assert.deepEqual([row.vpa_status, row.name_at_bank, row.name_match.decision], ['valid', 'Priya Sharma', 'approve']);
    const nd = [body(), body({ vpa: 'bad' })].map((x) => JSON.stringify(x)).join('\n');
    const n = await t.call('POST', '/api/v1/batches?operation=vpa-verification', { payload: nd, headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(n.body.statuscode, 'TUP', n.text);
    assert.deepEqual((await done(n.body.data.id)).counts, { total: 2, invalid: 1, pending: 0, success: 1, failed: 0, cancelled: 0 });
  });

  describe('verify once, pay many', () => {
    const pay = (vpa: string, beneficiary_name: string, key = t.key) => t.call('POST', PATHS.upi, { body: { ...VALID.upi(), vpa, beneficiary_name }, key });

    it('a payout with beneficiary_name uses a recent verification of the same VPA (any case) and says which', async () => {
      const v = body({ vpa: 'anita.desai@okicici' });
      const verified = (await t.call('POST', PATH, { body: v })).body.data;
      const r = await pay('Anita.Desai@OKICICI', 'Anita Desai');
      assert.equal(r.body.data.status, 'success', r.text);
      const nm = r.body.data.name_match;
      assert.equal(nm.decision, 'approve');
      assert.equal(nm.source, 'vpa-verification');
      assert.equal(nm.verification.reference_id, v.reference_id);
      assert.equal(nm.verification.verified_at, verified.verified_at);
      assert.match(nm.verification.txn_id, /^txn_/);
      const metrics = await t.call('GET', '/metrics', { key: null });
      assert.match(metrics.text, /sangam_payee_verification_reused_total\{operation="vpa-verification",environment="sandbox"\} [1-9]/);
    });

    it('a verification older than the window, of another VPA, invalid, or another account\'s is not used', async () => {
      const plain = async (vpa: string) => (await pay(vpa, 'Ravi Menon')).body.data.name_match;
      // older than the default 24 h
      const old = body({ vpa: 'ravi.menon@okhdfc' });
      await t.call('POST', PATH, { body: old });
      await t.store.db.updateTable('transactions').set({ verified_at: new Date(Date.now() - 25 * 3600_000) }).where('reference_id', '=', old.reference_id).execute();
      assert.equal((await plain('ravi.menon@okhdfc')).source, undefined);
      // the account's own window: 0 never reuses, a longer one reaches the old one
      await accounts.setVerificationReuse(t.store.db, 'cli', { accountId: t.accountId, windowS: 26 * 3600 });
      assert.equal((await plain('ravi.menon@okhdfc')).source, 'vpa-verification');
      await accounts.setVerificationReuse(t.store.db, 'cli', { accountId: t.accountId, windowS: 0 });
      await t.call('POST', PATH, { body: body({ vpa: 'ravi.menon@okhdfc' }) });
      assert.equal((await plain('ravi.menon@okhdfc')).source, undefined);
      await accounts.setVerificationReuse(t.store.db, 'cli', { accountId: t.accountId, windowS: null });
      assert.deepEqual(await accounts.verificationReuse(t.store.db, t.accountId), { reuse_window_s: 86400 });
      // an invalid finding is not a holder's name
      await t.call('POST', PATH, { body: body({ vpa: 'novpa@sandbox' }) });
      assert.equal((await pay('novpa@sandbox', 'Ravi Menon')).body.data.message, 'The VPA does not exist; nothing was paid');
      // another account's verification
      const other = await createAccount(t.store.db, 'Other');
      const otherKey = (await createKey(t.store.db, other.id, 'sandbox')).key;
      await t.call('POST', PATH, { body: body({ vpa: 'meera.iyer@oksbi' }), key: otherKey });
      assert.equal((await plain('meera.iyer@oksbi')).source, undefined);
      assert.equal((await pay('meera.iyer@oksbi', 'Meera Iyer', otherKey)).body.data.name_match.source, 'vpa-verification');
    });
  });
});
