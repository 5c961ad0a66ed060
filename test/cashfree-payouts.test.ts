// The cashfree-payouts connector end to end: Sangam's HTTP surface, a live app listening on a real
// port, the Cashfree Payouts V2 emulator in-process calling back at /partners/cashfree/webhooks, the
// wallet and the ledger (the ledger check runs after every test). The shared connector conformance
// scenarios run through its adapter (connector-conformance.ts); the tests beside them are Cashfree's
// own. Plus unit-level checks of the transformers, the amount conversion and the webhook verifier.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCashfreePayoutsEmulator, type CashfreePayoutsEmulator } from '../partner-sim/cashfree-payouts/index.js';
import { createCashfreePayouts } from '../src/providers/cashfree-payouts/index.js';
import { eventIdOf, eventsOf, outcomeOf, paiseOf, reportOf, rupeesOf, statusOf, transferBody, type CfTransfer } from '../src/providers/cashfree-payouts/transformers.js';
import { parseWebhook, signatureOf, verifySignature } from '../src/providers/cashfree-payouts/webhook.js';
import { CallbackRefused } from '../src/providers/connector.js';
import { eventually, PATHS, sleep, VALID } from './harness.js';
import { acceptedTxnId, factoryContext, liveReads, partnerSuiteEnv, partnerSuiteLife, startPartnerApp, type PartnerApp } from './live-harness.js';
import { conformance } from './connector-conformance.js';

const CLIENT_SECRET = 'cfsk_ma_test_secret_for_tests';
const FEE_PAISE = 100; // the default price of upi-payment-status

/** A live app whose upi-payment-status goes to the partner `cashfree` (kind cashfree-payouts) at the emulator. */
async function startCfApp(emu: CashfreePayoutsEmulator, port: number | null, env: Record<string, string> = {}): Promise<PartnerApp> {
  const vars = { CLIENT_ID: emu.settings.clientId, CLIENT_SECRET: CLIENT_SECRET };
  return startPartnerApp(
    { ...partnerSuiteEnv('cashfree', 'cashfree-payouts', emu.url, vars, 'upi-payment-status'), SANGAM_PARTNER_TIMEOUT_MS: '1000', SANGAM_RECONCILE_SCHEDULE: '3', SANGAM_WEBHOOK_POLL_MS: '50', ...env },
    { port },
  );
}

