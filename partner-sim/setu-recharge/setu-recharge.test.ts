// The Setu prepaid recharge emulator over real HTTP on loopback: the login token and the two auth headers,
// the documented error shapes, operator lookup and plans in Setu's names, paymentRefId idempotency, the
// lifecycle steered by magic suffixes (including Successful → REVERSED by webhook only), the unsigned
// webhooks with their documented routes and retry, the wallet, and every fault. No database.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCli, waitFor, emulatorWithReceiver, type Receiver } from '../common/testing.js';
import { startSetuRechargeEmulator, type SetuRechargeEmulator } from './index.js';

let seq = 0;
const refId = () => `SANGAMTEST${Date.now().toString(36).toUpperCase()}${++seq}`;

describe('Setu prepaid recharge emulator', () => {
  let emu: SetuRechargeEmulator;
  let hook: Receiver;
  let token: string;

  emulatorWithReceiver('/partners/setu/webhooks', (url) => startSetuRechargeEmulator({ latencyMs: 0, pendingMs: 40, webhookUrl: url, webhookTimeScale: 0.005 }), async (e, h) => {
    emu = e;
    hook = h;
    token = (await login()).body.access_token;
  });

  async function login(body: unknown = { ClientID: emu.settings.clientId, Secret: emu.settings.clientSecret, grant_type: 'client_credentials' }) {
    const res = await fetch(`${emu.url}/v1/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  }

  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any; trace: string | null }> {
    const res = await fetch(emu.url + path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'x-product-instance-id': emu.settings.productInstanceId,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json(), trace: res.headers.get('x-trace-id') };
  }
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(emu.url + path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };

  const customer = (mobile: string, operator?: string, location?: string) => ({
    billParameters: [
      { name: 'Mobile Number', value: mobile },
      ...(operator === undefined ? [] : [{ name: 'Operator', value: operator }]),
      ...(location === undefined ? [] : [{ name: 'Location', value: location }]),
    ],
    mobile: '6291400475',
  });
  const rechargeBody = (mobile: string, amount = 1900, paymentRefId = refId(), extra: Record<string, unknown> = {}) => ({
    customer: customer(mobile, 'vi', 'Maharashtra'),
    paymentDetails: { amount, mode: 'Internet Banking', paymentParams: [], paymentRefId, timestamp: '2024-02-07T13:54:00+05:30' },
    ...extra,
  });
  const recharge = (mobile: string, amount?: number, ref?: string) => call('POST', '/recharge/request', rechargeBody(mobile, amount, ref));
  const statusOf = (paymentRefId: string) => call('POST', '/recharge/status', { paymentRefId });
  const hooksFor = (txn: string) => hook.got.filter((g) => g.body.transactionRefId === txn);
  const apiError = (r: { body: any }, code: string, failureReason: string) => {
    assert.equal(r.body.success, false);
    assert.equal(r.body.error.code, code, JSON.stringify(r.body));
    assert.equal(r.body.error.failureReason, failureReason);
    assert.equal(typeof r.body.error.message, 'string');
    assert.equal(typeof r.body.trace_id, 'string');
  };

  describe('authentication', () => {
    it('issues an HS256 JWT for the documented body and refuses wrong credentials with the documented 401', async () => {
      const good = await login();
      assert.equal(good.status, 200);
      assert.equal(good.body.refresh_token, '');
      assert.ok(good.body.access_token.startsWith('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.'));
      const bad = await login({ ClientID: emu.settings.clientId, Secret: 'wrong', grant_type: 'client_credentials' });
      assert.equal(bad.status, 401);
      assert.deepEqual(Object.keys(bad.body).sort(), ['message', 'status', 'trace_id', 'type']);
      assert.equal(bad.body.message, 'You are not authenticated to perform the requested action.');
      assert.equal(bad.body.type, '');
      // the field names are case-sensitive: clientID is not ClientID
      assert.equal((await login({ clientID: emu.settings.clientId, secret: emu.settings.clientSecret, grant_type: 'client_credentials' })).status, 400);
      assert.equal((await login({ ClientID: emu.settings.clientId, Secret: emu.settings.clientSecret, grant_type: 'password' })).status, 400);
    });

    it('requires a valid bearer and the X-PRODUCT-INSTANCE-ID (ERR009); expired tokens get a 401 until a new login', async () => {
      const body = { customer: customer('9876543210') };
      assert.equal((await call('POST', '/fetch-operator-details', body, { authorization: '' })).status, 401);
      const forged = `${token.slice(0, -4)}AAAA`;
      const r = await call('POST', '/fetch-operator-details', body, { authorization: `Bearer ${forged}` });
      assert.equal(r.status, 401);
      assert.equal(r.body.status, 401);
      const wrongInstance = await call('POST', '/fetch-operator-details', body, { 'x-product-instance-id': '00000000-0000-0000-0000-000000000000' });
      assert.equal(wrongInstance.status, 422);
      apiError(wrongInstance, 'ERR009', 'invalid-instance-id');

      await admin('POST', '/_sim/tokens/expire');
      assert.equal((await call('POST', '/fetch-operator-details', body)).status, 401);
      token = (await login()).body.access_token;
      assert.equal((await call('POST', '/fetch-operator-details', body)).status, 200);
    });
  });

  describe('operator lookup and plans', () => {
    it('finds operator and circle deterministically in Setu names, with ported numbers and the unmapped mtnl / Uttaranchal', async () => {
      const look = async (m: string) => {
        const r = await call('POST', '/fetch-operator-details', { customer: customer(m) });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        assert.equal(r.body.success, true);
        assert.equal(r.trace, r.body.trace_id);
        return r.body.data;
      };
      assert.deepEqual(await look('9876543210'), {
        mobile_number: '9876543210', current_operator: 'vi', current_location: 'Maharashtra', previous_operator: 'None', previous_location: 'None', ported: false,
      });
      assert.deepEqual(await look('9876943210'), {
        mobile_number: '9876943210', current_operator: 'jio', current_location: 'Maharashtra', previous_operator: 'vi', previous_location: 'Maharashtra', ported: true,
      });
      assert.equal((await look('9868012345')).current_operator, 'mtnl');
      assert.equal((await look('9869012345')).current_location, 'Mumbai');
      assert.equal((await look('9823012345')).current_location, 'Uttaranchal');
      const ops = new Set<string>();
      for (const d1 of '0123456789') ops.add((await look(`9${d1}00000000`)).current_operator);
      assert.deepEqual([...ops].sort(), ['airtel', 'bsnl', 'jio', 'vi']);
      assert.deepEqual(await look('9876543210'), await look('9876543210'), 'the same number always answers the same');
    });

    it('validates billParameters with the documented ERR007 / ERR011 shapes', async () => {
      const short = await call('POST', '/fetch-operator-details', { customer: customer('98765') });
      assert.equal(short.status, 400);
      apiError(short, 'ERR007', 'invalid-params');
      assert.equal(short.body.error.message, 'Mobile number should be 10 digit');
      const missing = await call('POST', '/fetch-plans', { customer: { billParameters: [], mobile: '6291400475' } });
      assert.equal(missing.status, 422);
      apiError(missing, 'ERR011', 'input-params-missing');
      assert.equal(missing.body.error.message, "Missing required parameters: ['Mobile Number', 'Operator', 'Location']");
      const badOp = await call('POST', '/fetch-plans', { customer: customer('9876543210', 'viax', 'Maharashtra') });
      apiError(badOp, 'ERR007', 'invalid-params');
      assert.equal(badOp.body.error.message, 'Invalid operator name viax');
      apiError(await call('POST', '/fetch-plans', { customer: customer('9876543210', 'Vi', 'Maharashtra') }), 'ERR007', 'invalid-params');
      apiError(await call('POST', '/fetch-plans', { customer: customer('9876543210', 'vi', 'maharashtra') }), 'ERR007', 'invalid-params');
      apiError(await call('POST', '/fetch-operator-details', { customer: customer('9876543210', 'vi') }), 'ERR011', 'input-params-invalid');
      const notJson = await fetch(`${emu.url}/fetch-plans`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'x-product-instance-id': emu.settings.productInstanceId, 'content-type': 'application/json' },
        body: '{not json',
      });
      assert.equal(notJson.status, 422);
      apiError({ body: await notJson.json() }, 'ERR011', 'input-params-invalid');
    });

    it('serves plans per operator and circle with the documented fields, amounts in paise', async () => {
      const plans = (await call('POST', '/fetch-plans', { customer: customer('9876543210', 'airtel', 'Karnataka') })).body.data;
      assert.deepEqual(plans[0], {
        amount: 1000, plan_name: 'Talktime (top up voucher)', plan_description: 'Talktime : Rs 7.47', talktime: '7.47', validity: 'NA', service_provider: 'Airtel Prepaid',
      });
      assert.ok(plans.every((p: any) => Number.isInteger(p.amount) && p.amount % 100 === 0));
      const kerala = (await call('POST', '/fetch-plans', { customer: customer('9876543210', 'airtel', 'Kerala') })).body.data;
      assert.notDeepEqual(plans.map((p: any) => p.amount), kerala.map((p: any) => p.amount), 'airtel plans vary by circle');
      const jioA = (await call('POST', '/fetch-plans', { customer: customer('9876543210', 'jio', 'Kerala') })).body.data;
      const jioB = (await call('POST', '/fetch-plans', { customer: customer('9876543210', 'jio', 'Delhi') })).body.data;
      assert.deepEqual(jioA, jioB, 'jio plans are national');
      const bsnl = (await call('POST', '/fetch-plans', { customer: customer('9976543210', 'bsnl', 'Kerala') })).body.data;
      assert.ok(bsnl.some((p: any) => p.plan_name === 'Special Tariff Voucher'));
    });
  });

  describe('validate and recharge', () => {
    it('validate answers Validation Successful / Failed (success: true either way)', async () => {
      const v = (amount: number) => call('POST', '/recharge/validate', { customer: customer('9876543210', 'vi', 'Maharashtra'), paymentDetails: { amount } });
      const good = await v(19900);
      assert.equal(good.body.success, true);
      assert.equal(good.body.data.status, 'Validation Successful');
      assert.equal(good.body.data.error, null);
      assert.deepEqual(good.body.data.details, { mobile_number: '9876543210', provider: 'vi', service_type: 'M', is_special: false });
      assert.equal(typeof good.body.data.ValidationRefNo, 'string');
      const bad = await v(1950);
      assert.equal(bad.body.success, true);
      assert.equal(bad.body.data.status, 'Validation Failed');
      assert.deepEqual(bad.body.data.error, { code: '2', message: 'Invalid Amount.', failureReason: 'Invalid Amount' });
      assert.equal((await v(0)).body.data.error.code, '4');
    });

    it('a plain number recharges Successful at once, debits the wallet, and sends payment/status with rupee amount', async () => {
      const before = (await call('GET', '/wallet/balance')).body.data.balance;
      const ref = refId();
      const r = await recharge('9876543210', 1900, ref);
      assert.equal(r.status, 200);
      assert.equal(r.body.success, true);
      const d = r.body.data;
      assert.equal(d.status, 'Successful');
      assert.equal(d.error, null);
      assert.equal(d.amount, 1900);
      assert.match(d.transactionRefId, /^CYJSTPM\d{8}$/);
      assert.match(d.operatorRefId, /^[0-9A-Z]{10}$/);
      assert.deepEqual(d.details, { mobile_number: '9876543210', provider: 'vi', service_type: 'M', is_postpaid: false, is_special: false });
      assert.deepEqual((await statusOf(ref)).body.data, d);
      assert.equal((await call('GET', '/wallet/balance')).body.data.balance, before - 19);
      const [w] = await waitFor(() => hooksFor(d.transactionRefId).length >= 1 && hooksFor(d.transactionRefId));
      assert.equal(w!.path, '/partners/setu/webhooks/payment/status');
      assert.equal(w!.headers['x-setu-signature'], undefined, 'unsigned, as documented');
      assert.deepEqual(Object.keys(w!.body).sort(), ['amount', 'mobile_number', 'operatorRefId', 'provider', 'status', 'timestamp', 'trace_id', 'transactionRefId']);
      assert.equal(w!.body.amount, '19.00');
      assert.equal(w!.body.provider, 'Vi');
      assert.equal(w!.body.status, 'Successful');
      assert.equal(w!.body.trace_id, r.body.trace_id);
      assert.match(w!.body.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+05:30$/);
    });

    it('0001 fails at once; 0002 / 0003 are Processing then final; 0005 waits for a settle', async () => {
      const fail = await recharge('9876540001');
      assert.equal(fail.body.data.status, 'Failure');
      assert.equal(fail.body.data.operatorRefId, undefined, 'Setu types it as a string: absent until there is one');
      assert.equal(fail.body.data.error.failureReason, 'Operator Failure');
      const [fw] = await waitFor(() => hooksFor(fail.body.data.transactionRefId).length >= 1 && hooksFor(fail.body.data.transactionRefId));
      assert.equal(fw!.body.status, 'Failure');
      assert.equal(fw!.body.failureReason, 'Operator Failure');

      const refOk = refId();
      const refKo = refId();
      assert.equal((await recharge('9876540002', 1900, refOk)).body.data.status, 'Processing');
      assert.equal((await recharge('9876540003', 1900, refKo)).body.data.status, 'Processing');
      await waitFor(async () => (await statusOf(refOk)).body.data.status === 'Successful');
      const ko = await waitFor(async () => ((await statusOf(refKo)).body.data.status === 'Failure' ? statusOf(refKo) : false));
      // Setu's OpenAPI types the status answer's data.error as a string (the request answer's as an object).
      assert.equal(ko.body.data.error, 'Recharge failed at operator end');

      const held = refId();
      assert.equal((await recharge('9876540005', 1900, held)).body.data.status, 'Processing');
      await new Promise((r) => setTimeout(r, 100));
      assert.equal((await statusOf(held)).body.data.status, 'Processing');
      assert.equal((await admin('POST', `/_sim/recharges/${held}/settle`, { status: 'REVERSED' })).status, 409);
      assert.equal((await admin('POST', `/_sim/recharges/${held}/settle`, { status: 'Successful' })).status, 200);
      assert.equal((await statusOf(held)).body.data.status, 'Successful');
      assert.equal((await admin('POST', '/_sim/recharges/NOPE123/settle', { status: 'Successful' })).status, 404);
    });

    it('0004 succeeds, then is REVERSED by webhook only: the status API keeps answering Successful; the wallet is credited back', async () => {
      const ref = refId();
      const before = (await admin('GET', '/_sim/wallet')).body.balance;
      const r = await recharge('9876540004', 29900, ref);
      assert.equal(r.body.data.status, 'Successful');
      const hooks = await waitFor(() => hooksFor(r.body.data.transactionRefId).length >= 2 && hooksFor(r.body.data.transactionRefId));
      assert.deepEqual(hooks.map((h) => [h.path.split('/webhooks')[1], h.body.status]), [['/payment/status', 'Successful'], ['/payment/reversal', 'REVERSED']]);
      assert.equal(hooks[1]!.body.amount, '299.00');
      assert.equal((await statusOf(ref)).body.data.status, 'Successful');
      const row = (await admin('GET', '/_sim/recharges')).body.recharges.find((x: any) => x.paymentRefId === ref);
      assert.equal(row.reversed, true);
      assert.equal((await admin('GET', '/_sim/wallet')).body.balance, before);
    });

    it('paymentRefId is the idempotency key: a second request is ERR005 (HTTP 500) and recharges nothing', async () => {
      const ref = refId();
      const first = await recharge('9876543210', 1900, ref);
      const again = await recharge('9876543210', 1900, ref);
      assert.equal(again.status, 500);
      apiError(again, 'ERR005', 'duplicate-payment-ref-id');
      assert.equal(again.body.error.message, `Duplicate Payment Reference ID : ${ref}`);
      const other = await recharge('9876543211', 5000, ref);
      apiError(other, 'ERR005', 'duplicate-payment-ref-id');
      const ledger = (await admin('GET', '/_sim/recharges')).body;
      assert.deepEqual(ledger.requests[ref], { requests: 3, recharges: 1 });
      assert.equal(ledger.recharges.filter((x: any) => x.paymentRefId === ref).length, 1);
      assert.equal(ledger.recharges.find((x: any) => x.paymentRefId === ref).transactionRefId, first.body.data.transactionRefId);
      const unknown = await statusOf('NEVERSEEN1');
      assert.equal(unknown.status, 422);
      apiError(unknown, 'ERR003', 'invalid-txn-ref-id');
      assert.equal(unknown.body.error.message, 'Invalid Transaction Reference ID : NEVERSEEN1');
      apiError(await call('POST', '/recharge/status', {}), 'ERR011', 'input-params-missing');
    });

    it('validates the request: mode, paymentRefId, timestamp, refId, missing paymentDetails fields', async () => {
      const bad = async (mutate: (b: any) => void, code: string, reason: string) => {
        const b: any = rechargeBody('9876543210');
        mutate(b);
        const r = await call('POST', '/recharge/request', b);
        apiError(r, code, reason);
        return r;
      };
      await bad((b) => (b.paymentDetails.mode = 'upi'), 'ERR007', 'invalid-params');
      await bad((b) => (b.paymentDetails.paymentRefId = 'AB-12'), 'ERR007', 'invalid-params');
      await bad((b) => (b.paymentDetails.timestamp = '2024-02-07 13:54:00'), 'ERR007', 'invalid-params');
      await bad((b) => (b.paymentDetails.amount = 19.5), 'ERR007', 'invalid-params');
      await bad((b) => (b.refId = 'ab'), 'ERR007', 'invalid-params');
      const m = await bad((b) => {
        delete b.paymentDetails.mode;
        delete b.paymentDetails.timestamp;
      }, 'ERR011', 'input-params-missing');
      assert.equal(m.body.error.message, "Missing required parameters: ['paymentDetails.mode', 'paymentDetails.timestamp']");
      await bad((b) => (b.customer.billParameters = b.customer.billParameters.slice(0, 2)), 'ERR011', 'input-params-missing');
      // a refused request saved nothing: its paymentRefId is still free
      const ref = refId();
      const r = await call('POST', '/recharge/request', { ...rechargeBody('9876543210', 1900, ref), refId: 'REFIDTEST6291DD4004750702202402' });
      assert.equal(r.body.data.status, 'Successful');
      assert.equal((await admin('GET', '/_sim/recharges')).body.recharges.find((x: any) => x.paymentRefId === ref).refId, 'REFIDTEST6291DD4004750702202402');
    });

    it('a refused amount or an empty wallet is a Failure record; crossing the low mark sends wallet.low_balance; a top-up sends wallet.credit', async () => {
      const odd = await recharge('9876543210', 1950);
      assert.equal(odd.body.data.status, 'Failure');
      assert.equal(odd.body.data.error.code, '2');
      const saved = (await admin('GET', '/_sim/wallet')).body.balance;
      await admin('POST', '/_sim/wallet', { balance: 120_000 });
      await recharge('9876543210', 29900);
      const low = await waitFor(() => hook.got.find((g) => g.path.endsWith('/wallet/low-balance')));
      // [P] Setu's webhook page: {event, balance, message, timestamp, traceId}, the balance a rupee string.
      assert.deepEqual(Object.keys(low.body).sort(), ['balance', 'event', 'message', 'timestamp', 'traceId']);
      assert.equal(low.body.event, 'wallet.low_balance');
      assert.equal(low.body.balance, '901.00');
      const empty = await recharge('9876543210', 99900);
      assert.equal(empty.body.data.status, 'Failure');
      assert.equal(empty.body.data.error.failureReason, 'Insufficient Balance');
      assert.equal((await call('GET', '/wallet/balance')).body.data.balance, 901);
      await admin('POST', '/_sim/wallet/topup', { amount: 50_000 });
      const credit = await waitFor(() => hook.got.find((g) => g.path.endsWith('/wallet/topup')));
      // [P] {event, amount, referenceNumber, creditedFrom, transactionDate, message, traceId, currentBalance}, rupee strings.
      assert.deepEqual(Object.keys(credit.body).sort(), ['amount', 'creditedFrom', 'currentBalance', 'event', 'message', 'referenceNumber', 'traceId', 'transactionDate']);
      assert.deepEqual([credit.body.event, credit.body.amount, credit.body.currentBalance], ['wallet.credit', '500.00', '1401.00']);
      await admin('POST', '/_sim/wallet', { balance: saved });
    });
  });

  describe('faults', () => {
    it('error_next answers the 5xx (ERR100 / ERR999) before doing anything; scope payment spares other calls', async () => {
      await admin('POST', '/_sim/faults', { error_next: 1 });
      const e500 = await call('POST', '/fetch-operator-details', { customer: customer('9876543210') });
      assert.equal(e500.status, 500);
      apiError(e500, 'ERR100', 'internal-server-error');
      await admin('POST', '/_sim/faults', { error_next: 1, error_status: 503, scope: 'payment' });
      assert.equal((await call('POST', '/fetch-operator-details', { customer: customer('9876543210') })).status, 200);
      const ref = refId();
      const e503 = await recharge('9876543210', 1900, ref);
      assert.equal(e503.status, 503);
      apiError(e503, 'ERR999', 'upstream-connectivity-error');
      assert.equal((await statusOf(ref)).status, 422, 'nothing was created');
      assert.equal((await recharge('9876543210', 1900, ref)).body.data.status, 'Successful', 'the same paymentRefId is still usable');
    });

    it('error_after_accept_next recharges, then answers 5xx; a retry is ERR005 and the status shows the one recharge', async () => {
      await admin('POST', '/_sim/faults', { error_after_accept_next: 1, error_status: 504 });
      const ref = refId();
      const lost = await recharge('9876543210', 1900, ref);
      assert.equal(lost.status, 504);
      apiError(lost, 'ERR999', 'upstream-connectivity-error');
      apiError(await recharge('9876543210', 1900, ref), 'ERR005', 'duplicate-payment-ref-id');
      assert.equal((await statusOf(ref)).body.data.status, 'Successful');
      assert.deepEqual((await admin('GET', '/_sim/recharges')).body.requests[ref], { requests: 2, recharges: 1 });
    });

    it('timeout_next hangs for timeout_ms; bad fault bodies are refused', async () => {
      await admin('POST', '/_sim/faults', { timeout_next: 1, timeout_ms: 150 });
      const t0 = Date.now();
      assert.equal((await call('GET', '/wallet/balance')).status, 200);
      assert.ok(Date.now() - t0 >= 140);
      assert.equal((await admin('POST', '/_sim/faults', { nonsense: 1 })).status, 400);
      assert.equal((await admin('POST', '/_sim/faults', { error_status: 418 })).status, 400);
      assert.equal((await admin('POST', '/_sim/faults', { scope: 'create_payout' })).status, 400);
    });

    it('duplicate_webhooks sends each twice; webhook_delay_ms delays; out_of_order sends REVERSED before Successful', async () => {
      await admin('POST', '/_sim/faults', { duplicate_webhooks: true });
      const a = await recharge('9876543210');
      const twice = await waitFor(() => hooksFor(a.body.data.transactionRefId).length >= 2 && hooksFor(a.body.data.transactionRefId));
      assert.deepEqual(twice[0]!.body, twice[1]!.body);

      await admin('POST', '/_sim/faults', { out_of_order: true, webhook_delay_ms: 80 });
      const t0 = Date.now();
      const b = await recharge('9876540004');
      const got = await waitFor(() => hooksFor(b.body.data.transactionRefId).length >= 2 && hooksFor(b.body.data.transactionRefId));
      assert.deepEqual(got.map((g) => g.body.status), ['REVERSED', 'Successful']);
      assert.ok(Date.now() - t0 >= 100, 'pendingMs plus the delay');
    });

    it('drop_webhooks sends nothing; a non-2xx receiver gets the documented retries (5) of the same body', async () => {
      await admin('POST', '/_sim/faults', { drop_webhooks: true });
      const d = await recharge('9876543210');
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(hooksFor(d.body.data.transactionRefId).length, 0);
      const log = (await admin('GET', '/_sim/webhooks')).body.deliveries.filter((x: any) => x.ref === d.body.data.transactionRefId);
      assert.deepEqual(log.map((x: any) => x.outcome), ['dropped']);

      emu.setFaults({});
      hook.status.code = 500;
      const r = await recharge('9876543210');
      const tries = await waitFor(() => hooksFor(r.body.data.transactionRefId).length >= 6 && hooksFor(r.body.data.transactionRefId), 5000);
      assert.equal(new Set(tries.map((t) => JSON.stringify(t.body))).size, 1);
      await new Promise((res) => setTimeout(res, 150));
      const attempts = (await admin('GET', '/_sim/webhooks')).body.deliveries.filter((x: any) => x.ref === r.body.data.transactionRefId);
      assert.deepEqual(attempts.map((x: any) => x.attempt), [1, 2, 3, 4, 5, 6], '1 try + 5 retries, then it gives up');
      assert.ok(attempts.every((x: any) => x.outcome === 'rejected' && x.status_code === 500));
    });

    it('forged_success sends a Successful webhook for a recharge that failed; the status API tells the truth', async () => {
      await admin('POST', '/_sim/faults', { forged_success: true });
      const ref = refId();
      const r = await recharge('9876540003', 1900, ref);
      const [w] = await waitFor(() => hooksFor(r.body.data.transactionRefId).length >= 1 && hooksFor(r.body.data.transactionRefId));
      assert.equal(w!.body.status, 'Successful');
      assert.equal((await statusOf(ref)).body.data.status, 'Failure');
      const log = (await admin('GET', '/_sim/webhooks')).body.deliveries.find((x: any) => x.ref === r.body.data.transactionRefId);
      assert.equal(log.forged, true);
    });

    it('POST /_sim/webhook moves or stops the webhooks', async () => {
      await admin('POST', '/_sim/webhook', { url: null });
      const r = await recharge('9876543210');
      await waitFor(async () => (await admin('GET', '/_sim/webhooks')).body.deliveries.some((x: any) => x.ref === r.body.data.transactionRefId && x.outcome === 'no_url'));
      assert.equal((await admin('POST', '/_sim/webhook', { url: 'not a url' })).status, 400);
      await admin('POST', '/_sim/webhook', { url: hook.url });
      assert.deepEqual((await admin('GET', '/_sim/webhook')).body, { url: hook.url });
    });
  });
});

describe('sangam partner-sim --kind setu-recharge', () => {
  it('starts the emulator and prints its settings and the SANGAM_PARTNER_SETU_* variables', async () => {
    const { child, printed: out } = await startCli(['--kind', 'setu-recharge', '--port', '0', '--client-id', 'CLI0-CLI0-CLI0-CLI0', '--latency-ms', '0']);
    try {
      assert.equal(out.kind, 'setu-recharge');
      assert.equal(out.env.SANGAM_PARTNER_SETU_KIND, 'setu-recharge');
      assert.equal(out.env.SANGAM_PARTNER_SETU_URL, out.url);
      assert.equal(out.env.SANGAM_PARTNER_SETU_TOKEN_URL, `${out.url}/v1/users/login`);
      assert.equal(out.env.SANGAM_PARTNER_SETU_CLIENT_ID, 'CLI0-CLI0-CLI0-CLI0');
      const res = await fetch(out.env.SANGAM_PARTNER_SETU_TOKEN_URL, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ClientID: out.client_id, Secret: out.client_secret, grant_type: 'client_credentials' }),
      });
      const { access_token } = (await res.json()) as any;
      const bal = await fetch(`${out.url}/wallet/balance`, { headers: { authorization: `Bearer ${access_token}`, 'x-product-instance-id': out.env.SANGAM_PARTNER_SETU_PRODUCT_INSTANCE_ID } });
      assert.equal(bal.status, 200);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
