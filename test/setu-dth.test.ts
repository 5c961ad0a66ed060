// The setu-dth connector end to end: Sangam's HTTP surface, a live app listening on a real port, the
// Setu BBPS emulator in-process posting its (unsigned) webhooks to /partners/setudth/webhooks/<secret>,
// the wallet and the ledger (checked after every test). The shared connector conformance scenarios run
// through its adapter (connector-conformance.ts). Plus unit-level checks of the biller mapping.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { listFees } from '../src/ledger/pricing.js';
import { BILLERS } from '../partner-sim/setu-dth/billers.js';
import { SETU_DTH_CONNECTOR_VARS, startSetuDthEmulator, type SetuDthEmulator } from '../partner-sim/setu-dth/index.js';
import { PartnerError } from '../src/providers/connector.js';
import { createSetuDth } from '../src/providers/setu-dth/index.js';
import { billerFor, billerMapOf, ourDthCode, reversalOf, statusOf } from '../src/providers/setu-dth/transformers.js';
import { paymentRefIdOf } from '../src/providers/setu/transformers.js';
import { eventually, PATHS, sleep, uuid, VALID } from './harness.js';
import { factoryContext, liveReads, partnerSuiteEnv, partnerSuiteLife, startPartnerApp, type PartnerApp } from './live-harness.js';
import { conformance } from './connector-conformance.js';
import { personDecides } from './person-decides.js';

const SECRET = 'setu_dth_webhook_path_secret_for_tests_01';
const CUSTOMER_MOBILE = '9812300000';

async function startDthApp(emu: SetuDthEmulator, port: number | null, env: Record<string, string> = {}): Promise<PartnerApp> {
  const s = emu.settings;
  const vars = { CLIENT_ID: s.clientId, CLIENT_SECRET: s.clientSecret, PARTNER_ID: String(s.partnerId), CUSTOMER_MOBILE, WEBHOOK_SECRET: SECRET, ...SETU_DTH_CONNECTOR_VARS };
  return startPartnerApp(
    {
      ...partnerSuiteEnv('setudth', 'setu-dth', emu.url, vars, 'dth-recharge'),
      SANGAM_PARTNER_TIMEOUT_MS: '2000', // billers, login, bill fetch and its polls: a cold first call on a loaded machine took over 800 ms
      SANGAM_RECONCILE_SCHEDULE: '2',
      ...env,
    },
    { port },
  );
}

