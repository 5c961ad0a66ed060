// Holds Sangam's partner traffic against the partners' OWN schemas (docs/partners/<kind>/, read by
// partner-schema.ts), one test per partner call the document covers: every body the connector really sent
// (captured at the emulator, as it arrived) and every answer the emulator gave must validate. These are
// the checks the fidelity audit (issue #38) ran by hand: before the fixes, Setu BBPS's fetch body, biller
// list and fetch answer were INVALID here.
//
// setu-dth: a live app drives DTH recharges and subscriber lookups through the connector against the
// emulator (success, a plan-mandatory biller, a fetch Failure, a payment Failure, a pending payment), then
// each call's captured traffic is validated. The emulator's refusals agree with the schema's (a body the
// schema refuses is a 400 in Setu's documented error shape).
// cashfree-verification: Cashfree's document has no mobile penny drop (its SOURCE.md): the body cannot be
// held against a schema; the emulator's error answers are held against the error schemas Cashfree
// documents for its sibling V2 verification call (POST /upi). The payee verifications are in it: the
// connector, called directly, drives BAV V2 (sync, async, status) and UPI V2 (and its status) through
// every outcome, and every body it sent and every answer the emulator gave is held against the document.
// Cashfree's own examples answer `null` where its schema's types say string (an invalid account's
// `name_at_bank`): the emulator follows the examples, and a null is read as absent here.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SETU_DTH_CONNECTOR_VARS, startSetuDthEmulator, type SetuDthEmulator } from '../partner-sim/setu-dth/index.js';
import { startCashfreeVerificationEmulator, type CashfreeVerificationEmulator } from '../partner-sim/cashfree-verification/index.js';
import type { ReceivedRequest } from '../partner-sim/common/server.js';
import { eventually, PATHS, VALID, type TestApp } from './harness.js';
import { liveReads, startPartnerApp } from './live-harness.js';
import { SPECS } from './partner-schema.js';
import { connectorFor } from './cashfree-vrs.js';

const setu = SPECS['setu-dth']();

/**
 * Every captured request to `path` (and its answer) validated; at least one must have been made. `variantOf`
 * names the one documented answer an answer must match (Setu documents a variant per outcome), else any.
 */
function holdAll(kind: string, spec: ReturnType<(typeof SPECS)['setu-dth']>, traffic: ReceivedRequest[], method: string, path: string, withBody: boolean, variantOf?: (answer: unknown) => string | undefined): void {
  const calls = traffic.filter((q) => q.method === method && q.path === path);
  assert.ok(calls.length > 0, `${kind}: no ${method} ${path} was made`);
  for (const q of calls) {
    if (withBody) {
      const r = spec.request(path, method, q.body);
      assert.ok(r.valid, `${method} ${path}: the body Sangam sent is not valid in the partner's schema: ${r.errors.join('; ')}\n${JSON.stringify(q.body)}`);
    }
    const a = spec.response(path, method, q.status, q.answer, q.status === 200 ? variantOf?.(q.answer) : undefined);
    assert.ok(a.valid, `${method} ${path}: the emulator's HTTP ${q.status} answer is not valid in the partner's schema: ${a.errors.slice(0, 8).join('; ')}\n${JSON.stringify(q.answer).slice(0, 600)}`);
  }
}

