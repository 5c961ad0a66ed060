// Sangam's payee verifications (CONTRACT §14) through its HTTP API, live, against the RazorpayX emulator:
// `POST /api/v1/bank-account/account-verification` and `POST /api/v1/upi-payment/vpa-verification` reach
// RazorpayX fund account validation; a valid and an invalid account are completed checks (success, the fee
// paid once), a validation RazorpayX could not make is failed (nothing kept), one still `created` settles by
// its signed webhook; and a partner that refuses (wrong credentials) fails over to the next one routed.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { person } from '../shared/people.js';
import { startRazorpayxEmulator, type RazorpayxEmulator } from '../partner-sim/razorpayx/index.js';
import { partnerEnv } from '../partner-sim/kind.js';
import { freePort, liveReads, PARTNER_SUITE_ENV, startPartnerApp, type PartnerApp } from './live-harness.js';

const ACCOUNT = '/api/v1/bank-account/account-verification';
const VPA = '/api/v1/upi-payment/vpa-verification';
let n = 0;
const ref = (p: string) => `${p}${Date.now().toString(36)}${n++}`;

describe('payee verification through RazorpayX fund account validation, end to end', () => {
  let emu: RazorpayxEmulator;
  let t: PartnerApp;
  const reads = liveReads(() => t);

  before(async () => {
    const port = await freePort();
    emu = await startRazorpayxEmulator({ latencyMs: 0, validationMs: 0, slowValidationMs: 1500, webhookUrl: `http://127.0.0.1:${port}/partners/rzp/webhooks` });
    const s = emu.settings;
    const vars = { KEY_ID: s.keyId, KEY_SECRET: s.keySecret, ACCOUNT_NUMBER: s.accountNumber, FAV_ACCOUNT_NUMBER: s.liteAccountNumber, WEBHOOK_SECRET: s.webhookSecret, VALIDATION_WAIT_MS: '300' };
    t = await startPartnerApp(
      {
        // `bad` (wrong credentials) is asked first and refuses: the router fails over to `rzp`
        ...partnerEnv('bad', 'razorpayx', emu.url, { ...vars, KEY_SECRET: 'wrong_secret' }),
        ...partnerEnv('rzp', 'razorpayx', emu.url, vars),
        ...PARTNER_SUITE_ENV,
        SANGAM_PARTNER_ROUTES: 'account-verification=bad>rzp;vpa-verification=rzp',
        SANGAM_PARTNER_TIMEOUT_MS: '2000',
        SANGAM_RECONCILE_SCHEDULE: '0.5',
      },
      { port },
    );
  });
  after(async () => {
    await t?.close();
    await emu?.close();
  });

  const verifyAccount = (account_number: string, ifsc = 'HDFC0000053') =>
    t.call('POST', ACCOUNT, { key: t.liveKey, body: { reference_id: ref('acct'), consent: true, account_number, ifsc } });

  it('a bank account that exists: success, valid, the bank’s holder name, a penny drop with its UTR (after failing over from the refusing partner)', async () => {
    const r = await verifyAccount('50100012345678');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.status, 'success');
    assert.equal(r.body.data.account_status, 'valid');
    assert.equal(r.body.data.name_at_bank, person('account:HDFC0000053:50100012345678').name);
    assert.equal(r.body.data.method, 'penny_drop');
    assert.match(r.body.data.utr, /^\d{12}$/);
  });

  it('valid, invalid and unknown (a validation RazorpayX could not make) each pay the same fee, once', async () => {
    const w0 = await reads.wallet();
    assert.equal((await verifyAccount('50100012345678')).body.data.account_status, 'valid');
    const w1 = await reads.wallet();
    const invalid = await verifyAccount('50100012345000');
    assert.equal(invalid.body.data.status, 'success');
    assert.equal(invalid.body.data.account_status, 'invalid');
    const w2 = await reads.wallet();
    assert.equal(w0.balance - w1.balance, w1.balance - w2.balance);
    const failed = await verifyAccount('50100012345999');
    assert.equal(failed.body.data.status, 'failed');
    assert.equal(failed.body.data.account_status, 'unknown');
    // The fee is paid once whatever the check found (CONTRACT §14), an unknown included: the attempt was made.
    assert.deepEqual(await reads.wallet(), { balance: w2.balance - (w1.balance - w2.balance), held: 0 });
  });

  it('a VPA: valid with its holder; invalid', async () => {
    const ok = await t.call('POST', VPA, { key: t.liveKey, body: { reference_id: ref('vpa'), consent: true, vpa: 'ramesh.kumar@okaxis' } });
    assert.equal(ok.body.data.status, 'success', ok.text);
    assert.equal(ok.body.data.vpa_status, 'valid');
    assert.equal(ok.body.data.name_at_bank, 'Ramesh Kumar');
    const bad = await t.call('POST', VPA, { key: t.liveKey, body: { reference_id: ref('vpa'), consent: true, vpa: 'invalid.one@ybl' } });
    assert.equal(bad.body.data.vpa_status, 'invalid');
  });

  it('still `created` at RazorpayX: pending, then settled by its webhook (or the enquiry) with its name match, made once', async () => {
    const body = { reference_id: ref('vpa'), consent: true, vpa: 'favslow.meera@okhdfc', name: 'Meera' };
    const r = await t.call('POST', VPA, { key: t.liveKey, body });
    assert.equal(r.body.data.status, 'pending', r.text);
    const done = await reads.final(body.reference_id, 15_000);
    assert.equal(done.body.data.status, 'success');
    assert.equal(done.body.data.vpa_status, 'valid');
    // The caller's name, kept while RazorpayX worked, is compared with the holder's in the late end.
    assert.equal(typeof done.body.data.name_at_bank, 'string');
    assert.equal(typeof done.body.data.name_match?.score, 'number', done.text);
    assert.equal(emu.validations().filter((v) => v.reference_id === r.body.data.txn_id || (v.fund_account.account_type === 'vpa' && v.fund_account.vpa.address === body.vpa)).length, 1);
  });
});