describe('cashfree-payouts connector, end to end', () => {
  let emu: CashfreePayoutsEmulator;
  let t: PartnerApp;

  partnerSuiteLife(async (port) => {
    emu = await startCashfreePayoutsEmulator({
      clientSecret: CLIENT_SECRET,
      webhookUrl: `http://127.0.0.1:${port}/partners/cashfree/webhooks`,
      pendingMs: 150,
      latencyMs: 0,
      rateLimitPerMinute: 0,
      webhookAttempts: 2,
      webhookRetryBaseMs: 100,
    });
    t = await startCfApp(emu, port);
    return { emu, t };
  });

  const pay = (body: Record<string, unknown>) => t.call('POST', PATHS.upi, { key: t.liveKey, body });
  const { txOf, wallet, final } = liveReads(() => t);
  const transfersOf = (txnId: string) => emu.transfers().filter((r) => r.transfer.transfer_id === txnId);
  /** What /_sim/transfers says about one transfer_id: the transfer and how many creates arrived. */
  const ledgerOf = async (txnId: string) => {
    const l = (await (await fetch(`${emu.origin}/_sim/transfers`)).json()) as { transfers: Array<{ transfer_id: string; requests: number }> };
    return l.transfers.filter((x) => x.transfer_id === txnId);
  };
  const settle = (txnId: string, body: Record<string, unknown>) =>
    fetch(`${emu.origin}/_sim/transfers/${txnId}/settle`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const callbacksOf = (txnId: string) => t.store.db.selectFrom('partner_callbacks').selectAll().where('txn_id', '=', txnId).execute();
  const sendWebhook = (body: string, headers: Record<string, string>) =>
    fetch(`${t.base}/partners/cashfree/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const signed = (body: string, ts = String(Date.now()), secret = CLIENT_SECRET) => ({ 'x-webhook-timestamp': ts, 'x-webhook-signature': signatureOf(ts, body, secret), 'x-webhook-version': '2024-01-01' });

  const transferEvent = (txnId: string) =>
    JSON.stringify({
      data: { ...transfersOf(txnId)[0]!.transfer, status: 'SUCCESS', status_code: 'SENT_TO_BENEFICIARY', transfer_utr: '9999999999999999' },
      event_time: '2024-07-25T17:43:37',
      type: 'TRANSFER_SUCCESS',
    });

  conformance({
    kind: 'cashfree-payouts',
    app: () => t,
    path: PATHS.upi,
    body: (steer) => ({ ...VALID.upi(), vpa: { success: 'priya.sharma@okaxis', refusal: 'failure@ybl', held: 'hold@ybl' }[steer], amount: 100.07 }),
    debit: () => 10007 + FEE_PAISE,
    refusalCharge: () => 0,
    refusalMessage: /failed at Cashfree: imps mode fail/,
    madeAt: (txnId) => transfersOf(txnId).length,
    creates: async (txnId) => (await ledgerOf(txnId))[0]?.requests ?? 0,
    setFaults: (f) => emu.setFaults(f),
    faults: {
      'error-after-work': { error_after_accept_next: 1, error_status: 500, scope: 'create_transfer', drop_webhooks: true },
      'error-before-work': { error_next: 1, error_status: 503, scope: 'create_transfer', drop_webhooks: true }, // [P] a 5xx is never a refusal: check status first
      'duplicate-webhooks': { duplicate_webhooks: true },
    },
    settle: async (txnId) => assert.equal((await settle(txnId, { status: 'SUCCESS' })).status, 200),
    forge: async (txnId) => {
      const event = transferEvent(txnId);
      const ts = String(Date.now());
      const statuses = [
        await sendWebhook(event, signed(event, ts, 'not the secret')),
        await sendWebhook(event, {}),
        await sendWebhook(event, { 'x-webhook-signature': signatureOf(ts, event, CLIENT_SECRET) }), // no timestamp
        await sendWebhook(event, { 'x-webhook-timestamp': String(Number(ts) + 1), 'x-webhook-signature': signatureOf(ts, event, CLIENT_SECRET) }),
        await sendWebhook(event, signed(event, String(Date.now() - 10 * 60_000))), // outside the window
      ];
      // none counted (the emulator's own TRANSFER_ACKNOWLEDGED may be, by now)
      assert.deepEqual((await callbacksOf(txnId)).filter((c) => c.status === 'success'), []);
      return statuses.map((x) => x.status);
    },
    duplicatesDelivered: async (txnId) => {
      const d = emu.webhookLog().filter((x) => x.transfer_id === txnId && x.http_status === 200);
      const types = new Set(d.map((x) => x.type));
      return d.length === 2 * types.size && types.has('TRANSFER_SUCCESS') && (await callbacksOf(txnId)).length === types.size;
    },
    lost: 'pending-then-failed',
    lookupUnknown: async (missing) => {
      const r = await fetch(`${emu.origin}/_sim/lookup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ missing }) });
      assert.equal(r.status, 200);
    },
    wrongCredentials: { start: (env) => startCfApp(emu, null, { ...env, SANGAM_PARTNER_CASHFREE_CLIENT_SECRET: 'wrong_secret' }), message: /Cashfree refused our API credentials \(HTTP 401\)/, secret: 'wrong_secret' },
    total: () => emu.transfers().length,
    afterSuccess: async (txnId, done) => {
      assert.equal(done.body.data.amount, 100.07);
      const [rec, ...more] = transfersOf(txnId);
      assert.equal(more.length, 0);
      assert.equal(rec!.amountPaise, 10007);
      assert.equal(rec!.transfer.transfer_amount, 100.07);
      assert.equal(rec!.transfer.transfer_mode, 'upi');
      assert.equal(rec!.transfer.beneficiary_details.beneficiary_instrument_details.vpa, 'priya.sharma@okaxis');
      assert.equal(rec!.apiVersion, '2024-01-01');
      assert.equal(done.body.data.utr, rec!.transfer.transfer_utr);
      assert.match(done.body.data.utr, /^\d{16}$/);
      assert.deepEqual((await ledgerOf(txnId)).map((x) => x.requests), [1]);
      // settled by the signed webhook, not by the reconciler; the cf_transfer_id is kept as our reference
      assert.ok((await callbacksOf(txnId)).some((c) => c.status === 'success' && c.outcome === 'settled'));
      const row = await t.store.db.selectFrom('transactions').select(['partner', 'partner_ref']).where('id', '=', txnId).executeTakeFirstOrThrow();
      assert.deepEqual(row, { partner: 'cashfree', partner_ref: rec!.transfer.cf_transfer_id });
    },
  });

  for (const [vpa, why] of [
    ['rejected@ybl', /rejected at Cashfree: bene blacklisted/],
    ['denied@ybl', /manually rejected at Cashfree/],
  ] as const) {
    it(`${vpa}: pending, then failed; hold released, nothing charged`, async () => {
      const before = await wallet();
      const body = { ...VALID.upi(), vpa, amount: 42 };
      const r = await pay(body);
      assert.equal(r.body.statuscode, 'TUP');
      const done = await final(body.reference_id);
      assert.equal(done.body.statuscode, 'ERR');
      assert.equal(done.body.data.status, 'failed');
      assert.match(done.body.data.message, why);
      assert.deepEqual(await wallet(), before);
    });
  }

  it('approval@: APPROVAL_PENDING and QUEUED stay pending, then success', async () => {
    const body = { ...VALID.upi(), vpa: 'approval@ybl', amount: 5 };
    const r = await pay(body);
    const txnId = r.body.data.txn_id as string;
    await eventually(async () => transfersOf(txnId)[0]?.transfer.status === 'QUEUED');
    assert.equal((await txOf(body.reference_id)).body.data.status, 'pending');
    assert.equal((await final(body.reference_id)).body.data.status, 'success');
  });

  it('pending → final by webhook when Cashfree settles it', async () => {
    const body = { ...VALID.upi(), vpa: 'hold@ybl', amount: 20 };
    const r = await pay(body);
    const txnId = r.body.data.txn_id as string;
    await sleep(300);
    assert.equal((await txOf(body.reference_id)).body.data.status, 'pending');
    assert.equal((await settle(txnId, { status: 'SUCCESS' })).status, 200);
    const done = await final(body.reference_id);
    assert.equal(done.body.data.status, 'success');
    assert.ok((await callbacksOf(txnId)).some((c) => c.outcome === 'settled'));
  });

  it('pending → final by polling GET /transfers?transfer_id= when webhooks are dropped', async () => {
    emu.setFaults({ drop_webhooks: true });
    const before = await wallet();
    const body = { ...VALID.upi(), vpa: 'hold@ybl', amount: 30 };
    const r = await pay(body);
    const txnId = r.body.data.txn_id as string;
    await settle(txnId, { status: 'SUCCESS' });
    const done = await final(body.reference_id);
    assert.equal(done.body.data.status, 'success');
    assert.equal(done.body.data.utr, transfersOf(txnId)[0]!.transfer.transfer_utr);
    assert.deepEqual(await callbacksOf(txnId), []);
    // the transfer was known: the status came from GET, never from a resent create
    assert.deepEqual((await ledgerOf(txnId)).map((x) => x.requests), [1]);
    assert.deepEqual(await wallet(), { balance: before.balance - 3000 - FEE_PAISE, held: 0 });
  });

  it('a genuinely signed webhook settles; a redelivery (fresh timestamp and signature, same event) is dropped', async () => {
    const body = { ...VALID.upi(), vpa: 'hold@ybl', amount: 15 };
    const r = await pay(body);
    const txnId = r.body.data.txn_id as string;
    const held = await wallet();
    const event = transferEvent(txnId);
    const ok = await sendWebhook(event, signed(event));
    assert.equal(ok.status, 200);
    assert.equal(((await ok.json()) as { result: string }).result, 'settled');
    const done = await txOf(body.reference_id);
    assert.equal(done.body.data.status, 'success');
    assert.equal(done.body.data.utr, '9999999999999999');
    // Cashfree documents no event id: a redelivery (fresh timestamp and signature, same event) is the same event
    await sleep(5);
    const again = await sendWebhook(event, signed(event));
    assert.equal(((await again.json()) as { result: string }).result, 'duplicate');
    assert.equal((await callbacksOf(txnId)).length, 1);
    assert.equal((await callbacksOf(txnId))[0]!.webhook_id, `cashfree:TRANSFER_SUCCESS:${txnId}:SUCCESS:SENT_TO_BENEFICIARY`);
    assert.equal((await wallet()).held, held.held - 1500 - FEE_PAISE);
  });

  it('webhooks the emulator signs with a wrong key are refused (401); polling settles the transfer instead', async () => {
    emu.setFaults({ bad_signature: true });
    const body = { ...VALID.upi(), vpa: 'signed.wrong@ybl', amount: 8 };
    const r = await pay(body);
    const txnId = r.body.data.txn_id as string;
    await eventually(async () => emu.webhookLog().some((d) => d.transfer_id === txnId && d.http_status === 401));
    const done = await final(body.reference_id);
    assert.equal(done.body.data.status, 'success');
    assert.deepEqual(await callbacksOf(txnId), []);
    assert.ok(emu.webhookLog().filter((d) => d.transfer_id === txnId).every((d) => d.http_status === 401 && d.signature === 'bad'));
  });

  it('out-of-order events, each delivered twice, are applied once', async () => {
    emu.setFaults({ duplicate_webhooks: true, out_of_order: true });
    const before = await wallet();
    const body = { ...VALID.upi(), vpa: 'dup.payee@ybl', amount: 12 };
    const r = await pay(body);
    const txnId = r.body.data.txn_id as string;
    assert.equal((await final(body.reference_id)).body.data.status, 'success');
    const delivered = await eventually(async () => {
      const d = emu.webhookLog().filter((x) => x.transfer_id === txnId && x.http_status === 200);
      return d.length >= 4 && d;
    });
    assert.deepEqual([...new Set(delivered.map((d) => d.type))].sort(), ['TRANSFER_ACKNOWLEDGED', 'TRANSFER_SUCCESS']);
    assert.equal((await callbacksOf(txnId)).length, 2); // each event once
    assert.deepEqual(await wallet(), { balance: before.balance - 1200 - FEE_PAISE, held: 0 });
  });

  it('reversal: stays success with reversed_at/reversal_reason, the debit comes back by a correcting posting, transaction.reversed is written', async () => {
    const ep = await t.call('POST', '/api/v1/webhook-endpoints', { key: t.liveKey, body: { url: 'https://127.0.0.1:9/hooks' } });
    assert.equal(ep.status, 200, ep.text);
    const before = await wallet();
    const body = { ...VALID.upi(), vpa: 'reverse@ybl', amount: 77 };
    const r = await pay(body);
    const txnId = r.body.data.txn_id as string;
    const done = await eventually(async () => {
      const x = await txOf(body.reference_id);
      return x.body.data.reversed_at && x;
    }, 8000);
    assert.equal(done.body.data.status, 'success');
    assert.ok(done.body.data.reversal_reason.length > 0);
    assert.ok(!Number.isNaN(Date.parse(done.body.data.reversed_at)));
    assert.equal(done.body.data.utr, transfersOf(txnId)[0]!.transfer.transfer_utr);
    assert.ok((await callbacksOf(txnId)).some((c) => c.outcome === 'reversed'));
    assert.deepEqual(await wallet(), before);
    const events = await t.store.db.selectFrom('webhook_events').select(['type']).where('txn_id', '=', txnId).execute();
    assert.ok(events.some((e) => e.type === 'transaction.reversed'), JSON.stringify(events));
    // a status enquiry seeing REVERSED again returns nothing twice
    const report = await t.services.partners!.status('cashfree', { txnId, operation: 'upi-payment-status', partnerRef: null, amountPaise: 7700, commissionPaise: 0 });
    assert.equal(report!.outcome.status, 'success');
    assert.ok(report!.reversal);
    assert.equal(await t.services.settlement.apply(report!, 'cashfree', null), 'already_final');
    assert.deepEqual(await wallet(), before);
    await t.call('DELETE', `/api/v1/webhook-endpoints/${ep.body.data.id}`, { key: t.liveKey });
  });

  for (const [name, faults] of [
    ['a read timeout while Cashfree is still working', { timeout_next: 1, timeout_ms: 1500, scope: 'create_transfer' as const }],
  ] as const) {
    it(`no answer (${name}): TUP; the client's retry sends nothing; reconciliation settles it; one transfer`, async () => {
      emu.setFaults({ ...faults, drop_webhooks: true });
      const before = await wallet();
      const body = { ...VALID.upi(), vpa: 'crash.case@ybl', amount: 55 };
      const txnId = acceptedTxnId(await pay(body));
      const seenBefore = (await ledgerOf(txnId))[0]?.requests ?? 0;
      const again = await pay(body);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.body.data.txn_id, txnId);
      assert.equal((await ledgerOf(txnId))[0]?.requests ?? 0, seenBefore, 'the client retry sent nothing');
      const done = await final(body.reference_id, 12000);
      assert.equal(done.body.data.status, 'success');
      const recs = transfersOf(txnId);
      assert.equal(recs.length, 1);
      assert.equal(done.body.data.utr, recs[0]!.transfer.transfer_utr);
      assert.deepEqual(await callbacksOf(txnId), []);
      assert.equal((await ledgerOf(txnId))[0]?.requests, 1, 'reconciliation looked the transfer up; it never sent it again');
      assert.deepEqual(await wallet(), { balance: before.balance - 5500 - FEE_PAISE, held: 0 });
    });
  }

  for (const [name, setup, match] of [
    ['429', () => emu.setFaults({ throttle_next: 1, scope: 'create_transfer' }), /Cashfree is throttling requests \(HTTP 429, retry after 1 s\)/],
    ['403 apis_not_enabled', () => emu.setFaults({ apis_not_enabled: true }), /Cashfree refused the request \(HTTP 403: apis_not_enabled/],
    // Cashfree's OpenAPI documents this 500 (AuthenticationError): the request was never authenticated, nothing ran.
    ['500 authentication_error', () => emu.setFaults({ authentication_error: true, scope: 'create_transfer' }), /Cashfree could not authenticate the request \(HTTP 500 authentication_error\)/],
  ] as const) {
    it(`a ${name} before execution: 502, nothing debited, the key freed so a retry succeeds`, async () => {
      setup();
      const before = await wallet();
      const count = emu.transfers().length;
      const body = { ...VALID.upi(), vpa: 'retry.me@ybl', amount: 9.99 };
      const r = await pay(body);
      assert.equal(r.status, 502, r.text);
      assert.equal(r.body.statuscode, 'ERR');
      assert.equal(r.body.data.Errorcode, 113);
      assert.match(r.body.data.Message, match);
      assert.match(r.body.data.Message, /nothing was executed or debited/);
      assert.doesNotMatch(r.text, new RegExp(CLIENT_SECRET));
      assert.deepEqual(await wallet(), before);
      assert.equal(emu.transfers().length, count);
      emu.setFaults({});
      const retry = await pay(body);
      assert.equal(retry.status, 200, retry.text);
      assert.equal(retry.body.statuscode, 'TUP');
      assert.equal(emu.transfers().length, count + 1);
      assert.equal((await final(body.reference_id)).body.data.status, 'success');
    });
  }

  it('a VPA Cashfree documents as invalid (hyphen after the @) is refused before sending: 502, nothing sent or debited', async () => {
    const before = await wallet();
    const count = emu.transfers().length;
    const r = await pay({ ...VALID.upi(), vpa: 'shop@ok-axis', amount: 3 });
    assert.equal(r.status, 502, r.text);
    assert.match(r.body.data.Message, /Cashfree takes a VPA/);
    assert.equal(emu.transfers().length, count);
    assert.deepEqual(await wallet(), before);
  });

  it('status enquiry: null when Cashfree knows no such transfer and none was sent from here; never creates one', async () => {
    const router = t.services.partners!;
    const count = emu.transfers().length;
    const tx = { txnId: 'txn_NeverSentAnything01', operation: 'upi-payment-status' as const, partnerRef: null, amountPaise: 100, commissionPaise: 0 };
    assert.equal(await router.status('cashfree', tx), null);
    assert.equal(emu.transfers().length, count);
  });
});

