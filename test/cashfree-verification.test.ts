// The cashfree-verification connector end to end: Sangam's HTTP surface with a live key, the Cashfree
// Mobile Penny Drop emulator in-process, the wallet and the ledger (checked after every test). Covers the
// answers (VALID, INVALID = no account linked, PENDING), the errors (401, 400, 429 refused at once; a 5xx
// or a timeout, after which Cashfree may have made the penny drop: pending with the fee held until a person
// settles it, since Cashfree documents no status call), that the full account number never leaves the
// connector (answer, store, logs), that a penny drop goes out once per transaction, and that the body sent
// follows Cashfree's sample (mobile_number a number).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { startCashfreeVerificationEmulator, type CashfreeVerificationEmulator } from '../partner-sim/cashfree-verification/index.js';
import { linkedAccount } from '../partner-sim/cashfree-verification/directory.js';
import { createCashfreeVerification } from '../src/providers/cashfree-verification/index.js';
import { maskAccount, outcomeOf, statusOf } from '../src/providers/cashfree-verification/transformers.js';
import { answerOf } from '../src/providers/answer.js';
import type { PartnerContext } from '../src/providers/connector.js';
import { eventually, PATHS, sleep, VALID, type TestApp } from './harness.js';
import { assertLedgerHolds, liveReads, partnerSuiteEnv, partnerSuiteLife, startPartnerApp } from './live-harness.js';
import { conformance } from './connector-conformance.js';
import { personDecides } from './person-decides.js';

const FEE_PAISE = 200; // the default price of mobile-to-bank-account

function startCfApp(emu: CashfreeVerificationEmulator, env: Record<string, string> = {}, logs?: PassThrough): Promise<TestApp> {
  const vars = { CLIENT_ID: emu.settings.clientId, CLIENT_SECRET: emu.settings.clientSecret, API_VERSION: '2024-12-01' };
  return startPartnerApp(
    {
      ...partnerSuiteEnv('cashfreevrs', 'cashfree-verification', emu.url, vars, 'mobile-to-bank-account'),
      SANGAM_PARTNER_TIMEOUT_MS: '900',
      SANGAM_RECONCILE_SCHEDULE: '0.5',
      ...(logs ? { LOG_LEVEL: 'debug' } : {}),
      ...env,
    },
    { topUpInr: 1_000, logStream: logs },
  );
}