describe('setu-dth connector, end to end', () => {
  let emu: SetuDthEmulator;
  let t: PartnerApp;
  let fee = 0;

  partnerSuiteLife(async (port) => {
    emu = await startSetuDthEmulator({
      webhookUrl: `http://127.0.0.1:${port}/partners/setudth/webhooks/${SECRET}`,
      pendingMs: 300,
      fetchMs: 50,
      latencyMs: 0,
      webhookTimeScale: 0.005,
    });
    t = await startDthApp(emu, port);
    fee = (await listFees(t.store.db)).find((f) => f.operation === 'dth-recharge')?.fee_paise ?? 0;
    return { emu, t };
  });

  const dth = (body: Record<string, unknown>) => t.call('POST', PATHS.dth, { key: t.liveKey, body });
  const { txOf, wallet, final } = liveReads(() => t);
  const paymentsOf = (txnId: string) => emu.bills().filter((b) => b.payment?.input.paymentRefId === paymentRefIdOf(txnId));
  const checksOf = async (txnId: string) => (await t.store.db.selectFrom('transactions').select('checks').where('id', '=', txnId).executeTakeFirstOrThrow()).checks;
  const calls = async () => (await (await fetch(`${emu.url}/_sim/calls`)).json()) as Record<string, number>;
  const sim = (path: string, body: unknown) => fetch(`${emu.url}/_sim${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const webhook = (body: unknown, secret = SECRET) =>
    fetch(`${t.base}/partners/setudth/webhooks/${secret}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const charged = (paise: number, commission: number) => ({ balance: -(paise - commission) - fee, held: 0 });
  const plus = (a: { balance: number; held: number }, d: { balance: number; held: number }) => ({ balance: a.balance + d.balance, held: d.held });

  conformance({
    kind: 'setu-dth',
    app: () => t,
    path: PATHS.dth,
    body: (steer) => ({ ...VALID.dth(), idempotency_key: uuid(), subscriber_id: { success: '1234561234', refusal: '1234560001', held: '1234560005' }[steer], operator: 'TS', amount: 350 }),
    debit: () => 35000 - 875 + fee,
    refusalCharge: () => 0,
    refusalMessage: /Payment declined by the biller/,
    madeAt: (txnId) => paymentsOf(txnId).length,
    setFaults: (f) => emu.setFaults(f),
    faults: {
      'error-after-work': { error_after_accept_next: 1, error_status: 503, drop_webhooks: true },
      'error-before-work': { error_next: 1, error_status: 500, scope: 'payment', drop_webhooks: true },
      'duplicate-webhooks': { duplicate_webhooks: true },
    },
    settle: async (txnId) => assert.equal((await sim(`/payments/${paymentsOf(txnId)[0]!.refId}/settle`, { status: 'Success' })).status, 200),
    forge: async (txnId) => {
      const bill = paymentsOf(txnId)[0]!;
      const claim = { traceId: 'x', event: 'BILL_PAY', data: { refId: bill.refId, status: 'Success', billerRefId: 'FORGED', paymentDetails: { paymentRefId: bill.payment!.input.paymentRefId } } };
      const wrongSecret = await webhook(claim, 'not_the_secret_at_all_00000000000000');
      const notOurs = await webhook({ ...claim, data: { ...claim.data, refId: 'NOTOURS' } });
      // Setu signs nothing: even the right URL claiming a success payment/response does not show is refused (409, Setu retries).
      const unconfirmed = await webhook(claim);
      return [wrongSecret.status, notOurs.status, unconfirmed.status];
    },
    duplicatesDelivered: async (txnId) => {
      const refId = paymentsOf(txnId)[0]!.refId;
      return emu.webhookLog().filter((w) => w.ref === refId && w.label === 'BILL_PAY Success' && w.status_code === 200).length >= 2;
    },
    // BBPS documents no not-found answer on payment/response: a payment/request 5xx stays pending for a person.
    lost: 'pending-until-decided',
    lookupUnknown: async (missing) => assert.equal((await sim('/lookup', { missing })).status, 200),
    decide: (txnId, action) => personDecides(t, txnId, action),
    wrongCredentials: { start: (env) => startDthApp(emu, null, { ...env, SANGAM_PARTNER_SETUDTH_CLIENT_SECRET: 'wrong-secret' }), message: /Setu BBPS refused our client credentials \(HTTP 401\)/, secret: 'wrong-secret' },
    total: () => emu.bills().length,
    afterSuccess: async (txnId, done) => {
      assert.equal(done.body.data.commission, 8.75);
      const [bill, ...more] = paymentsOf(txnId);
      assert.equal(more.length, 0);
      assert.equal(bill!.input.biller.id, 'TATAPLAY00NAT1');
      assert.deepEqual(bill!.input.customerParams, [{ name: 'Subscriber Number', value: '1234561234' }]);
      assert.deepEqual(bill!.input.agent, { id: SETU_DTH_CONNECTOR_VARS.AGENT_ID, channel: 'INT' });
      assert.equal(bill!.input.customerMobile, CUSTOMER_MOBILE);
      assert.equal(bill!.payment!.input.amount, 35000);
      assert.equal(bill!.payment!.input.remitterName, SETU_DTH_CONNECTOR_VARS.REMITTER_NAME);
      assert.equal(bill!.payment!.input.accountInfo, SETU_DTH_CONNECTOR_VARS.ACCOUNT_INFO);
      assert.equal(bill!.payment!.input.planId, null, 'Tata Play is not plan-mandatory');
      assert.equal(bill!.payment!.input.paymentRefId, txnId.replace('_', ''));
      assert.equal(done.body.data.utr, bill!.payment!.billerRefId);
    },
  });

  it('an unknown subscriber (0009, the bill fetch fails): failed, nothing paid or charged', async () => {
    const before = await wallet();
    const count = emu.bills().filter((b) => b.payment).length;
    const r = await dth({ ...VALID.dth(), subscriber_id: '1234560009', operator: 'AD' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.status, 'failed');
    assert.match(r.body.data.message, /could not find the subscriber.*No subscriber found/);
    assert.equal(emu.bills().filter((b) => b.payment).length, count);
    assert.deepEqual(await wallet(), before);
  });

  it('a subscriber id the biller’s parameter refuses: 502 before anything is sent, nothing debited', async () => {
    const before = await wallet();
    const fetches = (await calls())['/api/v2/bbps/bills/fetch/request'] ?? 0;
    const r = await dth({ ...VALID.dth(), subscriber_id: '12345678', operator: 'TS' });
    assert.equal(r.status, 502, r.text);
    assert.match(r.body.data.Message, /Tata Play takes a Subscriber Number of 10 characters/);
    assert.equal((await calls())['/api/v2/bbps/bills/fetch/request'] ?? 0, fetches);
    assert.deepEqual(await wallet(), before);
  });

  it('pending (0002) → success by the BILL_PAY webhook, confirmed with payment/response (no reconciler check)', async () => {
    const before = await wallet();
    const body = { ...VALID.dth(), subscriber_id: '1234560002', operator: 'DT', amount: 200 };
    const r = await dth(body);
    assert.equal(r.body.statuscode, 'TUP');
    assert.equal(r.body.data.verified_at, null);
    const txnId = r.body.data.txn_id as string;
    const done = await final(body.reference_id, 5000);
    assert.equal(done.body.data.status, 'success');
    assert.equal(done.body.data.utr, paymentsOf(txnId)[0]!.payment!.billerRefId);
    assert.equal(await checksOf(txnId), 0);
    const refId = paymentsOf(txnId)[0]!.refId;
    await eventually(async () => emu.webhookLog().some((w) => w.ref === refId && w.label === 'BILL_PAY Success' && w.status_code === 200));
    assert.deepEqual(await wallet(), plus(before, charged(20000, 700)));
  });

  it('pending (0003) → failure by polling payment/response when webhooks are dropped; nothing charged', async () => {
    emu.setFaults({ drop_webhooks: true });
    const before = await wallet();
    const body = { ...VALID.dth(), subscriber_id: '1234560003' };
    const r = await dth(body);
    assert.equal(r.body.statuscode, 'TUP');
    const done = await final(body.reference_id);
    assert.equal(done.body.data.status, 'failed');
    const refId = paymentsOf(r.body.data.txn_id)[0]!.refId;
    assert.ok(emu.webhookLog().filter((w) => w.ref === refId).every((w) => w.outcome === 'dropped'));
    assert.deepEqual(await wallet(), before);
  });

  it('a forged Success webhook is not believed: payment/response says Failure, and that is applied', async () => {
    emu.setFaults({ forged_success: true });
    const before = await wallet();
    const body = { ...VALID.dth(), subscriber_id: '1234560003' };
    const r = await dth(body);
    const refId = paymentsOf(r.body.data.txn_id)[0]!.refId;
    await eventually(async () => emu.webhookLog().some((w) => w.ref === refId && w.forged));
    const done = await final(body.reference_id);
    assert.equal(done.body.data.status, 'failed');
    assert.deepEqual(await wallet(), before);
  });

  it('held (0005) until settled at the emulator, then final by webhook', async () => {
    const body = { ...VALID.dth(), subscriber_id: '1234560005', operator: 'VD', amount: 150 };
    const r = await dth(body);
    assert.equal(r.body.statuscode, 'TUP');
    await sleep(300);
    assert.equal((await txOf(body.reference_id)).body.data.status, 'pending');
    const refId = paymentsOf(r.body.data.txn_id)[0]!.refId;
    assert.equal((await sim(`/payments/${refId}/settle`, { status: 'Success' })).status, 200);
    assert.equal((await final(body.reference_id)).body.data.status, 'success');
  });

  it('Credit_Adjustment (0004): stays success with reversed_at; the debit and the commission come back; transaction.reversed', async () => {
    const ep = await t.call('POST', '/api/v1/webhook-endpoints', { key: t.liveKey, body: { url: 'https://127.0.0.1:9/hooks' } });
    assert.equal(ep.status, 200, ep.text);
    const before = await wallet();
    const body = { ...VALID.dth(), subscriber_id: '1234560004', operator: 'DT', amount: 400 };
    const r = await dth(body);
    assert.equal(r.body.data.status, 'success');
    const txnId = r.body.data.txn_id as string;
    assert.deepEqual(await wallet(), plus(before, charged(40000, 1400)));
    const done = await eventually(async () => {
      const x = await txOf(body.reference_id);
      return x.body.data.reversed_at && x;
    }, 8000);
    assert.equal(done.body.data.status, 'success');
    assert.match(done.body.data.reversal_reason, /credited back/);
    assert.deepEqual(await wallet(), before);
    const events = await t.store.db.selectFrom('webhook_events').select(['type']).where('txn_id', '=', txnId).execute();
    assert.ok(events.some((e) => e.type === 'transaction.reversed'), JSON.stringify(events));
    // payment/response never shows the refund (its enum has none): only the BILL_PAY webhook told us
    const bill = paymentsOf(txnId)[0]!;
    assert.ok(emu.requests().some((q) => q.path === '/api/v2/bbps/bills/payment/response' && (q.answer as { data?: { refId?: string; status?: string } }).data?.refId === bill.refId && (q.answer as { data: { status: string } }).data.status === 'Success'));
    // the same BILL_PAY again (a retry) returns nothing twice
    const again = await webhook({ event: 'BILL_PAY', data: { refId: bill.refId, status: 'Credit_Adjustment', paymentDetails: { paymentRefId: bill.payment!.input.paymentRefId, amount: 40000 } } });
    assert.equal(again.status, 200);
    assert.deepEqual(await wallet(), before);
    await t.call('DELETE', `/api/v1/webhook-endpoints/${ep.body.data.id}`, { key: t.liveKey });
  });

  it('unsigned webhooks are safe: wrong secret 401, a refId not ours 404, a refund that is not of our payment (amount, BBPS transaction) or of an unpaid one 409 and changes nothing, BILL_FETCH ignored', async () => {
    const before = await wallet();
    const body = { ...VALID.dth(), subscriber_id: '1234564321', operator: 'AD', amount: 300 };
    const r = await dth(body);
    assert.equal(r.body.data.status, 'success');
    const bill = paymentsOf(r.body.data.txn_id)[0]!;
    const refund = { traceId: 'x', event: 'BILL_PAY', data: { refId: bill.refId, status: 'Credit_Adjustment', paymentDetails: { paymentRefId: bill.payment!.input.paymentRefId } } };
    assert.equal((await webhook(refund, 'not_the_secret_at_all_00000000000000')).status, 401);
    assert.equal((await webhook({ ...refund, data: { ...refund.data, paymentDetails: { paymentRefId: 'txnNotOurs0000000000000' } } })).status, 404);
    for (const forged of [
      refund, // no amount
      { ...refund, data: { ...refund.data, paymentDetails: { ...refund.data.paymentDetails, amount: 29900 } } },
      { ...refund, data: { ...refund.data, transactionId: 'CC01NOTTHEPAYMENT000', paymentDetails: { ...refund.data.paymentDetails, amount: 30000 } } },
    ]) {
      const r = await webhook(forged);
      assert.equal(r.status, 409, JSON.stringify(forged));
    }
    assert.equal((await txOf(body.reference_id)).body.data.reversed_at ?? null, null);
    assert.deepEqual(await wallet(), plus(before, charged(30000, 900)));
    assert.equal((await webhook({ event: 'BILL_FETCH', data: { refId: bill.refId } })).status, 200);
  });

  for (const [name, faults] of [
    ['a read timeout while BBPS is still working', { timeout_next: 1, timeout_ms: 3000, scope: 'payment' as const }],
  ] as const) {
    it(`no answer (${name}): TUP, settled by the status enquiry; one payment, charged once`, async () => {
      emu.setFaults({ ...faults, drop_webhooks: true });
      const before = await wallet();
      const body = { ...VALID.dth(), subscriber_id: '1234565678', operator: 'TS', amount: 100 };
      const r = await dth(body);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.statuscode, 'TUP');
      const txnId = r.body.data.txn_id as string;
      const done = await final(body.reference_id, 12000);
      assert.equal(done.body.data.status, 'success', done.text);
      await sleep('timeout_ms' in faults ? faults.timeout_ms : 0);
      assert.equal(paymentsOf(txnId).length, 1);
      assert.equal(done.body.data.utr, paymentsOf(txnId)[0]!.payment!.billerRefId);
      assert.deepEqual(await wallet(), plus(before, charged(10000, 250)));
    });
  }

  it('a plan-mandatory biller (Sun Direct): the plan of exactly that amount is named by its Id in the fetch and the payment; no plan of that amount is a 502, nothing sent', async () => {
    const before = await wallet();
    const plans = ((await (await fetch(`${emu.url}/_sim/catalogue`)).json()) as { billers: Array<{ id: string }> }).billers;
    assert.ok(plans.some((b) => b.id === 'SUNDIRECT0NAT1'));
    const body = { ...VALID.dth(), subscriber_id: '1234567001', operator: 'SD', amount: 251 };
    const r = await dth(body);
    assert.equal(r.body.data.status, 'success', r.text);
    const [bill] = paymentsOf(r.body.data.txn_id);
    assert.equal(bill!.input.planId, 'SUNDPLN003');
    assert.deepEqual(bill!.input.customerParams, [{ name: 'Smart Card Number', value: '1234567001' }, { name: 'Id', value: 'SUNDPLN003' }]);
    assert.equal(bill!.payment!.input.planId, 'SUNDPLN003');
    const fetches = (await calls())['/api/v2/bbps/bills/fetch/request'] ?? 0;
    const off = await dth({ ...VALID.dth(), subscriber_id: '1234567002', operator: 'SD', amount: 250 });
    assert.equal(off.status, 502, off.text);
    assert.match(off.body.data.Message, /Sun Direct sells DTH recharges only as plans and it has no plan of that amount.*251.*nothing was executed or debited/);
    assert.equal((await calls())['/api/v2/bbps/bills/fetch/request'] ?? 0, fetches);
    assert.deepEqual(await wallet(), plus(before, charged(25100, Math.round((await txOf(body.reference_id)).body.data.commission * 100))));
  });

  it('an expired token: the 401 is followed by a fresh token and the call succeeds', async () => {
    const issued = (await calls()).tokens_issued ?? 0;
    await sim('/tokens/expire', {});
    const r = await dth({ ...VALID.dth(), subscriber_id: '1234566789' });
    assert.equal(r.body.data.status, 'success', r.text);
    assert.equal((await calls()).tokens_issued, issued + 1);
  });

  for (const [name, env, message] of [
    ['another partner id (403)', { SANGAM_PARTNER_SETUDTH_PARTNER_ID: '2002' }, /HTTP 403: X-PARTNER-ID does not match/],
  ] as const) {
    it(`${name}: a 502 that says so, nothing debited`, async () => {
      const bad = await startDthApp(emu, null, env);
      try {
        const before = (await bad.call('GET', '/api/v1/account/wallet', { key: bad.liveKey })).body.data;
        const count = emu.bills().length;
        const r = await bad.call('POST', PATHS.dth, { key: bad.liveKey, body: VALID.dth() });
        assert.equal(r.status, 502, r.text);
        assert.equal(r.body.data.Errorcode, 113);
        assert.match(r.body.data.Message, message);
        assert.doesNotMatch(r.text, /wrong-secret|setu-dth-emulator-secret/);
        assert.equal(emu.bills().length, count);
        assert.deepEqual((await bad.call('GET', '/api/v1/account/wallet', { key: bad.liveKey })).body.data, before);
      } finally {
        await bad.close();
      }
    });
  }
});

describe('setu-dth transformers and factory', () => {
  it('maps Setu’s DTH billers to our codes by name; Independent TV is unmapped and named, never guessed', () => {
    const map = billerMapOf(BILLERS);
    assert.deepEqual([...map.byCode.keys()].sort(), ['AD', 'DT', 'SD', 'TS', 'VD']);
    assert.equal(map.byCode.get('VD')!.id, 'VIDEOCON00NAT1');
    assert.deepEqual(map.unmapped, ['Independent TV']);
    assert.throws(() => ourDthCode({ id: 'INDEPTV000NAT1', name: 'Independent TV' }), (e: Error) => e instanceof PartnerError && /"Independent TV"/.test(e.message));
    assert.equal(ourDthCode({ name: 'Tata Sky' }), 'TS');
    const withoutTata = billerMapOf(BILLERS.filter((b) => b.name !== 'Tata Play'));
    assert.throws(() => billerFor(withoutTata, 'TS'), (e: Error) => e instanceof PartnerError && /no active DTH biller for Tata Play \(TS\).*Independent TV/.test(e.message));
  });

  it('statuses: Success and Credit_Adjustment success (the latter with a reversal), Failure failed, anything else pending', () => {
    assert.equal(statusOf('Success'), 'success');
    assert.equal(statusOf('Credit_Adjustment'), 'success');
    assert.equal(statusOf('Failure'), 'failed');
    for (const s of ['Processing', 'SUCCESS', 'Refunded', undefined]) assert.equal(statusOf(s), 'pending');
    assert.equal(reversalOf({ status: 'Success' }), undefined);
    assert.match(reversalOf({ status: 'Credit_Adjustment' })!.reason, /refunded/);
  });

  it('the factory names the full variable that is missing or malformed', () => {
    const ctx = (vars: Record<string, string>) => factoryContext('setudth', vars);
    const all = { CLIENT_ID: 'c', CLIENT_SECRET: 's', PARTNER_ID: '1001', CUSTOMER_MOBILE: CUSTOMER_MOBILE, WEBHOOK_SECRET: SECRET, ...SETU_DTH_CONNECTOR_VARS };
    for (const v of Object.keys(all).filter((k) => k !== 'AGENT_CHANNEL')) {
      const { [v]: _, ...rest } = all as Record<string, string>;
      assert.throws(() => createSetuDth(ctx(rest)), new RegExp(`SANGAM_PARTNER_SETUDTH_${v} is required`));
    }
    assert.throws(() => createSetuDth(ctx({ ...all, PARTNER_ID: 'abc' })), /SANGAM_PARTNER_SETUDTH_PARTNER_ID must be/);
    assert.throws(() => createSetuDth(ctx({ ...all, CUSTOMER_MOBILE: '12345' })), /SANGAM_PARTNER_SETUDTH_CUSTOMER_MOBILE must be/);
    assert.throws(() => createSetuDth(ctx({ ...all, AGENT_CHANNEL: 'WEB' })), /SANGAM_PARTNER_SETUDTH_AGENT_CHANNEL must be one of INT, /);
    assert.throws(() => createSetuDth(ctx({ ...all, AGENT_IP: '300.1.1.1' })), /SANGAM_PARTNER_SETUDTH_AGENT_IP must be an IPv4 address/);
    const { AGENT_IP: _ip, AGENT_MAC: _mac, ...noInt } = all;
    assert.throws(() => createSetuDth(ctx({ ...noInt, AGENT_CHANNEL: 'MOB' })), /SANGAM_PARTNER_SETUDTH_AGENT_IP is required/);
    void createSetuDth(ctx({ ...noInt, AGENT_CHANNEL: 'POS' })).close?.();
    assert.throws(() => createSetuDth(ctx({ ...all, ACCOUNT_INFO: 'wallet-without-mobile' })), /SANGAM_PARTNER_SETUDTH_ACCOUNT_INFO must be WalletName\|MobileNo/);
    void createSetuDth(ctx(all)).close?.();
  });
});
