// The payout name check in live mode (CONTRACT §11, upi-payment-status with beneficiary_name) against
// the two payout partners' emulators in-process: RazorpayX fund account validation and Cashfree's
// Validate Payout V2. Each partner is tried first in its own app, with the other behind it on the route
// (`upi-payment-status=<first>><second>`), so every case runs against both, and failover runs both ways.
// The wallet is read to the paisa and the ledger checked after every test.
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkLedger } from '../src/ledger/check.js';
import { accounts } from '../src/admin/actions/index.js';
import { startRazorpayxEmulator, type RazorpayxEmulator } from '../src/partner-sim/razorpayx/index.js';
import { startCashfreePayoutsEmulator, type CashfreePayoutsEmulator } from '../src/partner-sim/cashfree-payouts/index.js';
import { PATHS, VALID } from './harness.js';
import { freePort, liveReads, startPartnerApp, type PartnerApp } from './live-harness.js';

const RZP_WEBHOOK_SECRET = 'rzp_webhook_secret_for_name_checks';
const CF_SECRET = 'cfsk_ma_test_secret_for_name_checks';
const FEE_PAISE = 100; // the default price of upi-payment-status

/** What a test needs to know of one partner's emulator. */
interface Partner {
  name: 'rzp' | 'cashfree';
  env(): Record<string, string>;
  /** Payouts the emulator made under our transaction id. */
  paidUnder(txnId: string): number;
  /** Payouts it has made in all. */
  paidInAll(): number;
  validations(): number;
  /** The next `n` validation calls answer 502, before anything is done. */
  failValidations(n: number): void;
  behave(): void;
}

function rzpPartner(emu: RazorpayxEmulator): Partner {
  return {
    name: 'rzp',
    env: () => ({
      SANGAM_PARTNER_RZP_KIND: 'razorpayx',
      SANGAM_PARTNER_RZP_URL: emu.url,
      SANGAM_PARTNER_RZP_KEY_ID: emu.settings.keyId,
      SANGAM_PARTNER_RZP_KEY_SECRET: emu.settings.keySecret,
      SANGAM_PARTNER_RZP_ACCOUNT_NUMBER: emu.settings.accountNumber,
      SANGAM_PARTNER_RZP_WEBHOOK_SECRET: RZP_WEBHOOK_SECRET,
    }),
    paidUnder: (txnId) => emu.payouts().filter((p) => p.payout.reference_id === txnId).length,
    paidInAll: () => emu.payouts().length,
    validations: () => emu.validations().length,
    failValidations: (n) => emu.setFaults({ scope: 'validate', error_next: n, error_status: 502 }),
    behave: () => emu.setFaults({}),
  };
}

function cfPartner(emu: CashfreePayoutsEmulator): Partner {
  return {
    name: 'cashfree',
    env: () => ({
      SANGAM_PARTNER_CASHFREE_KIND: 'cashfree-payouts',
      SANGAM_PARTNER_CASHFREE_URL: emu.url,
      SANGAM_PARTNER_CASHFREE_CLIENT_ID: emu.settings.clientId,
      SANGAM_PARTNER_CASHFREE_CLIENT_SECRET: CF_SECRET,
    }),
    paidUnder: (txnId) => emu.transfers().filter((r) => r.transfer.transfer_id === txnId).length,
    paidInAll: () => emu.transfers().length,
    validations: () => emu.validations().length,
    failValidations: (n) => emu.setFaults({ scope: 'validate', error_next: n, error_status: 502 }),
    behave: () => emu.setFaults({}),
  };
}

