// The payout name check in live mode (CONTRACT §11, upi-payment-status with beneficiary_name) against
// the two payout partners' emulators in-process: RazorpayX fund account validation and Cashfree's
// Validate Payout V2. Each partner is tried first in its own app, with the other behind it on the route
// (`upi-payment-status=<first>><second>`), so every case runs against both, and failover runs both ways.
// The wallet is read to the paisa and the ledger checked after every test.
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { accounts } from '../src/admin/actions/index.js';
import { startRazorpayxEmulator, type RazorpayxEmulator } from '../partner-sim/razorpayx/index.js';
import { startCashfreePayoutsEmulator, type CashfreePayoutsEmulator } from '../partner-sim/cashfree-payouts/index.js';
import { createRazorpayx } from '../src/providers/razorpayx/index.js';
import { createCashfreePayouts } from '../src/providers/cashfree-payouts/index.js';
import { PartnerError, type PartnerContext } from '../src/providers/connector.js';
import { eventually, PATHS, VALID } from './harness.js';
import { assertLedgerHolds, factoryContext, freePort, liveReads, startPartnerApp, upiPartnerVars, type PartnerApp } from './live-harness.js';

const RZP_WEBHOOK_SECRET = 'rzp_webhook_secret_for_name_checks';
const CF_SECRET = 'cfsk_ma_test_secret_for_name_checks';
const FEE_PAISE = 100; // the default price of upi-payment-status

/** What a test needs to know of one partner's emulator. */
interface Partner {
  name: 'rzp' | 'cashfree';
  /** Payouts the emulator made under our transaction id. */
  paidUnder(txnId: string): number;
  /** Payouts it has made in all. */
  paidInAll(): number;
  validations(): number;
  /** The next `n` validation calls answer 502, before anything is done. */
  failValidations(n: number): void;
  behave(): void;
}

/** A UPI emulator as the name-check tests see it; `paidRefs` lists the transaction id of every payout it made. */
function partnerOf(name: Partner['name'], emu: { validations(): unknown[]; setFaults(f: object): void }, paidRefs: () => Array<string | null>): Partner {
  return {
    name,
    paidUnder: (txnId) => paidRefs().filter((ref) => ref === txnId).length,
    paidInAll: () => paidRefs().length,
    validations: () => emu.validations().length,
    failValidations: (n) => emu.setFaults({ scope: 'validate', error_next: n, error_status: 502 }),
    behave: () => emu.setFaults({}),
  };
}

const rzpPartner = (emu: RazorpayxEmulator) => partnerOf('rzp', emu, () => emu.payouts().map((p) => p.payout.reference_id));
const cfPartner = (emu: CashfreePayoutsEmulator) => partnerOf('cashfree', emu, () => emu.transfers().map((r) => r.transfer.transfer_id));

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
          ...upiPartnerVars(rzp, cf),
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
      await assertLedgerHolds(t.store.db);
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
      // RazorpayX also reports the validation by webhook: acknowledged (2xx), nothing to settle
      if (order[0] === 'rzp') await eventually(async () => rzp.webhookLog().some((d) => d.event === 'fund_account.validation.completed' && d.outcome === 'delivered'));
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

/** A connector's context at `url`, with its own variables. */
const ctxAt = (name: string, url: string, vars: Record<string, string>): PartnerContext => factoryContext(name, vars, url);