describe('cashfree-verification connector, end to end', () => {
  let emu: CashfreeVerificationEmulator;
  let t: TestApp;
  const logs = new PassThrough();
  let logText = '';
  logs.on('data', (c: Buffer) => (logText += c.toString('utf8')));

  partnerSuiteLife(async () => {
    emu = await startCashfreeVerificationEmulator({ pendingMs: 300, latencyMs: 0 });
    t = await startCfApp(emu, {}, logs);
    return { emu, t };
  });

  const lookup = (body: Record<string, unknown>) => t.call('POST', PATHS.bank, { key: t.liveKey, body });
  const reads = liveReads(() => t);
  const { txOf, wallet: balance } = reads;
  const txnIdOf = async (ref: string) => (await t.store.db.selectFrom('transactions').select('id').where('reference_id', '=', ref).executeTakeFirstOrThrow()).id;
  const dropsFor = (txnId: string) => emu.verifications().filter((v) => v.view.verification_id === txnId);
  const final = (ref: string, timeoutMs = 30_000) => reads.final(ref, timeoutMs);
  /** Every row Sangam keeps that could hold an answer, as one text. */
  const storeText = async () => {
    const db = t.store.db;
    const tables = await Promise.all([
      db.selectFrom('transactions').selectAll().execute(),
      db.selectFrom('audit_logs').selectAll().execute(),
      db.selectFrom('idempotency_keys').selectAll().execute(),
      db.selectFrom('webhook_events').selectAll().execute(),
      db.selectFrom('partner_sessions').selectAll().execute(),
    ]);
    return JSON.stringify(tables);
  };

  it('VALID: the linked account, number masked to its last 4 digits, real bank name and branch; charged once', async () => {
    const before = await balance();
    const mobile = '9876543210';
    const acct = linkedAccount(mobile);
    const body = { ...VALID.bank(), mobile };
    const r = await lookup(body);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.statuscode, 'TXN');
    const d = r.body.data;
    assert.equal(d.status, 'success');
    assert.equal(d.reference_id, body.reference_id);
    assert.ok(d.verified_at);
    assert.equal(d.message, 'Bank account found');
    assert.equal(d.service, 'mobile-to-bank-account');
    assert.deepEqual(d.account, {
      account_holder_name: acct.name_at_bank,
      account_number: 'X'.repeat(acct.bank_account.length - 4) + acct.bank_account.slice(-4),
      ifsc: acct.ifsc,
      bank_name: acct.ifsc_details.bank,
      branch: acct.ifsc_details.branch,
    });
    for (const k of ['account_number_match', 'ifsc_match', 'account_match']) assert.equal(k in d, false, k);
    // one penny drop, under our transaction id, with the consent the request carried
    const txnId = await txnIdOf(body.reference_id);
    const [drop, ...more] = dropsFor(txnId);
    assert.equal(more.length, 0);
    assert.equal(drop!.requests, 1);
    assert.equal(drop!.input.mobile_number, mobile);
    const sent = emu.requests().filter((q) => q.method === 'POST' && (q.body as { verification_id?: string }).verification_id === txnId);
    assert.equal(sent.length, 1);
    assert.equal((sent[0]!.body as { mobile_number: unknown }).mobile_number, Number(mobile), 'a number, as Cashfree’s sample sends it (AUDIT §3.3)');
    assert.equal(drop!.input.user_consent.obtained, true);
    assert.equal(drop!.input.user_consent.type, 'EXPLICIT');
    assert.match(drop!.input.user_consent.timestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.ok(Math.abs(Date.parse(drop!.input.user_consent.timestamp) - Date.now()) < 60_000);
    assert.match(drop!.input.user_consent.purpose, /consented.*penny drop/);
    assert.deepEqual(await balance(), { balance: before.balance - FEE_PAISE, held: 0 });
    // the full number never leaves the connector: not in the answer, the store or the logs
    const again = await txOf(body.reference_id);
    for (const text of [r.text, again.text, await storeText(), logText]) assert.equal(text.includes(acct.bank_account), false);
    assert.ok(logText.length > 0, 'logs were captured');
  });

  it('account_number_match / ifsc_match compare what the client holds with the linked account', async () => {
    const mobile = '9123456780';
    const acct = linkedAccount(mobile);
    const other = acct.ifsc === 'SBIN0000001' ? 'SBIN0000002' : 'SBIN0000001';
    const both = (await lookup({ ...VALID.bank(), mobile, account_number: acct.bank_account, ifsc: acct.ifsc })).body.data;
    assert.deepEqual([both.account_number_match, both.ifsc_match, both.account_match], [true, true, true]);
    const wrong = (await lookup({ ...VALID.bank(), mobile, account_number: '123456789012', ifsc: other })).body.data;
    assert.deepEqual([wrong.account_number_match, wrong.ifsc_match, wrong.account_match], [false, false, false]);
    const ifscOnly = (await lookup({ ...VALID.bank(), mobile, ifsc: acct.ifsc })).body.data;
    assert.equal(ifscOnly.ifsc_match, true);
    assert.equal('account_number_match' in ifscOnly, false);
    assert.equal(ifscOnly.account.account_number, maskAccount(acct.bank_account));
  });

  it('INVALID (9000000000, no account linked): the business failure carries the service, no account', async () => {
    const r = await lookup({ ...VALID.bank(), mobile: '9000000000' });
    assert.equal(r.body.ok, false);
    assert.equal(r.body.data.Errorcode, 120);
    assert.equal(r.body.data.service, 'mobile-to-bank-account');
    assert.equal(r.body.data.account, undefined);
  });

  conformance({
    kind: 'cashfree-verification',
    app: () => t,
    path: PATHS.bank,
    body: (steer) => ({ ...VALID.bank(), mobile: { success: '9812345678', refusal: '9000000000', held: '9000000002' }[steer] }),
    debit: () => FEE_PAISE,
    refusalCharge: () => FEE_PAISE, // a completed check
    refusalMessage: /no bank account/i,
    madeAt: (txnId) => dropsFor(txnId).length,
    setFaults: (f) => emu.setFaults(f),
    faults: {
      'error-before-work': { error_next: 1, error_status: 502, scope: 'create' },
      'error-after-work': { error_after_accept_next: 1, error_status: 503, scope: 'create' },
    },
    // Cashfree documents no status call: whatever the 5xx, only a person can say whether a rupee went out.
    lost: 'pending-until-decided',
    decide: (txnId, action) => personDecides(t, txnId, action),
    decidesMade: 'failed', // a success carries the holder's name, which a person cannot supply

    wrongCredentials: {
      start: (env) => startCfApp(emu, { ...env, SANGAM_PARTNER_CASHFREEVRS_CLIENT_SECRET: 'wrong-secret' }),
      message: /Cashfree refused our Verification API credentials \(HTTP 401\)/,
      secret: 'wrong-secret',
    },
    total: () => emu.verifications().length,
    notApplicable: {
      pendingReconciled: 'Cashfree documents no status call for the mobile penny drop: a 5xx after the work is the unknownAnswer scenario, settled by a person',
      forgedWebhook: 'Cashfree documents no webhook for the penny drop',
      duplicateEvent: 'Cashfree documents no webhook for the penny drop',
    },
  });

  /** The calls the connector made to Cashfree for one transaction (what the emulator received). */
  const sentFor = (txnId: string) => emu.requests().filter((q) => q.url.includes(txnId) || (q.body as { verification_id?: string } | undefined)?.verification_id === txnId);

  for (const [mobile, ends] of [
    ['9000000002', 'success'],
    ['9000000003', 'failed'],
  ] as const) {
    it(`PENDING (${mobile}, ${ends} at Cashfree): TUP with the fee held, still pending after enquiries (no status call exists), failed when a person settles it (never success: its answer would lack the holder's name); one penny drop`, async () => {
      const before = await balance();
      const acct = linkedAccount(mobile);
      const body = { ...VALID.bank(), mobile, account_number: acct.bank_account };
      const r = await lookup(body);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.statuscode, 'TUP');
      assert.equal(r.body.data.verified_at, null);
      assert.deepEqual(await balance(), { balance: before.balance - FEE_PAISE, held: FEE_PAISE });
      const txnId = await txnIdOf(body.reference_id);
      const row = () => t.store.db.selectFrom('transactions').select(['partner', 'partner_ref', 'status', 'checks']).where('id', '=', txnId).executeTakeFirstOrThrow();
      assert.equal((await row()).partner, 'cashfreevrs');
      assert.equal((await row()).partner_ref, String(dropsFor(txnId)[0]!.view.reference_id));
      await eventually(async () => (await row()).checks >= 2);
      assert.equal((await row()).status, 'pending', 'never failed by the reconciler');
      assert.deepEqual(sentFor(txnId).map((q) => q.method), ['POST'], 'one POST, and no call Cashfree does not document');
      await assert.rejects(personDecides(t, txnId, 'success'), /carries what the partner read/);
      await personDecides(t, txnId, 'failed');
      const done = await final(body.reference_id);
      assert.equal(done.body.data.status, 'failed');
      assert.equal(dropsFor(txnId).length, 1);
      assert.equal(dropsFor(txnId)[0]!.requests, 1);
      // A failure is a completed check too: charged the fee, as INVALID is.
      assert.deepEqual(await balance(), { balance: before.balance - FEE_PAISE, held: 0 });
    });
  }

  it('a 500 (9000000001): Cashfree may have made the penny drop — pending with the fee held, never failed or sent again; a person settles it', async () => {
    const before = await balance();
    const body = { ...VALID.bank(), mobile: '9000000001' };
    const r = await lookup(body);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.statuscode, 'TUP');
    assert.match(r.body.data.message, /HTTP 500.*may have been made.*documents no status call/);
    const txnId = await txnIdOf(body.reference_id);
    await eventually(async () => (await t.store.db.selectFrom('transactions').select('checks').where('id', '=', txnId).executeTakeFirstOrThrow()).checks >= 2);
    assert.equal((await txOf(body.reference_id)).body.data.status, 'pending');
    assert.deepEqual(sentFor(txnId).map((q) => q.method), ['POST']);
    assert.deepEqual(await balance(), { balance: before.balance - FEE_PAISE, held: FEE_PAISE });
    await personDecides(t, txnId, 'failed');
    assert.equal((await final(body.reference_id)).body.data.status, 'failed');
    assert.deepEqual(await balance(), { balance: before.balance - FEE_PAISE, held: 0 }, 'a failed check keeps its fee (a person who learns nothing was made settles it with the client outside Sangam)');
  });

  it('a read timeout while Cashfree works: pending, the late request makes no second penny drop and nothing is sent again', async () => {
    emu.setFaults({ timeout_next: 1, timeout_ms: 1200, scope: 'create' });
    const body = { ...VALID.bank(), mobile: '9812345670' };
    const r = await lookup(body);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.statuscode, 'TUP', r.text);
    const txnId = await txnIdOf(body.reference_id);
    await eventually(async () => dropsFor(txnId).length === 1);
    await sleep(300);
    assert.equal(dropsFor(txnId).length, 1);
    assert.deepEqual(sentFor(txnId).map((q) => q.method), ['POST']);
    await personDecides(t, txnId, 'failed');
    assert.equal((await final(body.reference_id)).body.data.status, 'failed');
  });

  it('a 429 before execution: 502, nothing charged, the reference freed so a retry succeeds', async () => {
    emu.setFaults({ throttle_next: 1, scope: 'create' });
    const before = await balance();
    const body = { ...VALID.bank(), mobile: '9812345671' };
    const r = await lookup(body);
    assert.equal(r.status, 502, r.text);
    assert.equal(r.body.data.Errorcode, 113);
    assert.match(r.body.data.Message, /Cashfree is throttling requests \(HTTP 429\); nothing was executed or debited/);
    assert.deepEqual(await balance(), before);
    const retry = await lookup(body);
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.body.data.status, 'success');
  });

  it('a 400 refusal carries Cashfree’s code and text; nothing is made', async () => {
    const router = t.services.partners!;
    await assert.rejects(
      router.execute({ operation: 'mobile-to-bank-account', txnId: 'txn_BadMobile0000000001', mobile: '5555555555' }),
      (err: Error) => /Cashfree refused the penny drop \(HTTP 400: mobile_number_invalid/.test(err.message) && err.constructor.name === 'PartnerError',
    );
    assert.equal(dropsFor('txn_BadMobile0000000001').length, 0);
  });

  it('status enquiry: null only when nothing was ever sent (our own record); never a call to a route Cashfree does not document', async () => {
    const router = t.services.partners!;
    const tx = { txnId: 'txn_NeverSentAnything01', operation: 'mobile-to-bank-account' as const, partnerRef: null, amountPaise: null, commissionPaise: 0 };
    assert.equal(await router.status('cashfreevrs', tx), null);
  });

  it('Cashfree unreachable: 502, nothing charged', async () => {
    const down = await startCfApp(emu, { SANGAM_PARTNER_CASHFREEVRS_URL: 'http://127.0.0.1:1/verification' });
    try {
      const r = await down.call('POST', PATHS.bank, { key: down.liveKey, body: VALID.bank() });
      assert.equal(r.status, 502, r.text);
      assert.match(r.body.data.Message, /Cashfree is unreachable; nothing was executed or debited/);
      await assertLedgerHolds(down.store.db);
    } finally {
      await down.close();
    }
  });

});

