// Payee verification's failover between the two partners CONTRACT §14 names, end to end through Sangam's
// HTTP API: Cashfree (BAV V2, UPI V2) routed first, RazorpayX (fund account validation) second. A
// documented refusal before any check (Cashfree refusing our credentials) fails over, and RazorpayX's
// answer is the one kept, the fee paid once; an answer after the check may have been made (a 5xx after
// Cashfree's work) never does: it stays at Cashfree, pending with its fee held, until Cashfree's
// documented status call settles it — RazorpayX never hears of it. A live batch of verifications keeps to
// the pace the partner routed first sets for batch rows (SANGAM_PARTNER_<NAME>_BATCH_ROWS_PER_SEC).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCashfreeVerificationEmulator, type CashfreeVerificationEmulator } from '../partner-sim/cashfree-verification/index.js';
import { startRazorpayxEmulator, type RazorpayxEmulator } from '../partner-sim/razorpayx/index.js';
import { partnerEnv } from '../partner-sim/kind.js';
import { eventually, ref } from './harness.js';
import { freePort, liveReads, PARTNER_SUITE_ENV, startPartnerApp, type PartnerApp } from './live-harness.js';

const ACCOUNT = '/api/v1/bank-account/account-verification';
const VPA = '/api/v1/upi-payment/vpa-verification';
/** The default prices, in paise. */
const FEE = { account: 200, vpa: 100 };

describe('payee verification: failover from Cashfree to RazorpayX', () => {
  let cf: CashfreeVerificationEmulator;
  let rzp: RazorpayxEmulator;
  let t: PartnerApp;
  const reads = liveReads(() => t);

  before(async () => {
    const port = await freePort();
    cf = await startCashfreeVerificationEmulator({ pendingMs: 300, latencyMs: 0 });
    rzp = await startRazorpayxEmulator({ latencyMs: 0, validationMs: 0, webhookUrl: `http://127.0.0.1:${port}/partners/rzp/webhooks` });
    const s = rzp.settings;
    const cfVars = { CLIENT_ID: cf.settings.clientId, CLIENT_SECRET: cf.settings.clientSecret };
    t = await startPartnerApp(
      {
        // `cfbad` refuses our credentials (401: nothing checked), `cf` behaves; both before RazorpayX.
        ...partnerEnv('cfbad', 'cashfree-verification', cf.url, { ...cfVars, CLIENT_SECRET: 'wrong-secret' }),
        // Cashfree's own pace for live batch rows: 2 a second (the operation's own pace, 25, would allow more).
        ...partnerEnv('cf', 'cashfree-verification', cf.url, { ...cfVars, BATCH_ROWS_PER_SEC: '2' }),
        ...partnerEnv('rzp', 'razorpayx', rzp.url, { KEY_ID: s.keyId, KEY_SECRET: s.keySecret, ACCOUNT_NUMBER: s.accountNumber, FAV_ACCOUNT_NUMBER: s.liteAccountNumber, WEBHOOK_SECRET: s.webhookSecret, VALIDATION_WAIT_MS: '300' }),
        ...PARTNER_SUITE_ENV,
        SANGAM_PARTNER_ROUTES: 'account-verification=cfbad>rzp;vpa-verification=cf>rzp',
        SANGAM_PARTNER_TIMEOUT_MS: '2000',
        SANGAM_RECONCILE_SCHEDULE: '0.5',
      },
      { port, topUpInr: 1_000 },
    );
  });
  after(async () => {
    await t?.close();
    await cf?.close();
    await rzp?.close();
  });

  const partnerOf = async (reference: string) =>
    (await t.store.db.selectFrom('transactions').select('partner').where('reference_id', '=', reference).executeTakeFirstOrThrow()).partner;

  it('Cashfree refusing our credentials fails over: RazorpayX checks the account, the fee is paid once', async () => {
    const before = await reads.wallet();
    const body = { reference_id: ref('fo'), consent: true, account_number: '50100012345678', ifsc: 'HDFC0000053' };
    const r = await t.call('POST', ACCOUNT, { key: t.liveKey, body });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.status, 'success');
    assert.equal(r.body.data.account_status, 'valid');
    assert.equal(await partnerOf(body.reference_id), 'rzp');
    assert.equal(cf.requests().filter((q) => q.method === 'POST' && q.url.includes('/bank-account')).length, 1, 'Cashfree was asked once and refused');
    assert.deepEqual(await reads.wallet(), { balance: before.balance - FEE.account, held: 0 });
  });

  it('a 5xx after Cashfree checked the VPA never fails over: pending at Cashfree, settled by its status call', async () => {
    const before = await reads.wallet();
    const validationsBefore = rzp.validations().length;
    cf.setFaults({ error_after_accept_next: 1, scope: 'create' });
    const body = { reference_id: ref('fo'), consent: true, vpa: 'someone@okaxis' };
    const r = await t.call('POST', VPA, { key: t.liveKey, body });
    assert.equal(r.body.statuscode, 'TUP', r.text);
    assert.equal(r.body.data.vpa_status, 'unknown');
    const done = await reads.final(body.reference_id, 30_000);
    assert.equal(done.body.data.status, 'success', done.text);
    assert.equal(done.body.data.vpa_status, 'valid');
    assert.equal(await partnerOf(body.reference_id), 'cf');
    assert.equal(rzp.validations().length, validationsBefore, 'RazorpayX never heard of it');
    assert.deepEqual(await reads.wallet(), { balance: before.balance - FEE.vpa, held: 0 });
  });

  it('a live batch of VPA verifications keeps to Cashfree’s own batch pace (2 rows a second)', async () => {
    const items = Array.from({ length: 6 }, (_, i) => ({ reference_id: ref(`pace${i}`), consent: true, vpa: `payee${i}@okaxis` }));
    const r = await t.call('POST', '/api/v1/batches', { key: t.liveKey, body: { operation: 'vpa-verification', items } });
    assert.equal(r.status, 200, r.text);
    await eventually(async () => (await t.call('GET', `/api/v1/batches/${r.body.data.id}`, { key: t.liveKey })).body.data?.status === 'completed', 60_000);
    const made = await t.store.db.selectFrom('transactions').select(['created_at', 'partner', 'status']).where('reference_id', 'in', items.map((x) => x.reference_id)).execute();
    assert.deepEqual(made.map((m) => [m.partner, m.status]), items.map(() => ['cf', 'success']));
    // The limiter’s guarantee, not a timing: 2 rows at once, then 4 more at 2 a second take 2 s (1.5 s asserted).
    const times = made.map((m) => m.created_at.getTime()).sort((a, b) => a - b);
    assert.ok(times.at(-1)! - times[0]! >= 1_500, `the rows ran over ${times.at(-1)! - times[0]!} ms`);
  });
});