describe('the validation endpoints, emulated as documented and read by the connectors', () => {
  let rzp: RazorpayxEmulator;
  let cf: CashfreePayoutsEmulator;
  before(async () => {
    rzp = await startRazorpayxEmulator({ latencyMs: 0, validationMs: 0 });
    cf = await startCashfreePayoutsEmulator({ latencyMs: 0, rateLimitPerMinute: 0 });
  });
  after(async () => {
    await rzp.close();
    await cf.close();
  });

  const rzpCall = (method: string, path: string, body?: unknown) =>
    fetch(`${rzp.url}${path}`, {
      method,
      headers: { authorization: `Basic ${Buffer.from(`${rzp.settings.keyId}:${rzp.settings.keySecret}`).toString('base64')}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, json: (await r.json()) as Record<string, any> }));
  const cfValidate = (body: unknown, secret = cf.settings.clientSecret) =>
    fetch(`${cf.url}/validatePayout`, {
      method: 'POST',
      headers: { 'x-client-id': cf.settings.clientId, 'x-client-secret': secret, 'x-api-version': '2024-01-01', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, json: (await r.json()) as Record<string, any> }));

  it('RazorpayX: both request generations; active with the registered name, invalid, failed; the documented error shape', async () => {
    // Razorpay: validation "is possible only for RazorpayX Lite"; source_account_number is its customer identifier.
    const acct = rzp.settings.liteAccountNumber;
    assert.notEqual(acct, rzp.settings.accountNumber, 'the emulator models a Lite account apart from the Current Account payouts debit');
    const current = await rzpCall('POST', '/v1/fund_accounts/validations', {
      source_account_number: acct,
      validation_type: 'pennydrop',
      reference_id: '112233',
      fund_account: { account_type: 'vpa', vpa: { address: 'gaurav.kumar@exampleupi' }, contact: { name: 'Gaurav Kumar' } },
    });
    assert.equal(current.status, 200, JSON.stringify(current.json));
    assert.equal(current.json.entity, 'fund_account.validation');
    assert.match(current.json.id, /^fav_/);
    assert.equal(current.json.status, 'completed');
    assert.equal(current.json.validation_results.account_status, 'active');
    assert.equal(current.json.validation_results.registered_name, 'Gaurav Kumar');
    assert.deepEqual((await rzpCall('GET', `/v1/fund_accounts/validations/${current.json.id}`)).json.results, current.json.validation_results);

    const contact = await rzpCall('POST', '/v1/contacts', { name: 'Sangam UPI Payee' });
    const fa = await rzpCall('POST', '/v1/fund_accounts', { contact_id: contact.json.id, account_type: 'vpa', vpa: { address: 'invalid.user@okaxis' } });
    const older = await rzpCall('POST', '/v1/fund_accounts/validations', { account_number: acct, fund_account: { id: fa.json.id }, amount: 100, currency: 'INR' });
    assert.equal(older.json.status, 'completed', JSON.stringify(older.json));
    assert.equal(older.json.results.account_status, 'invalid');
    assert.equal(older.json.results.registered_name, null);

    const failed = await rzpCall('POST', '/v1/fund_accounts/validations', { source_account_number: acct, fund_account: { account_type: 'vpa', vpa: { address: 'favfail@okaxis' }, contact: { name: 'Test Payee' } } });
    assert.equal(failed.json.status, 'failed');

    const currentAccount = await rzpCall('POST', '/v1/fund_accounts/validations', { source_account_number: rzp.settings.accountNumber, fund_account: { id: fa.json.id } });
    assert.equal(currentAccount.status, 400, 'a Current Account cannot validate');
    assert.equal(currentAccount.json.error.field, 'source_account_number');
    assert.match(currentAccount.json.error.description, /only for RazorpayX Lite/);
    const wrong = await rzpCall('POST', '/v1/fund_accounts/validations', { source_account_number: '000', fund_account: { id: fa.json.id } });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.json.error.code, 'BAD_REQUEST_ERROR');
    assert.equal(wrong.json.error.field, 'source_account_number');
    assert.equal((await rzpCall('GET', '/v1/fund_accounts/validations/fav_00000000000000')).status, 400);
  });

  it('RazorpayX connector: polls a created validation to its verdict; failed, too slow and 5xx are PartnerErrors', async () => {
    const vars = { KEY_ID: rzp.settings.keyId, KEY_SECRET: rzp.settings.keySecret, ACCOUNT_NUMBER: rzp.settings.accountNumber, FAV_ACCOUNT_NUMBER: rzp.settings.liteAccountNumber, WEBHOOK_SECRET: 'w' };
    const slow = await startRazorpayxEmulator({ latencyMs: 0, validationMs: 150 });
    const polled = createRazorpayx(ctxAt('rzp', slow.url, vars));
    const impatient = createRazorpayx(ctxAt('rzp', slow.url, { ...vars, VALIDATION_WAIT_MS: '20' }));
    const direct = createRazorpayx(ctxAt('rzp', rzp.url, vars));
    try {
      assert.deepEqual(await polled.vpaHolder!('sunita.deshpande@okicici'), { exists: true, name: 'Sunita Deshpande' });
      assert.deepEqual(await direct.vpaHolder!('novpa.person@okicici'), { exists: false, name: null });
      await assert.rejects(impatient.vpaHolder!('ramesh@okaxis'), (e) => e instanceof PartnerError && e.kind === 'timeout');
      await assert.rejects(direct.vpaHolder!('favfail@okaxis'), (e) => e instanceof PartnerError && /could not validate/.test(e.message));
      rzp.setFaults({ scope: 'validate', error_next: 1, error_status: 503 });
      await assert.rejects(direct.vpaHolder!('ramesh@okaxis'), (e) => e instanceof PartnerError && /HTTP 503/.test(e.message));
      assert.equal(slow.payouts().length + rzp.payouts().length, 0, 'a validation never pays');
    } finally {
      rzp.setFaults({});
      await Promise.all([polled.close?.(), impatient.close?.(), direct.close?.()]);
      await slow.close();
    }
  });

  it('RazorpayX connector: validation from FAV_ACCOUNT_NUMBER (the Lite customer identifier) while payouts debit the Current Account; without it, every name check is refused', async () => {
    const payouts = { KEY_ID: rzp.settings.keyId, KEY_SECRET: rzp.settings.keySecret, ACCOUNT_NUMBER: rzp.settings.accountNumber, WEBHOOK_SECRET: 'w' };
    const lite = createRazorpayx(ctxAt('rzp', rzp.url, { ...payouts, FAV_ACCOUNT_NUMBER: rzp.settings.liteAccountNumber }));
    const currentOnly = createRazorpayx(ctxAt('rzp', rzp.url, payouts));
    try {
      const before = rzp.validations().length;
      assert.deepEqual(await lite.vpaHolder!('sunita.deshpande@okicici'), { exists: true, name: 'Sunita Deshpande' });
      assert.equal(rzp.validations().length, before + 1);
      const sent = rzp.requests().filter((q) => q.method === 'POST' && q.path === '/v1/fund_accounts/validations').at(-1)!.body as { source_account_number: string };
      assert.equal(sent.source_account_number, rzp.settings.liteAccountNumber);
      // FAV_ACCOUNT_NUMBER defaults to ACCOUNT_NUMBER: a Current Account there is refused, as Razorpay documents; nothing paid.
      await assert.rejects(currentOnly.vpaHolder!('sunita.deshpande@okicici'), (e) => e instanceof PartnerError && /HTTP 400: Account Validation is possible only for RazorpayX Lite/.test(e.message));
      assert.equal(rzp.payouts().length, 0);
    } finally {
      await Promise.all([lite.close?.(), currentOnly.close?.()]);
    }
  });

  it('Cashfree: Validate Payout V2 answers VALID with name_at_bank, INVALID with an empty token; bad input is a 400', async () => {
    const ok = await cfValidate({ transfer_id: 'nc_test1', vpa: 'ramesh.kumar@okaxis' });
    assert.equal(ok.status, 200);
    assert.deepEqual(Object.keys(ok.json).sort(), ['account_status', 'name_at_bank', 'transfer_token', 'vpa']);
    assert.equal(ok.json.account_status, 'VALID');
    assert.equal(ok.json.name_at_bank, 'RAMESH KUMAR');
    const invalid = await cfValidate({ transfer_id: 'nc_test2', vpa: 'invalid@upi' });
    assert.deepEqual(invalid.json, { transfer_token: '', vpa: 'invalid@upi', account_status: 'INVALID', name_at_bank: null });
    const both = await cfValidate({ transfer_id: 'nc_test3', vpa: 'a@upi', phone: '9999999999' });
    assert.equal(both.status, 400);
    assert.equal(both.json.type, 'invalid_request_error');
    assert.equal((await cfValidate({ transfer_id: 'nc_test4' })).json.code, 'vpa_missing');
    assert.equal((await cfValidate({ transfer_id: 'nc_test5', vpa: 'a@upi' }, 'wrong')).status, 401);
  });

  it('Cashfree connector: VALID and INVALID read; a refusal and a 5xx are PartnerErrors; nothing is paid', async () => {
    const c = createCashfreePayouts(ctxAt('cashfree', cf.url, { CLIENT_ID: cf.settings.clientId, CLIENT_SECRET: cf.settings.clientSecret }));
    try {
      assert.deepEqual(await c.vpaHolder!('priya.sharma@okhdfc'), { exists: true, name: 'PRIYA SHARMA' });
      assert.deepEqual(await c.vpaHolder!('invalid.someone@okhdfc'), { exists: false, name: null });
      assert.match(cf.validations().at(-1)!.transfer_id, /^nc_[0-9A-Za-z]{24}$/);
      cf.setFaults({ scope: 'validate', error_next: 1, error_status: 500 });
      await assert.rejects(c.vpaHolder!('priya.sharma@okhdfc'), (e) => e instanceof PartnerError && /HTTP 500/.test(e.message));
      cf.setFaults({ apis_not_enabled: true });
      await assert.rejects(c.vpaHolder!('priya.sharma@okhdfc'), (e) => e instanceof PartnerError && /apis_not_enabled/.test(e.message));
      assert.equal(cf.transfers().length, 0, 'a validation never pays');
    } finally {
      cf.setFaults({});
      await c.close?.();
    }
  });
});
