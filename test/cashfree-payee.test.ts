// The cashfree-verification connector's payee verifications end to end (CONTRACT §14): Sangam's HTTP
// surface with a live key, the Cashfree Verification emulator in-process, the wallet and the ledger (checked
// after every test). account-verification by BAV V2 and vpa-verification by UPI V2: a valid account and
// VPA (success, name_at_bank), an invalid one (success, account_status invalid, the fee paid once), a
// pending check settled by the documented status call, a 5xx after the work (pending, the fee held, the
// check never sent twice). Wrong credentials are the connector-level tests' (src/providers/cashfree-verification/payee.test.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCashfreeVerificationEmulator, type CashfreeVerificationEmulator } from '../partner-sim/cashfree-verification/index.js';
import { ref, type TestApp } from './harness.js';
import { liveReads, partnerSuiteEnv, partnerSuiteLife, startPartnerApp } from './live-harness.js';

const ACCOUNT = '/api/v1/bank-account/account-verification';
const VPA = '/api/v1/upi-payment/vpa-verification';
/** The default prices, in paise (src/operations/account-verification, vpa-verification). */
const FEE = { account: 200, vpa: 100 };

function startCfApp(emu: CashfreeVerificationEmulator, vars: Record<string, string> = {}): Promise<TestApp> {
  const all = { CLIENT_ID: emu.settings.clientId, CLIENT_SECRET: emu.settings.clientSecret, ...vars };
  return startPartnerApp(
    {
      ...partnerSuiteEnv('cashfreevrs', 'cashfree-verification', emu.url, all, 'account-verification'),
      SANGAM_PARTNER_ROUTES: 'account-verification=cashfreevrs;vpa-verification=cashfreevrs',
      SANGAM_PARTNER_TIMEOUT_MS: '900',
      SANGAM_RECONCILE_SCHEDULE: '0.5',
    },
    { topUpInr: 1_000 },
  );
}

describe('cashfree-verification payee verifications, end to end', () => {
  let emu: CashfreeVerificationEmulator;
  let t: TestApp;

  partnerSuiteLife(async () => {
    emu = await startCashfreeVerificationEmulator({ pendingMs: 300, latencyMs: 0 });
    t = await startCfApp(emu);
    return { emu, t };
  });

  const reads = liveReads(() => t);
  const account = (account_number: string, extra: Record<string, unknown> = {}) =>
    t.call('POST', ACCOUNT, { key: t.liveKey, body: { reference_id: ref('acv'), consent: true, account_number, ifsc: 'HDFC0000001', ...extra } });
  const vpa = (v: string) => t.call('POST', VPA, { key: t.liveKey, body: { reference_id: ref('vpv'), consent: true, vpa: v } });
  const posts = () => emu.requests().filter((q) => q.method === 'POST').length;

  it('a valid account: success, valid, the name at the bank, a penny drop with its UTR; charged once', async () => {
    const before = await reads.wallet();
    const r = await account('50100012345678', { name: 'Someone' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.statuscode, 'TXN');
    assert.equal(r.body.data.status, 'success');
    assert.equal(r.body.data.account_status, 'valid');
    assert.ok(r.body.data.name_at_bank);
    assert.equal(r.body.data.method, 'penny_drop');
    assert.ok(r.body.data.name_match);
    assert.deepEqual(await reads.wallet(), { balance: before.balance - FEE.account, held: 0 }, 'charged the fee once');
  });

  it('an invalid account is a completed check: success with account_status invalid and its reason, the fee paid', async () => {
    const before = await reads.wallet();
    const r = await account('000000000002');
    assert.equal(r.body.data.status, 'success', r.text);
    assert.equal(r.body.data.account_status, 'invalid');
    assert.match(r.body.data.reason, /blocked/);
    assert.deepEqual(await reads.wallet(), { balance: before.balance - FEE.account, held: 0 }, 'a verification pays its fee whatever it found');
  });

  it('a valid and an invalid VPA', async () => {
    const ok = await vpa('ramesh.kumar@okhdfc');
    assert.equal(ok.body.data.status, 'success', ok.text);
    assert.equal(ok.body.data.vpa_status, 'valid');
    assert.ok(ok.body.data.name_at_bank);
    const bad = await vpa('invalid@upi');
    assert.equal(bad.body.data.status, 'success', bad.text);
    assert.equal(bad.body.data.vpa_status, 'invalid');
  });

  it('a pending check (RECEIVED) is settled by the documented status call', async () => {
    const r = await account('000000000004');
    assert.equal(r.body.statuscode, 'TUP', r.text);
    assert.equal(r.body.data.account_status, 'unknown');
    const done = await reads.final(r.body.data.reference_id, 30_000);
    assert.equal(done.body.data.status, 'success', done.text);
    assert.equal(done.body.data.account_status, 'valid');
  });

  it('a 5xx after the work: pending with the fee held, never sent twice, then settled by GET /upi', async () => {
    emu.setFaults({ error_after_accept_next: 1, scope: 'create' });
    const before = posts();
    const r = await vpa('someone@okaxis');
    assert.equal(r.body.statuscode, 'TUP', r.text);
    assert.equal(r.body.data.vpa_status, 'unknown');
    const again = await t.call('POST', VPA, { key: t.liveKey, body: r.body.data.reference_id ? { reference_id: r.body.data.reference_id, consent: true, vpa: 'someone@okaxis' } : {} });
    assert.equal(again.headers['idempotent-replayed'], 'true');
    const done = await reads.final(r.body.data.reference_id, 30_000);
    assert.equal(done.body.data.status, 'success', done.text);
    assert.equal(done.body.data.vpa_status, 'valid');
    assert.equal(posts(), before + 1, 'the check was sent once: the retry replayed, the reconciler looked it up');
  });
});
