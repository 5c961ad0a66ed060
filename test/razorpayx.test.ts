// The razorpayx connector end to end: Sangam's HTTP surface, a live app listening on a real port, the
// RazorpayX emulator in-process calling back at /partners/rzp/webhooks, the wallet and the ledger (the
// ledger check runs after every test). The shared connector conformance scenarios run through its
// adapter (connector-conformance.ts); the tests beside them are RazorpayX's own. Plus a few unit-level
// checks of the transformers and verifier.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startRazorpayxEmulator, type RazorpayxEmulator } from '../partner-sim/razorpayx/index.js';
import { createRazorpayx } from '../src/providers/razorpayx/index.js';
import { createPayoutBody, eventsOf, outcomeOf, reportOf, statusOf, type RzpPayout } from '../src/providers/razorpayx/transformers.js';
import { parseWebhook, signatureOf, verifySignature } from '../src/providers/razorpayx/webhook.js';
import { CallbackRefused } from '../src/providers/connector.js';
import { eventually, PATHS, sleep, VALID } from './harness.js';
import { acceptedTxnId, factoryContext, liveReads, partnerSuiteEnv, partnerSuiteLife, startPartnerApp, type PartnerApp } from './live-harness.js';
import { conformance } from './connector-conformance.js';

const WEBHOOK_SECRET = 'rzp_webhook_secret_for_tests';
const FEE_PAISE = 100; // the default price of upi-payment-status

/** A live app whose upi-payment-status goes to the partner `rzp` (kind razorpayx) at the emulator. */
async function startRzpApp(emu: RazorpayxEmulator, port: number | null, env: Record<string, string> = {}): Promise<PartnerApp> {
  const s = emu.settings;
  const vars = { KEY_ID: s.keyId, KEY_SECRET: s.keySecret, ACCOUNT_NUMBER: s.accountNumber, FAV_ACCOUNT_NUMBER: s.liteAccountNumber, WEBHOOK_SECRET: WEBHOOK_SECRET };
  return startPartnerApp(
    { ...partnerSuiteEnv('rzp', 'razorpayx', emu.url, vars, 'upi-payment-status'), SANGAM_PARTNER_TIMEOUT_MS: '1000', SANGAM_RECONCILE_SCHEDULE: '3', SANGAM_WEBHOOK_POLL_MS: '50', ...env },
    { port },
  );
}