describe('cashfree-verification transformers and variables', () => {
  it('maps VALID, INVALID, PENDING, and anything else to pending', () => {
    assert.deepEqual(['VALID', 'INVALID', 'PENDING', 'RECEIVED', ''].map(statusOf), ['success', 'failed', 'pending', 'pending', 'pending']);
  });

  it('a VALID answer without its account is unusable (never a success without an account)', () => {
    assert.equal(outcomeOf({ status: 'VALID', bank_account: null, ifsc: 'HDFC0000001', name_at_bank: 'A B' }, 'txn_x', {}), null);
    const o = outcomeOf({ status: 'VALID', bank_account: '001234567890', ifsc: 'hdfc0000001', name_at_bank: 'A B', reference_id: 7 }, 'txn_x', {});
    assert.equal(o?.partnerRef, '7');
    const fields = o && answerOf(o).fields; // as the router hands it to the core
    assert.deepEqual((fields?.account as Record<string, unknown>).account_number, 'XXXXXXXX7890');
    assert.equal((fields?.account as Record<string, unknown>).ifsc, 'HDFC0000001');
  });

  it('the factory names a missing or malformed variable in full', () => {
    const ctx = (vars: Record<string, string>) => ({ name: 'cfv', url: 'http://127.0.0.1:1', vars, timeoutFor: () => 1000 }) as unknown as PartnerContext;
    assert.throws(() => createCashfreeVerification(ctx({ CLIENT_ID: 'x' })), /SANGAM_PARTNER_CFV_CLIENT_SECRET is required/);
    assert.throws(() => createCashfreeVerification(ctx({ CLIENT_SECRET: 'y' })), /SANGAM_PARTNER_CFV_CLIENT_ID is required/);
    assert.throws(() => createCashfreeVerification(ctx({ CLIENT_ID: 'x', CLIENT_SECRET: 'y', API_VERSION: 'v2' })), /SANGAM_PARTNER_CFV_API_VERSION must be a date/);
  });
});