function nameCheckSuite(order: readonly ['rzp' | 'cashfree', 'rzp' | 'cashfree']) {
  describe(`payout name check, live, ${order[0]} first then ${order[1]}`, () => {
    let rzp: RazorpayxEmulator;
    let cf: CashfreePayoutsEmulator;
    let t: PartnerApp;
    let first: Partner;
    let second: Partner;

    before(async () => {
      const port = await freePort();
      // validationMs > 0: a RazorpayX validation answers `created` and is polled to its verdict
      rzp = await startRazorpayxEmulator({ webhookSecret: RZP_WEBHOOK_SECRET, webhookUrl: `http://127.0.0.1:${port}/partners/rzp/webhooks`, pendingMs: 100, validationMs: 50, latencyMs: 0 });
      cf = await startCashfreePayoutsEmulator({ clientSecret: CF_SECRET, webhookUrl: `http://127.0.0.1:${port}/partners/cashfree/webhooks`, pendingMs: 100, latencyMs: 0, rateLimitPerMinute: 0 });
      const partners = { rzp: rzpPartner(rzp), cashfree: cfPartner(cf) };
      [first, second] = [partners[order[0]], partners[order[1]]];
      t = await startPartnerApp(
        {
          ...first.env(),
          ...second.env(),
          SANGAM_PARTNER_ROUTES: `upi-payment-status=${order[0]}>${order[1]}`,
          SANGAM_PARTNER_TIMEOUT_MS: '2000',
          SANGAM_BREAKER_MIN_CALLS: '10000',
          SANGAM_WEBHOOK_ALLOW_PRIVATE: '1',
        },
        { port },
      );
    });
    after(async () => {
      await t.close();
      await rzp.close();
      await cf.close();
    });
    afterEach(async () => {
      first.behave();
      second.behave();
      await accounts.setNameMatch(t.store.db, 'cli', { accountId: t.accountId, approve_at: null, review_at: null, on_review: null });
      const r = await checkLedger(t.store.db);
      assert.ok(r.ok, `ledger check failed:\n${r.breaches.join('\n')}`);
    });

    const pay = (body: Record<string, unknown>) => t.call('POST', PATHS.upi, { key: t.liveKey, body });
    const { wallet, final } = liveReads(() => t);
    const paidAnywhere = (txnId: string) => first.paidUnder(txnId) + second.paidUnder(txnId);

    /** Asserts a refusal: failed at once, nothing paid anywhere, the wallet as it was. */
    async function assertRefused(r: Awaited<ReturnType<typeof pay>>, message: RegExp, walletBefore: { balance: number; held: number }, paidBefore: number) {
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.statuscode, 'ERR');
      assert.equal(r.body.data.status, 'failed');
      assert.match(r.body.data.message, message);
      assert.equal(r.body.data.utr, null);
      assert.equal(paidAnywhere(r.body.data.txn_id), 0);
      assert.equal(first.paidInAll() + second.paidInAll(), paidBefore);
      assert.deepEqual(await wallet(), walletBefore);
    }

    it('a mismatched name is refused: failed, name_match reject, nothing paid, no fee', async () => {
      const [w, paid, asked] = [await wallet(), first.paidInAll() + second.paidInAll(), first.validations()];
      const r = await pay({ ...VALID.upi(), vpa: 'ramesh.kumar@okaxis', amount: 250, beneficiary_name: 'Sunita Deshpande' });
      await assertRefused(r, /does not match/, w, paid);
      assert.equal(r.body.data.name_match.decision, 'reject');
      assert.equal(first.validations(), asked + 1, 'the first partner on the route validated the VPA');
    });

    it('a matched name is paid once, with name_match approve; the wallet goes down by amount + fee', async () => {
      const w = await wallet();
      const body = { ...VALID.upi(), vpa: 'ramesh.kumar@okaxis', amount: 120.25, beneficiary_name: 'Shri Ramesh Kumar' };
      const r = await pay(body);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.data.name_match.decision, 'approve');
      const done = await final(body.reference_id);
      assert.equal(done.body.data.status, 'success', done.text);
      const txnId = r.body.data.txn_id as string;
      assert.equal(first.paidUnder(txnId), 1);
      assert.equal(second.paidUnder(txnId), 0);
      assert.deepEqual(await wallet(), { balance: w.balance - 12025 - FEE_PAISE, held: 0 });
    });

    it("a review is held (the default) or paid, as the account's on_review says", async () => {
      await accounts.setNameMatch(t.store.db, 'cli', { accountId: t.accountId, approve_at: 100, review_at: 0 });
      const [w, paid] = [await wallet(), first.paidInAll() + second.paidInAll()];
      const held = await pay({ ...VALID.upi(), vpa: 'ramesh.kumar@okaxis', amount: 10, beneficiary_name: 'Ramesh K' });
      await assertRefused(held, /review/, w, paid);
      assert.equal(held.body.data.name_match.decision, 'review');

      await accounts.setNameMatch(t.store.db, 'cli', { accountId: t.accountId, on_review: 'pay' });
      const body = { ...VALID.upi(), vpa: 'ramesh.kumar@okaxis', amount: 10, beneficiary_name: 'Ramesh K' };
      const r = await pay(body);
      assert.equal(r.body.data.name_match.decision, 'review', r.text);
      assert.equal((await final(body.reference_id)).body.data.status, 'success');
      assert.equal(first.paidUnder(r.body.data.txn_id), 1);
      assert.deepEqual(await wallet(), { balance: w.balance - 1000 - FEE_PAISE, held: 0 });
    });

    it('a VPA the partner says is invalid is refused: failed, nothing paid, no fee', async () => {
      const [w, paid] = [await wallet(), first.paidInAll() + second.paidInAll()];
      const r = await pay({ ...VALID.upi(), vpa: 'invalid.user@okaxis', amount: 10, beneficiary_name: 'Ramesh Kumar' });
      await assertRefused(r, /does not exist/, w, paid);
      assert.equal(r.body.data.name_match, undefined);
    });

    it('when no partner can validate: 502, nothing paid or charged; the same key then pays', async () => {
      first.failValidations(5);
      second.failValidations(5);
      const [w, paid] = [await wallet(), first.paidInAll() + second.paidInAll()];
      const body = { ...VALID.upi(), vpa: 'ramesh.kumar@okaxis', amount: 15, beneficiary_name: 'Ramesh Kumar' };
      const r = await pay(body);
      assert.equal(r.status, 502, r.text);
      assert.equal(r.body.statuscode, 'ERR');
      assert.equal(r.body.data.Errorcode, 113);
      assert.equal(first.paidInAll() + second.paidInAll(), paid);
      assert.deepEqual(await wallet(), w);

      first.behave();
      second.behave();
      const again = await pay(body);
      assert.equal(again.status, 200, again.text);
      assert.notEqual(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.body.data.name_match.decision, 'approve');
      assert.equal((await final(body.reference_id)).body.data.status, 'success');
      assert.equal(first.paidUnder(again.body.data.txn_id), 1);
      assert.deepEqual(await wallet(), { balance: w.balance - 1500 - FEE_PAISE, held: 0 });
    });

    it('when the first partner cannot validate, the second one does; the payout is made once', async () => {
      first.failValidations(1);
      const [w, asked] = [await wallet(), second.validations()];
      const body = { ...VALID.upi(), vpa: 'priya.sharma@okhdfc', amount: 20, beneficiary_name: 'Priya Sharma' };
      const r = await pay(body);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.data.name_match.decision, 'approve');
      assert.equal(second.validations(), asked + 1, `${second.name} validated the VPA`);
      assert.equal((await final(body.reference_id)).body.data.status, 'success');
      assert.equal(paidAnywhere(r.body.data.txn_id), 1);
      assert.deepEqual(await wallet(), { balance: w.balance - 2000 - FEE_PAISE, held: 0 });
    });
  });
}

nameCheckSuite(['rzp', 'cashfree']);
nameCheckSuite(['cashfree', 'rzp']);