describe('razorpayx connector, end to end', () => {
  let emu: RazorpayxEmulator;
  let t: PartnerApp;

  partnerSuiteLife(async (port) => {
    emu = await startRazorpayxEmulator({
      keySecret: 'rzp_key_secret_for_tests',
      webhookSecret: WEBHOOK_SECRET,
      webhookUrl: `http://127.0.0.1:${port}/partners/rzp/webhooks`,
      pendingMs: 150,
      latencyMs: 0,
      webhookAttempts: 2,
      webhookRetryBaseMs: 100,
    });
    t = await startRzpApp(emu, port);
    return { emu, t };
  });

  const pay = (body: Record<string, unknown>) => t.call('POST', PATHS.upi, { key: t.liveKey, body });
  const { txOf, wallet, final } = liveReads(() => t);
  const payoutsOf = (txnId: string) => emu.payouts().filter((p) => p.payout.reference_id === txnId);
  const requestsFor = async (key: string) => {
    const l = (await (await fetch(`${emu.url}/_sim/payouts`)).json()) as { idempotency: Record<string, { requests: number; payouts: number }> };
    return l.idempotency[key];
  };
  const callbacksOf = (txnId: string) => t.store.db.selectFrom('partner_callbacks').selectAll().where('txn_id', '=', txnId).execute();
  const sendWebhook = (body: string, headers: Record<string, string>) =>
    fetch(`${t.base}/partners/rzp/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

  const settlePayout = (txnId: string) =>
    fetch(`${emu.url}/_sim/payouts/${payoutsOf(txnId)[0]!.payout.id}/settle`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"status":"processed"}' });
  const payoutEvent = (txnId: string) =>
    JSON.stringify({
      entity: 'event',
      account_id: 'acc_x',
      event: 'payout.processed',
      contains: ['payout'],
      payload: { payout: { entity: { ...payoutsOf(txnId)[0]!.payout, status: 'processed', utr: '999999999999' } } },
      created_at: Math.floor(Date.now() / 1000),
    });

  conformance({
    kind: 'razorpayx',
    app: () => t,
    path: PATHS.upi,
    body: (steer) => ({ ...VALID.upi(), vpa: { success: 'priya.sharma@okaxis', refusal: 'failure@ybl', held: 'pending@ybl' }[steer], amount: 100.5 }),
    debit: () => 10050 + FEE_PAISE,
    refusalCharge: () => 0,
    refusalMessage: /beneficiary bank rejected/,
    madeAt: (txnId) => payoutsOf(txnId).length,
    creates: async (txnId) => (await requestsFor(txnId))?.requests ?? 0,
    setFaults: (f) => emu.setFaults(f),
    faults: {
      'error-after-work': { error_after_accept_next: 1, error_status: 500, scope: 'create_payout', drop_webhooks: true },
      'error-before-work': { error_next: 1, error_status: 503, scope: 'create_payout', drop_webhooks: true }, // PARTNERS.md documents no 5xx as "not executed"
      'duplicate-webhooks': { duplicate_webhooks: true },
    },
    settle: async (txnId) => assert.equal((await settlePayout(txnId)).status, 200),
    forge: async (txnId) => {
      const event = payoutEvent(txnId);
      const statuses = await Promise.all([
        sendWebhook(event, { 'x-razorpay-signature': signatureOf(event, 'not the secret'), 'x-razorpay-event-id': 'evt_forged01' }),
        sendWebhook(event, { 'x-razorpay-event-id': 'evt_unsigned1' }),
        sendWebhook(event, { 'x-razorpay-signature': signatureOf(event, WEBHOOK_SECRET).toUpperCase(), 'x-razorpay-event-id': 'evt_upper001' }),
        sendWebhook(event, { 'x-razorpay-signature': signatureOf(event, WEBHOOK_SECRET) }), // no event id
      ]);
      // none counted (the emulator's own payout.initiated may be, by now)
      assert.deepEqual((await callbacksOf(txnId)).filter((c) => c.webhook_id.startsWith('rzp:evt_')), []);
      return statuses.map((x) => x.status);
    },
    duplicatesDelivered: async (txnId) => {
      const id = payoutsOf(txnId)[0]!.payout.id;
      const d = emu.webhookLog().filter((x) => x.payout_id === id && x.status_code === 200);
      const events = new Set(d.map((x) => x.event_id));
      // each event delivered twice (initiated and processed), each counted once
      return d.length === 2 * events.size && events.size >= 2 && (await callbacksOf(txnId)).length === events.size;
    },
    lost: 'pending-then-failed',
    lookupUnknown: async (missing) => {
      const r = await fetch(`${emu.url}/_sim/lookup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ missing }) });
      assert.equal(r.status, 200);
    },
    wrongCredentials: { start: (env) => startRzpApp(emu, null, { ...env, SANGAM_PARTNER_RZP_KEY_SECRET: 'wrong_key_secret' }), message: /RazorpayX refused our API credentials \(HTTP 401\)/, secret: 'wrong_key_secret' },
    total: () => emu.payouts().length,
    afterSuccess: async (txnId, done) => {
      const [payout, ...more] = payoutsOf(txnId);
      assert.equal(more.length, 0);
      assert.equal(payout!.idempotencyKey, txnId);
      assert.equal(payout!.payout.amount, 10050);
      assert.equal(payout!.payout.mode, 'UPI');
      assert.equal(done.body.data.utr, payout!.payout.utr);
      assert.match(done.body.data.utr, /^\d{12}$/);
      assert.deepEqual(await requestsFor(txnId), { requests: 1, payouts: 1 });
      // the signed payout.processed webhook is verified and counted (it normally settles the payout; on a
      // loaded machine an enquiry may get there first, and the webhook then finds it final)
      await eventually(async () => (await callbacksOf(txnId)).some((x) => x.status === 'success' && (x.outcome === 'settled' || x.outcome === 'already_final')));
      const st = await t.call('GET', '/api/v1/account/statement', { key: t.liveKey });
      assert.equal(st.body.data.items.filter((e: { txn_id: string }) => e.txn_id === txnId).length, 1);
    },
  });

  it('invalid@: failed in the create answer itself, a business failure at once', async () => {
    const before = await wallet();
    const r = await pay({ ...VALID.upi(), vpa: 'invalid@ybl', amount: 10 });
    assert.equal(r.status, 200);
    assert.equal(r.body.statuscode, 'ERR');
    assert.equal(r.body.data.status, 'failed');
    assert.match(r.body.data.message, /UPI validation failed/);
    assert.deepEqual(await wallet(), before);
  });

  it('pending → final by webhook when RazorpayX settles it', async () => {
    const body = { ...VALID.upi(), vpa: 'pending@ybl', amount: 20 };
    const r = await pay(body);
    const txnId = r.body.data.txn_id as string;
    await sleep(300);
    assert.equal((await txOf(body.reference_id)).body.data.status, 'pending');
    const [p] = payoutsOf(txnId);
    const s = await fetch(`${emu.url}/_sim/payouts/${p!.payout.id}/settle`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status: 'processed' }) });
    assert.equal(s.status, 200);
    const done = await final(body.reference_id);
    assert.equal(done.body.data.status, 'success');
    assert.ok((await callbacksOf(txnId)).some((c) => c.outcome === 'settled'));
  });

  it('pending → final by polling GET /v1/payouts/{id} when webhooks are dropped', async () => {
    emu.setFaults({ drop_webhooks: true });
    const before = await wallet();
    const body = { ...VALID.upi(), vpa: 'pending@ybl', amount: 30 };
    const r = await pay(body);
    const txnId = r.body.data.txn_id as string;
    const [p] = payoutsOf(txnId);
    await fetch(`${emu.url}/_sim/payouts/${p!.payout.id}/settle`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status: 'processed' }) });
    const done = await final(body.reference_id);
    assert.equal(done.body.data.status, 'success');
    assert.equal(done.body.data.utr, payoutsOf(txnId)[0]!.payout.utr);
    assert.deepEqual(await callbacksOf(txnId), []); // no webhook counted
    assert.ok(emu.webhookLog().filter((d) => d.payout_id === p!.payout.id).every((d) => d.outcome === 'dropped'));
    // the payout id was known: the status came from GET, never from a replayed create
    assert.deepEqual(await requestsFor(txnId), { requests: 1, payouts: 1 });
    assert.deepEqual(await wallet(), { balance: before.balance - 3000 - FEE_PAISE, held: 0 });
  });

  it('webhooks the emulator signs with a wrong secret get a 401; a genuine signature settles; the same event id again (same body, or another) is dropped', async () => {
    emu.setFaults({ bad_signature: true });
    const body = { ...VALID.upi(), vpa: 'pending@ybl', amount: 15 };
    const r = await pay(body);
    const txnId = r.body.data.txn_id as string;
    const held = await wallet();
    const [p] = payoutsOf(txnId);
    await eventually(async () => emu.webhookLog().some((d) => d.payout_id === p!.payout.id && d.status_code === 401));
    assert.equal((await txOf(body.reference_id)).body.data.status, 'pending');
    assert.deepEqual(await wallet(), held);
    assert.deepEqual(await callbacksOf(txnId), []);
    assert.equal((await t.store.db.selectFrom('partner_callbacks').select('webhook_id').where('webhook_id', 'like', 'rzp:evt_%').execute()).length, 0);

    const event = payoutEvent(txnId);
    const signed = { 'x-razorpay-signature': signatureOf(event, WEBHOOK_SECRET), 'x-razorpay-event-id': 'evt_genuine01' };
    const ok = await sendWebhook(event, signed);
    assert.equal(ok.status, 200);
    assert.equal(((await ok.json()) as { result: string }).result, 'settled');
    const done = await txOf(body.reference_id);
    assert.equal(done.body.data.status, 'success');
    assert.equal(done.body.data.utr, '999999999999');
    const replayed = await sendWebhook(event, signed);
    assert.equal(((await replayed.json()) as { result: string }).result, 'duplicate');
    const failedEvent = event.replace('"status":"processed"', '"status":"failed"');
    const sameId = await sendWebhook(failedEvent, { 'x-razorpay-signature': signatureOf(failedEvent, WEBHOOK_SECRET), 'x-razorpay-event-id': 'evt_genuine01' });
    assert.equal(((await sameId.json()) as { result: string }).result, 'duplicate');
    assert.equal((await txOf(body.reference_id)).body.data.status, 'success');
    assert.equal((await wallet()).held, held.held - 1500 - FEE_PAISE);
  });

  it('reversal: stays success with reversed_at/reversal_reason, the debit comes back by a correcting posting, transaction.reversed is written', async () => {
    // Live endpoints must be https: this one is never reached; the event is in the outbox all the same.
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
    assert.equal(done.body.statuscode, 'TXN');
    assert.match(done.body.data.reversal_reason, /Beneficiary bank systems are offline/);
    assert.ok(!Number.isNaN(Date.parse(done.body.data.reversed_at)));
    assert.equal(done.body.data.utr, payoutsOf(txnId)[0]!.payout.utr);
    const cbs = await callbacksOf(txnId);
    assert.ok(cbs.some((c) => c.outcome === 'reversed'), JSON.stringify(cbs));
    assert.deepEqual(await wallet(), before);
    const st = await t.call('GET', '/api/v1/account/statement', { key: t.liveKey });
    const mine = st.body.data.items.filter((e: { txn_id: string }) => e.txn_id === txnId || e.txn_id === `rev_${txnId}`);
    assert.ok(mine.some((e: { kind: string; amount: number }) => e.kind === 'reversal' && Math.round(e.amount * 100) === 7700 + FEE_PAISE), JSON.stringify(mine));
    const events = await t.store.db.selectFrom('webhook_events').select(['type', 'payload']).where('txn_id', '=', txnId).execute();
    const reversed = events.find((e) => e.type === 'transaction.reversed');
    assert.ok(reversed, JSON.stringify(events));
    assert.match(reversed.payload, /Beneficiary bank systems are offline/);
    // the emulator's webhook again, or a status enquiry seeing `reversed`: nothing is returned twice
    const report = await t.services.partners!.status('rzp', { txnId, operation: 'upi-payment-status', partnerRef: payoutsOf(txnId)[0]!.payout.id, amountPaise: 7700, commissionPaise: 0 });
    assert.equal(await t.services.settlement.apply(report!, 'rzp', null), 'already_final');
    assert.deepEqual(await wallet(), before);
    await t.call('DELETE', `/api/v1/webhook-endpoints/${ep.body.data.id}`, { key: t.liveKey });
  });

  for (const [name, faults] of [
    ['a read timeout while RazorpayX is still working', { timeout_next: 1, timeout_ms: 1500, scope: 'create_payout' as const }],
  ] as const) {
    it(`no answer (${name}): TUP; the client's retry sends nothing; the lookup by our reference settles it; one payout`, async () => {
      emu.setFaults({ ...faults, drop_webhooks: true });
      const before = await wallet();
      const body = { ...VALID.upi(), vpa: 'crash.case@ybl', amount: 55 };
      const txnId = acceptedTxnId(await pay(body));
      const again = await pay(body);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.body.data.txn_id, txnId);
      const done = await final(body.reference_id, 12000);
      assert.equal(done.body.data.status, 'success');
      const ps = payoutsOf(txnId);
      assert.equal(ps.length, 1);
      assert.equal(done.body.data.utr, ps[0]!.payout.utr);
      assert.equal((await requestsFor(txnId))!.requests, 1, 'reconciliation looked the payout up; it never sent the create again');
      assert.deepEqual(await callbacksOf(txnId), []);
      assert.deepEqual(await wallet(), { balance: before.balance - 5500 - FEE_PAISE, held: 0 });
    });
  }

  for (const [name, setup, http] of [
    ['429', () => emu.setFaults({ throttle_next: 1, scope: 'create_payout' }), 502],
    ['400 (insufficient business balance)', () => fetch(`${emu.url}/_sim/balance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"balance":100}' }), 502],
  ] as const) {
    it(`a ${name} before execution: ${http}, nothing debited, the key freed so a retry succeeds`, async () => {
      await setup();
      const before = await wallet();
      const count = emu.payouts().length;
      const body = { ...VALID.upi(), vpa: 'retry.me@ybl', amount: 9.99 };
      const r = await pay(body);
      assert.equal(r.status, http, r.text);
      assert.equal(r.body.statuscode, 'ERR');
      assert.equal(r.body.data.Errorcode, 113);
      assert.match(r.body.data.Message, /nothing was executed or debited/);
      assert.doesNotMatch(r.text, /rzp_key_secret_for_tests|Basic /);
      if (name.startsWith('400')) assert.match(r.body.data.Message, /RazorpayX refused the payout \(HTTP 400/);
      assert.deepEqual(await wallet(), before);
      assert.equal(emu.payouts().length, count);
      await fetch(`${emu.url}/_sim/balance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"balance":10000000000}' });
      const retry = await pay(body);
      assert.equal(retry.status, 200, retry.text);
      assert.equal(retry.body.statuscode, 'TUP');
      assert.equal(emu.payouts().length, count + 1);
      assert.equal((await final(body.reference_id)).body.data.status, 'success');
    });
  }

  it('status enquiry: a lookup by payout id or by our reference; null when RazorpayX has none; never a create', async () => {
    const router = t.services.partners!;
    const tx = { txnId: 'txn_NeverSentAnything01', operation: 'upi-payment-status' as const, amountPaise: 100, commissionPaise: 0 };
    const count = emu.payouts().length;
    assert.equal(await router.status('rzp', { ...tx, partnerRef: null }), null);
    assert.equal(await router.status('rzp', { ...tx, partnerRef: 'pout_DoesNotExist01' }), null);
    assert.equal(emu.payouts().length, count, 'an enquiry never creates a payout');
    // A payout made under our reference (its answer lost on the way) is found by the reference.
    const made = await fetch(`${emu.url}/v1/payouts`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${emu.settings.keyId}:rzp_key_secret_for_tests`).toString('base64')}`,
        'content-type': 'application/json',
        'x-payout-idempotency': tx.txnId,
      },
      body: JSON.stringify(createPayoutBody({ txnId: tx.txnId, vpa: 'late@ybl', amountPaise: 100 }, emu.settings.accountNumber)),
    });
    assert.equal(made.status, 200, await made.clone().text());
    const report = await router.status('rzp', { ...tx, partnerRef: null });
    assert.equal(report?.partnerRef, payoutsOf(tx.txnId)[0]!.payout.id);
    assert.equal(payoutsOf(tx.txnId).length, 1);
  });
});