describe("setu-dth against Setu's BBPS BillPay v2 OpenAPI", () => {
  let emu: SetuDthEmulator;
  let t: TestApp;

  before(async () => {
    emu = await startSetuDthEmulator({ fetchMs: 30, pendingMs: 100, latencyMs: 0 });
    const vars: Record<string, string> = {
      KIND: 'setu-dth',
      URL: emu.url,
      CLIENT_ID: emu.settings.clientId,
      CLIENT_SECRET: emu.settings.clientSecret,
      PARTNER_ID: String(emu.settings.partnerId),
      CUSTOMER_MOBILE: '9812300000',
      WEBHOOK_SECRET: 'setu_dth_webhook_path_secret_for_schema01',
      ...SETU_DTH_CONNECTOR_VARS,
    };
    t = await startPartnerApp({
      ...Object.fromEntries(Object.entries(vars).map(([k, v]) => [`SANGAM_PARTNER_SETUDTH_${k}`, v])),
      SANGAM_PARTNER_ROUTES: 'dth-recharge=setudth',
      SANGAM_PARTNER_TIMEOUT_MS: '3000',
      SANGAM_RECONCILE_SCHEDULE: '0.3',
    });
    const { final } = liveReads(() => t);
    const dth = (body: Record<string, unknown>) => t.call('POST', PATHS.dth, { key: t.liveKey, body });
    const runs = [
      { subscriber_id: '1234561234', operator: 'TS', amount: 350 }, // success
      { subscriber_id: '1234567001', operator: 'SD', amount: 251 }, // a plan-mandatory biller
      { subscriber_id: '1234560009', operator: 'AD', amount: 100 }, // the fetch fails
      { subscriber_id: '1234560001', operator: 'DT', amount: 100 }, // the payment fails
      { subscriber_id: '1234560002', operator: 'VD', amount: 150 }, // Processing, then Success (polled)
    ];
    for (const run of runs) {
      const body = { ...VALID.dth(), ...run };
      const r = await dth(body);
      assert.equal(r.status, 200, r.text);
      await final(body.reference_id);
    }
    const info = await t.call('GET', `/api/v1/dth/subscriber-info?operator=TS&subscriber_id=4123456789`, { key: t.liveKey });
    assert.equal(info.status, 200, info.text);
    // a processing payment/response answer too: held until settled, asked while Processing
    await eventually(async () => emu.requests().some((q) => q.path === '/api/v2/bbps/bills/payment/response' && (q.answer as { data?: { status?: string } }).data?.status === 'Processing'));
  });
  after(async () => {
    await t?.close();
    await emu?.close();
  });

  it('POST /api/v2/auth/token: the login body and the token answer', () => holdAll('setu-dth', setu, emu.requests(), 'POST', '/api/v2/auth/token', true));

  it('GET /api/v2/bbps/billers: the biller list (paramName, planRequirement and every required biller field)', () => holdAll('setu-dth', setu, emu.requests(), 'GET', '/api/v2/bbps/billers', false));

  it('POST /api/v2/bbps/bills/fetch/request: agent and customer.customerParams in every fetch; a body the schema refuses is a 400 in Setu’s shape', async () => {
    holdAll('setu-dth', setu, emu.requests(), 'POST', '/api/v2/bbps/bills/fetch/request', true);
    const sent = emu.requests().find((q) => q.path === '/api/v2/bbps/bills/fetch/request')!.body as Record<string, unknown>;
    const token = ((await (await fetch(`${emu.url}/api/v2/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientID: emu.settings.clientId, secret: emu.settings.clientSecret }) })).json()) as { token: string }).token;
    const { agent: _a, ...noAgent } = sent;
    const customer = sent.customer as { mobile: string; customerParams: unknown };
    const v1 = { ...sent, customer: { mobile: customer.mobile, billParameters: customer.customerParams } };
    for (const bad of [noAgent, v1]) {
      assert.equal(setu.request('/api/v2/bbps/bills/fetch/request', 'POST', bad).valid, false, 'the schema refuses it');
      const r = await fetch(`${emu.url}/api/v2/bbps/bills/fetch/request`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-partner-id': String(emu.settings.partnerId) }, body: JSON.stringify(bad) });
      assert.equal(r.status, 400);
      const answer = setu.response('/api/v2/bbps/bills/fetch/request', 'POST', 400, await r.json());
      assert.ok(answer.valid, answer.errors.join('; '));
    }
  });

  it('POST /api/v2/bbps/bills/fetch/response: Processing, Success (the subscriber at data level) and Failure answers', () => {
    const fetchVariant: Record<string, string> = { Success: '200', Failure: '200-failed-fetch', Processing: '200-processing-status' };
    holdAll('setu-dth', setu, emu.requests(), 'POST', '/api/v2/bbps/bills/fetch/response', true, (a) => fetchVariant[(a as { data: { status: string } }).data.status]);
    const statuses = new Set(emu.requests().filter((q) => q.path === '/api/v2/bbps/bills/fetch/response').map((q) => (q.answer as { data: { status: string } }).data.status));
    for (const s of ['Success', 'Failure']) assert.ok(statuses.has(s), `a ${s} fetch answer was validated`);
  });

  it('POST /api/v2/bbps/bills/payment/request: every payment body (remitter and accountInfo included; the plan Id for a plan-mandatory biller)', () => {
    holdAll('setu-dth', setu, emu.requests(), 'POST', '/api/v2/bbps/bills/payment/request', true);
    for (const q of emu.requests().filter((x) => x.path === '/api/v2/bbps/bills/payment/request')) {
      const b = q.body as { remitter?: { name?: string }; paymentDetails: { accountInfo?: string } };
      assert.ok(b.remitter?.name && b.paymentDetails.accountInfo, 'Setu’s guide: remitter.name and paymentDetails.accountInfo are required');
    }
  });

  it('POST /api/v2/bbps/bills/payment/response: Success, Failure and Processing answers', () => {
    const payVariant: Record<string, string> = { Success: '200', Failure: '200-failed-payment', Processing: '200-processing-payment' };
    holdAll('setu-dth', setu, emu.requests(), 'POST', '/api/v2/bbps/bills/payment/response', true, (a) => payVariant[(a as { data: { status: string } }).data.status]);
    const statuses = new Set(emu.requests().filter((q) => q.path === '/api/v2/bbps/bills/payment/response' && q.status === 200).map((q) => (q.answer as { data: { status: string } }).data.status));
    for (const s of ['Success', 'Failure', 'Processing']) assert.ok(statuses.has(s), `a ${s} payment answer was validated`);
  });

  it('every call the connector made is one the document covers (or the plan list, documented in the plan guide only)', () => {
    const covered = new Set(['/api/v2/auth/token', '/api/v2/bbps/billers', '/api/v2/bbps/bills/fetch/request', '/api/v2/bbps/bills/fetch/response', '/api/v2/bbps/bills/payment/request', '/api/v2/bbps/bills/payment/response']);
    const other = emu.requests().filter((q) => !covered.has(q.path) && q.path !== '/api/v2/bbps/billers/plans');
    assert.deepEqual(other.map((q) => `${q.method} ${q.path}`), []);
  });
});

describe("cashfree-verification against Cashfree's Verification API document", () => {
  const cf = SPECS['cashfree-verification']();
  let emu: CashfreeVerificationEmulator;
  before(async () => {
    emu = await startCashfreeVerificationEmulator({ latencyMs: 0 });
  });
  after(async () => emu?.close());

  it('POST /mobile/penny-drop is not in Cashfree’s document (nor any status call for it): nothing to hold the body against', () => {
    assert.equal(cf.has('/mobile/penny-drop', 'post'), false);
    assert.equal(cf.has('/mobile/penny-drop', 'get'), false);
  });

  it('the emulator’s error answers (400, 401, 409, 429, 500) match the errors Cashfree documents for its sibling V2 call, POST /upi', async () => {
    const headers = { 'x-client-id': emu.settings.clientId, 'x-client-secret': emu.settings.clientSecret, 'x-api-version': '2024-12-01', 'content-type': 'application/json' };
    const consent = { obtained: true, type: 'EXPLICIT', timestamp: '2025-10-27T09:24:36Z', purpose: 'Verify the payout account' };
    const post = (body: unknown, h: Record<string, string> = headers) => fetch(`${emu.url}/mobile/penny-drop`, { method: 'POST', headers: h, body: JSON.stringify(body) });
    const id = `v_schema_${Date.now()}`;
    const answers: Array<[number, Response]> = [];
    answers.push([400, await post({ verification_id: id, mobile_number: 'abc', user_consent: consent })]);
    answers.push([401, await post({}, { ...headers, 'x-client-secret': 'wrong' })]);
    assert.equal((await post({ verification_id: id, mobile_number: 9812345678, user_consent: consent })).status, 200);
    answers.push([409, await post({ verification_id: id, mobile_number: 9812345678, user_consent: consent })]);
    emu.setFaults({ throttle_next: 1, scope: 'create' });
    answers.push([429, await post({ verification_id: `${id}_2`, mobile_number: 9812345678, user_consent: consent })]);
    answers.push([500, await post({ verification_id: `${id}_3`, mobile_number: 9000000001, user_consent: consent })]);
    emu.setFaults({});
    for (const [status, r] of answers) {
      assert.equal(r.status, status);
      const check = cf.response('/upi', 'post', status, await r.json());
      assert.ok(check.valid, `HTTP ${status}: ${check.errors.join('; ')}`);
    }
  });
});

describe("cashfree-verification payee verifications against Cashfree's Verification API document (BAV V2, UPI V2)", () => {
  const cf = SPECS['cashfree-verification']();
  let emu: CashfreeVerificationEmulator;
  before(async () => {
    emu = await startCashfreeVerificationEmulator({ latencyMs: 0, pendingMs: 50 });
  });
  after(async () => emu?.close());

  /** Null-valued keys dropped (the document's examples answer null where its schema says string). */
  const withoutNulls = (v: unknown): unknown => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null)) : v);

  it('every body the connector sent and every answer the emulator gave validates', async () => {
    const sync = connectorFor(emu);
    const async = connectorFor(emu, { BAV_MODE: 'async' });
    const wrong = connectorFor(emu, { CLIENT_SECRET: 'wrong' });
    const ids: Array<[typeof sync, string, 'account-verification' | 'vpa-verification', string | null]> = [];
    const run = async (c: typeof sync, req: Parameters<typeof sync.execute>[0]) => {
      const o = await c.execute(req).catch(() => null);
      ids.push([c, req.txnId, req.operation as 'account-verification', o?.partnerRef ?? null]);
    };
    let n = 0;
    const txn = () => `txn_schema_${Date.now()}_${++n}`;
    for (const accountNumber of ['50100012345678', '000000000001', '000000000002', '000000000003', '000000000004', '000000000005', '000000000007']) {
      await run(sync, { operation: 'account-verification', txnId: txn(), accountNumber, ifsc: 'HDFC0000001' });
    }
    await run(sync, { operation: 'account-verification', txnId: txn(), accountNumber: '123456789', ifsc: 'ZZZZ0000001' });
    await run(async, { operation: 'account-verification', txnId: txn(), accountNumber: '50100087654321', ifsc: 'SBIN0000001' });
    for (const vpa of ['someone@okaxis', 'invalid@upi', 'expired@upi', 'invalidname@upi', 'pending@upi']) await run(sync, { operation: 'vpa-verification', txnId: txn(), vpa });
    await run(wrong, { operation: 'vpa-verification', txnId: txn(), vpa: 'a@okaxis' });
    emu.setFaults({ throttle_next: 1, scope: 'create' });
    await run(sync, { operation: 'vpa-verification', txnId: txn(), vpa: 'a@okaxis' });
    emu.setFaults({});
    await new Promise((r) => setTimeout(r, 150));
    for (const [c, txnId, operation, partnerRef] of ids) {
      await c.status!({ txnId, operation, partnerRef, amountPaise: null, commissionPaise: 0 }).catch(() => null);
    }
    await Promise.all([sync, async, wrong].map((c) => c.close?.()));

    const traffic = emu.requests().map((q) => ({ ...q, path: q.path.replace(/^\/verification/, ''), answer: withoutNulls(q.answer) }));
    const seen = new Set<string>();
    for (const q of traffic) {
      seen.add(`${q.method} ${q.path} ${q.status}`);
      const method = q.method.toLowerCase();
      // A 401 is answered before the body is read (the emulator's auth hook): there is no captured body to hold.
      if (method === 'post' && q.status !== 401) {
        const r = cf.request(q.path, method, q.body);
        assert.ok(r.valid, `${q.method} ${q.path}: the body the connector sent is not valid: ${r.errors.join('; ')}\n${JSON.stringify(q.body)}`);
      }
      const a = cf.response(q.path, method, q.status, q.answer);
      assert.ok(a.valid, `${q.method} ${q.path}: the emulator's HTTP ${q.status} answer is not valid: ${a.errors.slice(0, 8).join('; ')}\n${JSON.stringify(q.answer)}`);
    }
    for (const call of ['POST /bank-account/sync 200', 'POST /bank-account/sync 422', 'POST /bank-account/async 200', 'GET /bank-account 200', 'POST /upi 200', 'POST /upi 401', 'POST /upi 429', 'GET /upi 200']) {
      assert.ok(seen.has(call), `${call} was not exercised (seen: ${[...seen].join(', ')})`);
    }
  });

  it('the emulator refuses what the document refuses, in its documented codes', async () => {
    const headers = { 'x-client-id': emu.settings.clientId, 'x-client-secret': emu.settings.clientSecret, 'x-api-version': '2024-12-01', 'content-type': 'application/json' };
    const post = async (path: string, body: unknown) => {
      const r = await fetch(`${emu.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      const json = (await r.json()) as { code: string };
      const check = cf.response(path, 'post', r.status, json);
      assert.ok(check.valid, `${path} HTTP ${r.status}: ${check.errors.join('; ')}`);
      return [r.status, json.code];
    };
    assert.deepEqual(await post('/bank-account/sync', { ifsc: 'HDFC0000001' }), [400, 'bank_account_missing']);
    assert.deepEqual(await post('/bank-account/sync', { bank_account: '12345', ifsc: 'HDFC0000001' }), [400, 'bank_account_length_short']);
    assert.deepEqual(await post('/bank-account/sync', { bank_account: '123456789', ifsc: 'HDFC1000001' }), [400, 'ifsc_value_invalid']);
    assert.deepEqual(await post('/bank-account/async', { bank_account: '123456789', ifsc: 'HDFC0000001', user_id: 'a-b' }), [400, 'user_id_value_invalid']);
    assert.deepEqual(await post('/upi', { vpa: 'a@okaxis' }), [400, 'verification_id_missing']);
    assert.deepEqual(await post('/upi', { verification_id: 'v_1', vpa: 'not a vpa' }), [400, 'vpa_value_invalid']);
    assert.deepEqual(await post('/upi', { verification_id: 'v_dup', vpa: 'a@okaxis' }), [200, undefined]);
    assert.deepEqual(await post('/upi', { verification_id: 'v_dup', vpa: 'a@okaxis' }), [409, 'verification_id_already_exists']);
  });
});