describe('cashfree-payouts transformers and verifier', () => {
  const transfer = (over: Partial<CfTransfer>): CfTransfer => ({ transfer_id: 'txn_Abc', cf_transfer_id: '123456', status: 'RECEIVED', status_code: 'RECEIVED', transfer_amount: 123.45, ...over });

  it('maps the documented statuses, and anything else to pending', () => {
    for (const s of ['SUCCESS', 'REVERSED']) assert.equal(statusOf(s), 'success');
    for (const s of ['FAILED', 'REJECTED', 'MANUALLY_REJECTED']) assert.equal(statusOf(s), 'failed');
    for (const s of ['RECEIVED', 'APPROVAL_PENDING', 'QUEUED', 'PENDING', 'COMPLETED', 'success', 'ON_HOLD', '']) assert.equal(statusOf(s), 'pending');
    const o = outcomeOf(transfer({ status: 'SOMETHING_NEW' }), 'txn_Abc');
    assert.equal(o.status, 'pending');
    assert.equal(o.partnerRef, '123456');
  });

  it('amounts: paise to rupees and back exactly, no float arithmetic', () => {
    for (const [paise, rupees] of [[100, 1], [10050, 100.5], [10007, 100.07], [1, 0.01], [9_999_999_999, 99_999_999.99], [29, 0.29], [57, 0.57]] as const) {
      assert.equal(rupeesOf(paise), rupees);
      assert.equal(JSON.stringify(rupeesOf(paise)), String(rupees));
      assert.equal(paiseOf(rupees), paise);
    }
    for (const bad of [1.005, -1, Number.NaN, '1.00', 1e21]) assert.equal(paiseOf(bad), null);
    assert.equal(transferBody({ txnId: 'txn_A', vpa: 'a@b', amountPaise: 1999 }).transfer_amount, 19.99);
  });

  it('result fields: txn_id ours, amount in INR, utr the transfer’s', () => {
    assert.deepEqual(outcomeOf(transfer({ status: 'SUCCESS', transfer_utr: '1732088013492889' }), 'txn_Abc').fields, { txn_id: 'txn_Abc', amount: 123.45, utr: '1732088013492889' });
  });

  it('a REVERSED transfer is a success with a reversal; at = updated_on, else the event time (India)', () => {
    const [e] = eventsOf({ type: 'TRANSFER_REVERSED', event_time: '2024-07-25T17:43:37', data: transfer({ status: 'REVERSED', status_code: 'INVALID_ACCOUNT_FAIL' }) });
    assert.equal(e!.outcome.status, 'success');
    assert.deepEqual(e!.reversal, { reason: 'Transfer reversed by the bank: invalid account fail', at: new Date('2024-07-25T12:13:37Z') });
    assert.equal(e!.eventId, 'TRANSFER_REVERSED:txn_Abc:REVERSED:INVALID_ACCOUNT_FAIL');
    assert.deepEqual(reportOf(transfer({ status: 'REVERSED', updated_on: '2021-11-24T13:40:27Z' }), 'txn_Abc').reversal?.at, new Date('2021-11-24T13:40:27Z'));
    assert.equal(reportOf(transfer({ status: 'SUCCESS' }), 'txn_Abc').reversal, undefined);
  });

  it('events: someone else’s transfer_id is not taken for ours; non-transfer events are acknowledged and ignored', () => {
    const [e] = eventsOf({ type: 'TRANSFER_SUCCESS', data: transfer({ transfer_id: 'JUNOB2018', status: 'SUCCESS' }) });
    assert.equal(e!.txnId, null);
    assert.equal(e!.partnerRef, '123456');
    assert.deepEqual(eventsOf({ type: 'LOW_BALANCE_ALERT', data: undefined }), []);
    assert.notEqual(eventIdOf('TRANSFER_SUCCESS', transfer({ status: 'SUCCESS', status_code: 'SENT_TO_BENEFICIARY' })), eventIdOf('TRANSFER_ACKNOWLEDGED', transfer({ status: 'SUCCESS', status_code: 'COMPLETED' })));
  });

  it('the signature is Base64 HMAC-SHA256 of timestamp + raw body under the client secret; anything else is refused', () => {
    const raw = '{"data":{"transfer_id":"txn_A","status":"SUCCESS"},"type":"TRANSFER_SUCCESS"}';
    const now = 1_746_427_759_733;
    const ts = String(now);
    const sig = signatureOf(ts, raw, 's3cret');
    assert.match(sig, /^[A-Za-z0-9+/]{43}=$/);
    assert.ok(verifySignature(ts, raw, sig, 's3cret'));
    assert.ok(!verifySignature(ts, `${raw} `, sig, 's3cret'));
    assert.ok(!verifySignature(String(now + 1), raw, sig, 's3cret'));
    assert.ok(!verifySignature(ts, raw, Buffer.from(sig, 'base64').toString('hex'), 's3cret'));
    const headers = { 'x-webhook-signature': sig, 'x-webhook-timestamp': ts };
    assert.equal(parseWebhook({ headers, rawBody: raw }, 's3cret', now + 60_000).length, 1);
    assert.throws(() => parseWebhook({ headers, rawBody: raw }, 's3cret', now + 6 * 60_000), CallbackRefused);
    assert.throws(() => parseWebhook({ headers: { 'x-webhook-signature': sig }, rawBody: raw }, 's3cret', now), CallbackRefused);
    assert.throws(() => parseWebhook({ headers: { ...headers, 'x-webhook-signature': [sig, sig] }, rawBody: raw }, 's3cret', now), CallbackRefused);
  });

  it('the transfer body: UPI to the VPA inline, our txn id as transfer_id', () => {
    assert.deepEqual(transferBody({ txnId: 'txn_Abc', vpa: 'a.b@ybl', amountPaise: 10050 }), {
      transfer_id: 'txn_Abc',
      transfer_amount: 100.5,
      transfer_currency: 'INR',
      transfer_mode: 'upi',
      beneficiary_details: { beneficiary_name: 'Sangam UPI Payee', beneficiary_instrument_details: { vpa: 'a.b@ybl' } },
      transfer_remarks: 'Sangam UPI payout',
    });
  });

  it('the factory names the full variable that is missing or malformed', () => {
    const ctx = (vars: Record<string, string>) => factoryContext('cashfree', vars, 'http://127.0.0.1:1/payout');
    const all = { CLIENT_ID: 'CF_ID', CLIENT_SECRET: 'cfsk_x' };
    for (const v of Object.keys(all)) {
      const { [v]: _, ...rest } = all as Record<string, string>;
      assert.throws(() => createCashfreePayouts(ctx(rest)), new RegExp(`SANGAM_PARTNER_CASHFREE_${v} is required`));
    }
    assert.throws(() => createCashfreePayouts(ctx({ ...all, API_VERSION: '2024/01/01' })), /SANGAM_PARTNER_CASHFREE_API_VERSION must be a date/);
    assert.throws(() => createCashfreePayouts(ctx({ ...all, CLIENT_SECRET: 'has space' })), /SANGAM_PARTNER_CASHFREE_CLIENT_SECRET must be/);
    void createCashfreePayouts(ctx(all)).close?.();
  });
});