describe('razorpayx transformers and verifier', () => {
  const payout = (over: Partial<RzpPayout>): RzpPayout => ({ id: 'pout_1', entity: 'payout', amount: 12345, status: 'processing', utr: null, reference_id: 'txn_Abc', ...over });

  it('maps the documented statuses, and anything else to pending', () => {
    for (const s of ['processed', 'reversed']) assert.equal(statusOf(s), 'success');
    for (const s of ['failed', 'rejected', 'cancelled']) assert.equal(statusOf(s), 'failed');
    for (const s of ['queued', 'pending', 'scheduled', 'processing', 'on_hold', 'PROCESSED', '']) assert.equal(statusOf(s), 'pending');
    const o = outcomeOf(payout({ status: 'something_new' }), 'txn_Abc');
    assert.equal(o.status, 'pending');
    assert.equal(o.partnerRef, 'pout_1');
  });

  it('result fields: txn_id ours, amount in INR, utr the payout’s', () => {
    const o = outcomeOf(payout({ status: 'processed', utr: '523223155921' }), 'txn_Abc');
    assert.deepEqual(o.fields, { txn_id: 'txn_Abc', amount: 123.45, utr: '523223155921' });
    const f = outcomeOf(payout({ status: 'failed', status_details: { description: 'Beneficiary bank rejected', reason: 'x' } }), 'txn_Abc');
    assert.equal(f.message, 'Beneficiary bank rejected');
  });

  it('a reversed payout is a success with a reversal; at = the event time', () => {
    const at = 1580118468;
    const [e] = eventsOf({ entity: 'event', event: 'payout.reversed', payload: { payout: { entity: payout({ status: 'reversed', utr: 'U1', status_details: { reason: 'beneficiary_bank_offline' } }) } }, created_at: at }, 'evt_1');
    assert.equal(e!.outcome.status, 'success');
    assert.deepEqual(e!.reversal, { reason: 'beneficiary_bank_offline', at: new Date(at * 1000) });
    assert.equal(e!.txnId, 'txn_Abc');
    assert.equal(reportOf(payout({ status: 'processed' }), 'txn_Abc').reversal, undefined);
  });

  it('events: someone else’s reference is not taken for ours; non-payout events are acknowledged and ignored', () => {
    const [e] = eventsOf({ entity: 'event', event: 'payout.processed', payload: { payout: { entity: payout({ reference_id: 'Acme Transaction ID 12345' }) } } }, 'evt_2');
    assert.equal(e!.txnId, null);
    assert.equal(e!.partnerRef, 'pout_1');
    assert.deepEqual(eventsOf({ entity: 'event', event: 'payout.downtime.started', payload: {} }, 'evt_3'), []);
  });

  it('the signature is lower-case hex HMAC-SHA256 of the raw body; anything else is refused', () => {
    const raw = '{"entity":"event","event":"payout.processed"}';
    const sig = signatureOf(raw, 's3cret');
    assert.ok(verifySignature(raw, sig, 's3cret'));
    assert.ok(!verifySignature(raw, sig.toUpperCase(), 's3cret'));
    assert.ok(!verifySignature(`${raw} `, sig, 's3cret'));
    assert.ok(!verifySignature(raw, sig.slice(0, 63), 's3cret'));
    assert.throws(() => parseWebhook({ headers: { 'x-razorpay-signature': sig }, rawBody: raw }, 's3cret'), CallbackRefused);
    assert.deepEqual(parseWebhook({ headers: { 'x-razorpay-signature': sig, 'x-razorpay-event-id': 'e1' }, rawBody: raw }, 's3cret'), []);
  });

  it('the create body: composite VPA fund account, our id as reference, no queueing', () => {
    const b = createPayoutBody({ txnId: 'txn_Abc', vpa: 'a.b@ybl', amountPaise: 100 }, '7878780080316316');
    assert.deepEqual(b, {
      account_number: '7878780080316316',
      amount: 100,
      currency: 'INR',
      mode: 'UPI',
      purpose: 'payout',
      queue_if_low_balance: false,
      reference_id: 'txn_Abc',
      fund_account: { account_type: 'vpa', vpa: { address: 'a.b@ybl' }, contact: { name: 'Sangam UPI Payee' } },
    });
  });

  it('the factory names the full variable that is missing', () => {
    const ctx = (vars: Record<string, string>) => factoryContext('rzp', vars);
    const all = { KEY_ID: 'rzp_test_x', KEY_SECRET: 's', ACCOUNT_NUMBER: '123456', WEBHOOK_SECRET: 'w' };
    for (const v of Object.keys(all)) {
      const { [v]: _, ...rest } = all as Record<string, string>;
      assert.throws(() => createRazorpayx(ctx(rest)), new RegExp(`SANGAM_PARTNER_RZP_${v} is required`));
    }
    void createRazorpayx(ctx(all)).close?.();
    assert.throws(() => createRazorpayx(ctx({ ...all, FAV_ACCOUNT_NUMBER: '23 23' })), /SANGAM_PARTNER_RZP_FAV_ACCOUNT_NUMBER must be the RazorpayX Lite customer identifier/);
  });
});
