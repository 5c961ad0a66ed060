// The Setu BBPS BillPay (DTH) emulator over real HTTP on loopback: the token and X-PARTNER-ID, billers and
// plans, the async fetch (validation) → payment flow polled by refId, idempotency on paymentRefId and one
// payment per refId, the lifecycle steered by subscriber suffixes (including Success → Credit_Adjustment),
// the BILL_FETCH / BILL_PAY webhook envelope, and the faults. No database.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { refusedCli, startCli, waitFor, emulatorWithReceiver, type Receiver } from '../common/testing.js';
import { startSetuDthEmulator, type SetuDthEmulator } from './index.js';

let seq = 0;
const payRef = () => `DTH${Date.now().toString(36).toUpperCase()}${++seq}`;
const TATA = 'TATAPLAY00NAT1';

describe('Setu BBPS (DTH) emulator', () => {
  let emu: SetuDthEmulator;
  let hook: Receiver;
  let token: string;

  emulatorWithReceiver('/partners/setudth/webhooks', (url) => startSetuDthEmulator({ latencyMs: 0, pendingMs: 40, fetchMs: 10, webhookUrl: url, webhookTimeScale: 0.005 }), async (e, h) => {
    emu = e;
    hook = h;
    token = (await getToken()).body.token;
  });

  async function getToken(body: unknown = { clientID: emu.settings.clientId, secret: emu.settings.clientSecret }) {
    const res = await fetch(`${emu.url}/api/v2/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  }
  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
    const res = await fetch(emu.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'x-partner-id': String(emu.settings.partnerId), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  }
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(emu.url + path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };
  const fetchBody = (subscriber: string, billerId = TATA, name = 'Subscriber Number') => ({
    agent: { id: 'AGT0001', channel: 'INT', ip: '203.0.113.10', mac: '48-4D-7E-CB-DB-6F' },
    biller: { id: billerId },
    customer: { mobile: '9876543210', customerParams: [{ name, value: subscriber }] },
  });
  /** Fetch (validate) and wait for its final state. */
  async function validated(subscriber: string, billerId = TATA, name = 'Subscriber Number') {
    const r = await call('POST', '/api/v2/bbps/bills/fetch/request', fetchBody(subscriber, billerId, name));
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const refId = r.body.data.refId as string;
    return waitFor(async () => {
      const f = await call('POST', '/api/v2/bbps/bills/fetch/response', { refId });
      return f.body.data.status !== 'Processing' && f.body.data;
    });
  }
  const payBody = (refId: string, amount = 23500, paymentRefId = payRef()) => ({
    refId,
    paymentDetails: { mode: 'UPI', paymentRefId, amount, timestamp: '2024-02-07T13:54:00+05:30', accountInfo: 'agent@ybl' },
    remitter: { name: 'Sangam Test Operator' },
  });
  const payment = (refId: string) => call('POST', '/api/v2/bbps/bills/payment/response', { refId });
  const hooksFor = (refId: string, event: string) => hook.got.map((g) => g.body).filter((g) => g.event === event && (g.data?.refId ?? g.error?.refId) === refId);

  it('issues {token, expiresIn}; refuses bad credentials, a missing/wrong X-PARTNER-ID, and expired tokens', async () => {
    const t = await getToken();
    assert.equal(t.status, 200);
    assert.equal(t.body.expiresIn, 3600);
    assert.ok(t.body.token.startsWith('eyJ'));
    assert.equal((await getToken({ clientID: emu.settings.clientId, secret: 'nope' })).status, 401);
    assert.equal((await getToken({ ClientID: emu.settings.clientId, Secret: emu.settings.clientSecret })).status, 400);
    const noAuth = await call('GET', '/api/v2/bbps/billers', undefined, { authorization: '' });
    assert.equal(noAuth.status, 401);
    assert.deepEqual(Object.keys(noAuth.body).sort(), ['error', 'success', 'traceId']);
    assert.equal((await call('GET', '/api/v2/bbps/billers', undefined, { 'x-partner-id': 'abc' })).status, 400);
    assert.equal((await call('GET', '/api/v2/bbps/billers', undefined, { 'x-partner-id': '42' })).status, 403);
    await admin('POST', '/_sim/tokens/expire');
    assert.equal((await call('GET', '/api/v2/bbps/billers')).status, 401);
    token = (await getToken()).body.token;
    assert.equal((await call('GET', '/api/v2/bbps/billers')).status, 200);
  });

  it('lists the DTH billers (the five Sangam knows plus one it does not) and their plans', async () => {
    const billers = (await call('GET', '/api/v2/bbps/billers?categoryName=DTH')).body.data.billers;
    assert.deepEqual(billers.map((b: any) => b.name), ['Airtel Digital TV', 'Dish TV', 'Sun Direct', 'Tata Play', 'Videocon d2h', 'Independent TV']);
    assert.ok(billers.every((b: any) => b.categoryName === 'DTH' && b.id.length === 14 && b.customerParams.length === 1));
    assert.deepEqual((await call('GET', '/api/v2/bbps/billers?categoryName=Electricity')).body.data.billers, []);
    assert.ok(billers.every((b: any) => typeof b.customerParams[0].paramName === 'string' && !('name' in b.customerParams[0])));
    assert.deepEqual(billers.filter((b: any) => b.planRequirement === 'MANDATORY').map((b: any) => b.name), ['Sun Direct']);
    const plans = (await call('GET', `/api/v2/bbps/billers/plans?billerIds=${TATA}`)).body.data.plans;
    assert.ok(plans.length >= 4);
    for (const p of plans) {
      assert.deepEqual(Object.keys(p).sort(), ['Id', 'additionalInfo', 'amountInRupees', 'billerId', 'categoryType', 'description', 'effectiveFrom', 'effectiveTo', 'status']);
      assert.match(p.amountInRupees, /^[0-9]+$/);
    }
    const missing = await call('GET', '/api/v2/bbps/billers/plans?billerIds=NOPE');
    assert.equal(missing.status, 400, 'BBPS documents 400 and 500 only');
    assert.equal(missing.body.error.code, 'biller-not-found');
  });

  it('fetch validates the subscriber asynchronously, deterministically, with a BILL_FETCH webhook; 0009 is not found', async () => {
    const a = await validated('1234567890');
    const b = await validated('1234567890');
    assert.equal(a.status, 'Success');
    assert.deepEqual(a.bills, [], 'a validation biller: the subscriber at data level');
    assert.equal(a.customerName, b.customerName);
    assert.ok(a.additionalInfo.some((i: any) => i.name === 'Account Balance'));
    const w = await waitFor(() => hooksFor(a.refId, 'BILL_FETCH')[0]);
    assert.deepEqual(Object.keys(w).sort(), ['data', 'event', 'timeStamp', 'traceId']);
    assert.equal(w.data.status, 'Success');

    const nf = await validated('1234560009');
    assert.equal(nf.status, 'Failure');
    assert.equal(nf.failureReason.code, 'customer-not-found');
    const nw = await waitFor(() => hooksFor(nf.refId, 'BILL_FETCH')[0]);
    assert.equal(nw.error.code, 'customer-not-found');
    assert.equal(nw.data, undefined);
    const refused = await call('POST', '/api/v2/bbps/bills/payment/request', payBody(nf.refId));
    assert.equal(refused.status, 400);

    const wrongName = await call('POST', '/api/v2/bbps/bills/fetch/request', fetchBody('1234567890', TATA, 'Customer ID'));
    assert.equal(wrongName.status, 400);
    assert.equal(wrongName.body.error.code, 'invalid-params');
    assert.equal((await call('POST', '/api/v2/bbps/bills/fetch/request', fetchBody('12345'))).status, 400);
    assert.equal((await call('POST', '/api/v2/bbps/bills/fetch/request', fetchBody('1234567890', 'NOPE'))).status, 400);
    assert.equal((await call('POST', '/api/v2/bbps/bills/fetch/response', { refId: 'NOPE' })).status, 400);
    // v2 refuses v1's billParameters and a fetch without its agent, in Setu's 400 shape
    const { agent: _a, ...noAgent } = fetchBody('1234567890');
    for (const bad of [noAgent, { ...fetchBody('1234567890'), customer: { mobile: '9876543210', billParameters: [{ name: 'Subscriber Number', value: '1234567890' }] } }, { ...fetchBody('1234567890'), agent: { id: 'A', channel: 'INT' } }]) {
      const r = await call('POST', '/api/v2/bbps/bills/fetch/request', bad);
      assert.equal(r.status, 400, JSON.stringify(bad));
      assert.deepEqual(Object.keys(r.body).sort(), ['error', 'success', 'traceId']);
    }
    // a route BBPS does not have: the gateway's 404, not Setu's envelope
    const nowhere = await call('POST', '/api/v2/bbps/bills/payment/status', { refId: 'x' });
    assert.equal(nowhere.status, 404);
    assert.equal(nowhere.body.success, undefined);
  });

  it('pays: plain Success with a BILL_PAY webhook in the documented data shape; 0001 fails; 0002/0003 poll to final', async () => {
    const v = await validated('1234567890');
    const ref = payRef();
    const r = await call('POST', '/api/v2/bbps/bills/payment/request', payBody(v.refId, 23500, ref));
    assert.equal(r.status, 200);
    assert.equal(r.body.data.refId, v.refId);
    const p = (await payment(v.refId)).body.data;
    assert.equal(p.status, 'Success');
    assert.deepEqual(p.paymentDetails, { mode: 'UPI', paymentRefId: ref, amount: 23500, timestamp: '2024-02-07T13:54:00+05:30', accountInfo: 'agent@ybl' });
    assert.equal(p.billerId, TATA);
    const w = await waitFor(() => hooksFor(v.refId, 'BILL_PAY')[0]);
    assert.deepEqual(Object.keys(w.data).sort(), ['additionalInfo', 'billerId', 'billerRefId', 'paymentDetails', 'refId', 'status', 'transactionId']);

    const f = await validated('1234560001');
    await call('POST', '/api/v2/bbps/bills/payment/request', payBody(f.refId));
    const fp = (await payment(f.refId)).body.data;
    assert.equal(fp.status, 'Failure');
    assert.equal(fp.failureReason.code, 'biller-declined');

    const ok2 = await validated('1234560002');
    const ko3 = await validated('1234560003');
    await call('POST', '/api/v2/bbps/bills/payment/request', payBody(ok2.refId));
    await call('POST', '/api/v2/bbps/bills/payment/request', payBody(ko3.refId));
    // Processing for pendingMs (40 ms), which a loaded machine can outlast before this read: Processing
    // or already final, never anything else. (0005 below is Processing until settled: deterministic.)
    assert.ok(['Processing', 'Success'].includes((await payment(ok2.refId)).body.data.status));
    await waitFor(async () => (await payment(ok2.refId)).body.data.status === 'Success');
    await waitFor(async () => (await payment(ko3.refId)).body.data.status === 'Failure');
  });

  it('0004 is Success then Credit_Adjustment (the refund) by webhook only — payment/response keeps Success, its enum has no refund; 0005 waits for a settle', async () => {
    const v = await validated('1234560004');
    await call('POST', '/api/v2/bbps/bills/payment/request', payBody(v.refId));
    const got = await waitFor(() => hooksFor(v.refId, 'BILL_PAY').length >= 2 && hooksFor(v.refId, 'BILL_PAY'));
    assert.deepEqual(got.map((g) => g.data.status), ['Success', 'Credit_Adjustment']);
    assert.equal((await payment(v.refId)).body.data.status, 'Success');

    const h = await validated('1234560005');
    await call('POST', '/api/v2/bbps/bills/payment/request', payBody(h.refId));
    assert.equal((await payment(h.refId)).body.data.status, 'Processing');
    assert.equal((await admin('POST', `/_sim/payments/${h.refId}/settle`, { status: 'Credit_Adjustment' })).status, 409);
    assert.equal((await admin('POST', `/_sim/payments/${h.refId}/settle`, { status: 'Success' })).status, 200);
    assert.equal((await payment(h.refId)).body.data.status, 'Success');
  });

  it('a paymentRefId is used once and a refId is paid once (409), with nothing paid twice', async () => {
    const v = await validated('1234567890');
    const ref = payRef();
    await call('POST', '/api/v2/bbps/bills/payment/request', payBody(v.refId, 23500, ref));
    const again = await call('POST', '/api/v2/bbps/bills/payment/request', payBody(v.refId, 23500, ref));
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'duplicate-payment-ref-id');
    const other = await call('POST', '/api/v2/bbps/bills/payment/request', payBody(v.refId, 23500, payRef()));
    assert.equal(other.status, 409);
    assert.equal(other.body.error.code, 'payment-already-initiated');
    const ledger = (await admin('GET', '/_sim/bills')).body;
    assert.deepEqual(ledger.requests[ref], { requests: 2, payments: 1 });
    const bad = await call('POST', '/api/v2/bbps/bills/payment/request', { ...payBody(v.refId), paymentDetails: { ...payBody(v.refId).paymentDetails, mode: 'Cheque' } });
    assert.equal(bad.status, 400);
    // Setu's guide: remitter.name and paymentDetails.accountInfo are required
    const w = await validated('1234567890');
    const { remitter: _r, ...noRemitter } = payBody(w.refId);
    assert.equal((await call('POST', '/api/v2/bbps/bills/payment/request', noRemitter)).status, 400);
    const { accountInfo: _i, ...noInfo } = payBody(w.refId).paymentDetails;
    assert.equal((await call('POST', '/api/v2/bbps/bills/payment/request', { ...payBody(w.refId), paymentDetails: noInfo })).status, 400);
  });

  it('a plan-mandatory biller (Sun Direct) is paid only for one of its plans, at exactly its amount', async () => {
    const SUN = 'SUNDIRECT0NAT1';
    const plans = (await call('GET', `/api/v2/bbps/billers/plans?billerIds=${SUN}`)).body.data.plans;
    const plan = plans[0];
    const amount = Number(plan.amountInRupees) * 100;
    const none = await validated('1234567890', SUN, 'Smart Card Number');
    assert.equal((await call('POST', '/api/v2/bbps/bills/payment/request', payBody(none.refId, amount))).status, 400, 'no plan named');
    const wrong = { ...payBody(none.refId, amount + 100), paymentDetails: { ...payBody(none.refId, amount + 100).paymentDetails, Id: plan.Id } };
    assert.equal((await call('POST', '/api/v2/bbps/bills/payment/request', wrong)).status, 400, 'not the plan amount');
    const ok = { ...payBody(none.refId, amount), paymentDetails: { ...payBody(none.refId, amount).paymentDetails, Id: plan.Id } };
    assert.equal((await call('POST', '/api/v2/bbps/bills/payment/request', ok)).status, 200);
    assert.equal((await payment(none.refId)).body.data.paymentDetails.Id, plan.Id);
  });

  it('faults: error_next before anything, error_after_accept_next after paying, timeout, forged_success, out_of_order, drop', async () => {
    const v = await validated('1234567890');
    await admin('POST', '/_sim/faults', { error_next: 1, error_status: 503, scope: 'payment' });
    const e = await call('POST', '/api/v2/bbps/bills/payment/request', payBody(v.refId));
    assert.equal(e.status, 503);
    assert.equal(e.body.error.code, 'upstream-connectivity-error');
    assert.equal((await payment(v.refId)).status, 400, 'nothing was paid (BBPS documents 400, no 404)');

    await admin('POST', '/_sim/faults', { error_after_accept_next: 1 });
    const ref = payRef();
    assert.equal((await call('POST', '/api/v2/bbps/bills/payment/request', payBody(v.refId, 23500, ref))).status, 500);
    assert.equal((await payment(v.refId)).body.data.status, 'Success', 'paid although the client saw a 500');

    await admin('POST', '/_sim/faults', { timeout_next: 1, timeout_ms: 120 });
    const t0 = Date.now();
    await call('GET', '/api/v2/bbps/billers');
    assert.ok(Date.now() - t0 >= 110);

    await admin('POST', '/_sim/faults', { forged_success: true });
    const f = await validated('1234560001');
    await call('POST', '/api/v2/bbps/bills/payment/request', payBody(f.refId));
    const lie = await waitFor(() => hooksFor(f.refId, 'BILL_PAY')[0]);
    assert.equal(lie.data.status, 'Success');
    assert.equal((await payment(f.refId)).body.data.status, 'Failure');

    await admin('POST', '/_sim/faults', { out_of_order: true });
    const o = await validated('1234560004');
    await call('POST', '/api/v2/bbps/bills/payment/request', payBody(o.refId));
    const seq2 = await waitFor(() => hooksFor(o.refId, 'BILL_PAY').length >= 2 && hooksFor(o.refId, 'BILL_PAY'));
    assert.deepEqual(seq2.map((g) => g.data.status), ['Credit_Adjustment', 'Success']);

    await admin('POST', '/_sim/faults', { drop_webhooks: true });
    const d = await validated('1234567890');
    await call('POST', '/api/v2/bbps/bills/payment/request', payBody(d.refId));
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(hooksFor(d.refId, 'BILL_PAY').length, 0);
    assert.ok((await admin('GET', '/_sim/webhooks')).body.deliveries.some((x: any) => x.ref === d.refId && x.outcome === 'dropped'));
  });
});

describe('sangam partner-sim --kind setu-dth', () => {
  it('starts the emulator and prints the SANGAM_PARTNER_SETUDTH_* variables; refuses another kind\'s option', async () => {
    const { child, printed: out } = await startCli(['--kind', 'setu-dth', '--port', '0', '--partner-id', '77', '--latency-ms', '0']);
    try {
      assert.equal(out.kind, 'setu-dth');
      assert.equal(out.env.SANGAM_PARTNER_SETUDTH_URL, out.url);
      assert.equal(out.env.SANGAM_PARTNER_SETUDTH_PARTNER_ID, '77');
      const t = await fetch(`${out.url}/api/v2/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientID: out.client_id, secret: out.client_secret }) });
      const { token } = (await t.json()) as any;
      const b = await fetch(`${out.url}/api/v2/bbps/billers`, { headers: { authorization: `Bearer ${token}`, 'x-partner-id': '77' } });
      assert.equal(b.status, 200);
    } finally {
      child.kill('SIGTERM');
    }
    const stray = await refusedCli(['--kind', 'setu-dth', '--product-instance-id', 'x']);
    assert.equal(stray.code, 2);
    assert.match(stray.stderr, /--product-instance-id is for --kind setu-recharge/);
  });
});
