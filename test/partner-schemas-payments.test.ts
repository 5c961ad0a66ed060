// Holds the money-moving connectors' traffic against the partners' schemas (docs/partners/<kind>/, read by
// partner-schema.ts), one test per partner call, as partner-schemas.test.ts does for setu-dth: every body the
// connector really sent (captured at the emulator, as it arrived) and every answer the emulator gave must
// validate.
//
// setu-recharge: Setu's own "Prepaid Mobile Recharge" OpenAPI. cashfree-payouts: Cashfree's own Payouts V2
// OpenAPI (/transfers). razorpayx: RazorpayX publishes no machine-readable spec; its document was written
// from Razorpay's Markdown pages, every field with its `x-source` (docs/partners/razorpayx/SOURCE.md), and its
// webhooks (captured at a receiver of our own) are held against it too.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSetuRechargeEmulator, type SetuRechargeEmulator } from '../partner-sim/setu-recharge/index.js';
import { startCashfreePayoutsEmulator, type CashfreePayoutsEmulator } from '../partner-sim/cashfree-payouts/index.js';
import { startRazorpayxEmulator, type RazorpayxEmulator } from '../partner-sim/razorpayx/index.js';
import type { ReceivedRequest } from '../partner-sim/common/server.js';
import { PATHS, VALID, type TestApp } from './harness.js';
import { factoryContext, liveReads, partnerSuiteEnv, startPartnerApp } from './live-harness.js';
import { createRazorpayx } from '../src/providers/razorpayx/index.js';
import type { OperationRequest } from '../src/providers/connector.js';
import { SPECS, type PartnerSpec } from './partner-schema.js';

/** Every captured request to `path` (the emulator's, mapped to the document's by `docPath`) and its answer, validated; at least one made. */
function holdAll(spec: PartnerSpec, traffic: ReceivedRequest[], method: string, path: string, o: { body?: boolean; docPath?: string; statuses?: number[] } = {}): ReceivedRequest[] {
  const calls = traffic.filter((q) => q.method === method && q.path === path && (!o.statuses || o.statuses.includes(q.status)));
  assert.ok(calls.length > 0, `${spec.kind}: no ${method} ${path} was made`);
  const doc = o.docPath ?? path;
  for (const q of calls) {
    if (o.body) {
      const r = spec.request(doc, method, q.body);
      assert.ok(r.valid, `${method} ${doc}: the body Sangam sent is not valid in the partner's schema: ${r.errors.join('; ')}\n${JSON.stringify(q.body)}`);
    }
    const a = spec.response(doc, method, q.status, q.answer);
    assert.ok(a.valid, `${method} ${doc}: the emulator's HTTP ${q.status} answer is not valid in the partner's schema: ${a.errors.slice(0, 8).join('; ')}\n${JSON.stringify(q.answer).slice(0, 600)}`);
  }
  return calls;
}

const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe("setu-recharge against Setu's Prepaid Mobile Recharge OpenAPI", () => {
  const setu = SPECS['setu-recharge']();
  let emu: SetuRechargeEmulator;
  let t: TestApp;
  const mobile = (suffix: string) => `910456${suffix}`;

  before(async () => {
    emu = await startSetuRechargeEmulator({ pendingMs: 100, latencyMs: 0 });
    const s = emu.settings;
    const vars = { TOKEN_URL: `${emu.url}/v1/users/login`, CLIENT_ID: s.clientId, CLIENT_SECRET: s.clientSecret, PRODUCT_INSTANCE_ID: s.productInstanceId, WEBHOOK_SECRET: 'setu_webhook_path_secret_for_schema01' };
    t = await startPartnerApp({ ...partnerSuiteEnv('setu', 'setu-recharge', emu.url, vars, 'recharge-commission'), SANGAM_PARTNER_TIMEOUT_MS: '3000', SANGAM_RECONCILE_SCHEDULE: '0.3' });
    const { final } = liveReads(() => t);
    assert.equal((await t.call('GET', '/api/v1/mobile-recharge/operator-lookup?mobile=9876543210', { key: t.liveKey })).status, 200);
    assert.equal((await t.call('GET', '/api/v1/mobile-recharge/plans?operator=AT&circle=KA', { key: t.liveKey })).status, 200);
    // success, refused at once (Failure in the request's answer), Processing then Failure (read from /recharge/status)
    for (const suffix of ['1234', '0001', '0003']) {
      const body = { ...VALID.recharge(), mobile: mobile(suffix), operator: 'JIO', circle: 'MH', amount: 199 };
      assert.equal((await t.call('POST', PATHS.recharge, { key: t.liveKey, body })).status, 200);
      await final(body.reference_id);
    }
  });
  after(async () => {
    await t?.close();
    await emu?.close();
  });

  const token = async () => ((await (await postJson(`${emu.url}/v1/users/login`, { ClientID: emu.settings.clientId, Secret: emu.settings.clientSecret, grant_type: 'client_credentials' })).json()) as { access_token: string }).access_token;
  const api = async (method: string, path: string, body?: unknown, instance = emu.settings.productInstanceId) =>
    fetch(`${emu.url}${path}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${await token()}`, 'x-product-instance-id': instance }, body: body === undefined ? undefined : JSON.stringify(body) });

  it('POST /v1/users/login: the login body and the token answer', () => void holdAll(setu, emu.requests(), 'POST', '/v1/users/login', { body: true }));

  it('POST /fetch-operator-details: the lookup body and the operator answer', () => void holdAll(setu, emu.requests(), 'POST', '/fetch-operator-details', { body: true }));

  it('POST /fetch-plans: the plans body and the plan list', () => void holdAll(setu, emu.requests(), 'POST', '/fetch-plans', { body: true }));

  it('POST /recharge/request: every recharge body; Successful, Failure (error an object) and Processing answers; ERR009 under HTTP 500', async () => {
    const calls = holdAll(setu, emu.requests(), 'POST', '/recharge/request', { body: true });
    const statuses = new Set(calls.map((q) => (q.answer as { data: { status: string } }).data.status));
    for (const s of ['Successful', 'Failure', 'Processing']) assert.ok(statuses.has(s), `a ${s} answer was validated`);
    const sent = calls[0]!.body;
    const r = await api('POST', '/recharge/request', sent, '00000000-0000-0000-0000-000000000000');
    assert.equal(r.status, 500, 'Setu documents ERR009 under HTTP 500 on this call');
    const err = setu.response('/recharge/request', 'POST', 500, await r.json());
    assert.ok(err.valid, err.errors.join('; '));
  });

  it('POST /recharge/status: the enquiry body; the answer’s data.error a string, as Setu types it here; ERR003 for an unknown reference', async () => {
    const calls = holdAll(setu, emu.requests(), 'POST', '/recharge/status', { body: true, statuses: [200] });
    assert.ok(calls.some((q) => typeof (q.answer as { data: { error: unknown } }).data.error === 'string'), 'a Failure read from the status answer');
    const unknown = await api('POST', '/recharge/status', { paymentRefId: 'NEVERSEEN1' });
    assert.equal(unknown.status, 422);
    const check = setu.response('/recharge/status', 'POST', 422, await unknown.json());
    assert.ok(check.valid, check.errors.join('; '));
  });

  it('GET /wallet/balance: the float read (rupees, a number)', async () => {
    const r = await api('GET', '/wallet/balance');
    const check = setu.response('/wallet/balance', 'GET', r.status, await r.json());
    assert.ok(check.valid, check.errors.join('; '));
  });
});

describe("cashfree-payouts against Cashfree's Payouts V2 OpenAPI", () => {
  const cf = SPECS['cashfree-payouts']();
  let emu: CashfreePayoutsEmulator;
  let t: TestApp;

  before(async () => {
    emu = await startCashfreePayoutsEmulator({ pendingMs: 100, latencyMs: 0, rateLimitPerMinute: 0 });
    const vars = { CLIENT_ID: emu.settings.clientId, CLIENT_SECRET: emu.settings.clientSecret };
    t = await startPartnerApp({ ...partnerSuiteEnv('cashfree', 'cashfree-payouts', emu.url, vars, 'upi-payment-status'), SANGAM_PARTNER_TIMEOUT_MS: '3000', SANGAM_RECONCILE_SCHEDULE: '0.3' });
    const { final } = liveReads(() => t);
    // success, a failure, one pending at first (no webhook URL: settled by GET /transfers)
    for (const vpa of ['priya.sharma@okaxis', 'failure@ybl', 'approval@ybl']) {
      const body = { ...VALID.upi(), vpa, amount: 100.07 };
      assert.equal((await t.call('POST', PATHS.upi, { key: t.liveKey, body })).status, 200);
      await final(body.reference_id, 15_000);
    }
  });
  after(async () => {
    await t?.close();
    await emu?.close();
  });

  const headers = () => ({ 'x-client-id': emu.settings.clientId, 'x-client-secret': emu.settings.clientSecret, 'x-api-version': '2024-01-01' });

  it('POST /transfers: every transfer body the connector sent, and the transfer answers', () => void holdAll(cf, emu.requests(), 'POST', '/payout/transfers', { body: true, docPath: '/transfers' }));

  it('GET /transfers: the status answers; an unknown transfer_id is the documented 404 transfer_id_not_found', async () => {
    holdAll(cf, emu.requests(), 'GET', '/payout/transfers', { docPath: '/transfers' });
    const r = await fetch(`${emu.url}/transfers?transfer_id=never_sent_0001`, { headers: headers() });
    assert.equal(r.status, 404);
    const body = (await r.json()) as { code: string };
    assert.equal(body.code, 'transfer_id_not_found');
    assert.ok(cf.response('/transfers', 'GET', 404, body).valid);
  });

  it('the emulator’s documented refusals: 500 authentication_error and 403 apis_not_enabled hold against Cashfree’s error schema; x-request-id blank when none was sent', async () => {
    const body = emu.requests().find((q) => q.method === 'POST' && q.path === '/payout/transfers')!.body as Record<string, unknown>;
    try {
      emu.setFaults({ authentication_error: true });
      const auth = await postJson(`${emu.url}/transfers`, { ...body, transfer_id: 'schema_auth_1' }, headers());
      assert.equal(auth.status, 500);
      assert.equal(auth.headers.get('x-request-id') ?? '', '');
      const authBody = (await auth.json()) as { type: string };
      assert.equal(authBody.type, 'authentication_error');
      assert.ok(cf.response('/transfers', 'POST', 500, authBody).valid);
      emu.setFaults({ apis_not_enabled: true });
      const off = await postJson(`${emu.url}/transfers`, { ...body, transfer_id: 'schema_off_1' }, headers());
      assert.equal(off.status, 403);
      assert.ok(cf.response('/transfers', 'POST', 403, await off.json()).valid);
    } finally {
      emu.setFaults({});
    }
  });
});

/** A receiver for the emulator's webhooks on 127.0.0.1: each one's event and body, in `delivered`. */
async function webhookCatcher(delivered: Array<{ event: string; body: unknown }>): Promise<Server> {
  const hooks = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(raw) as { event: string };
      delivered.push({ event: body.event, body });
      res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((r) => hooks.listen(0, '127.0.0.1', r));
  return hooks;
}

describe('razorpayx against the schema written from Razorpay’s own documentation', () => {
  const rzp = SPECS.razorpayx();
  let emu: RazorpayxEmulator;
  let t: TestApp;
  let hooks: Server;
  const delivered: Array<{ event: string; body: unknown }> = [];

  before(async () => {
    hooks = await webhookCatcher(delivered);
    emu = await startRazorpayxEmulator({ pendingMs: 100, latencyMs: 0, validationMs: 50, webhookUrl: `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hooks` });
    const s = emu.settings;
    const vars = { KEY_ID: s.keyId, KEY_SECRET: s.keySecret, ACCOUNT_NUMBER: s.accountNumber, FAV_ACCOUNT_NUMBER: s.liteAccountNumber, WEBHOOK_SECRET: s.webhookSecret };
    t = await startPartnerApp({ ...partnerSuiteEnv('rzp', 'razorpayx', emu.url, vars, 'upi-payment-status'), SANGAM_PARTNER_TIMEOUT_MS: '3000', SANGAM_RECONCILE_SCHEDULE: '0.3' });
    const { final } = liveReads(() => t);
    // a success after the name check (fund account validation), a failure, one pending at first (webhooks go to our receiver, not the app: settled by GET /v1/payouts/{id})
    for (const extra of [{ vpa: 'priya.sharma@okaxis', beneficiary_name: 'Priya Sharma' }, { vpa: 'failure@ybl' }, { vpa: 'pending@ybl' }]) {
      const body = { ...VALID.upi(), ...extra, amount: 100.5 };
      assert.equal((await t.call('POST', PATHS.upi, { key: t.liveKey, body })).status, 200);
      if (extra.vpa === 'pending@ybl') {
        const id = emu.payouts().at(-1)!.payout.id;
        await postJson(`${emu.url}/_sim/payouts/${id}/settle`, { status: 'processed' });
      }
      await final(body.reference_id, 15_000);
    }
  });
  after(async () => {
    await t?.close();
    await emu?.close();
    await new Promise((r) => hooks?.close(r));
  });

  const auth = () => ({ authorization: `Basic ${Buffer.from(`${emu.settings.keyId}:${emu.settings.keySecret}`).toString('base64')}` });

  it('POST /v1/payouts: every composite payout body the connector sent, and the payout answers', () => void holdAll(rzp, emu.requests(), 'POST', '/v1/payouts', { body: true }));

  it('GET /v1/payouts/{id}: the status answers; an unknown id is the documented 400 "The id provided does not exist"', async () => {
    const gets = emu.requests().filter((q) => q.method === 'GET' && /^\/v1\/payouts\/pout_/.test(q.path));
    assert.ok(gets.length > 0, 'the reconciler asked by payout id');
    for (const q of gets) assert.ok(rzp.response('/v1/payouts/{id}', 'GET', q.status, q.answer).valid, JSON.stringify(q.answer));
    const r = await fetch(`${emu.url}/v1/payouts/pout_00000000000000`, { headers: auth() });
    assert.equal(r.status, 400);
    const check = rzp.response('/v1/payouts/{id}', 'GET', 400, await r.json());
    assert.ok(check.valid, check.errors.join('; '));
  });

  it('GET /v1/payouts?account_number=&reference_id=: the lookup by our reference answers a collection', async () => {
    const ref = emu.payouts()[0]!.payout.reference_id!;
    const r = await fetch(`${emu.url}/v1/payouts?account_number=${emu.settings.accountNumber}&reference_id=${ref}&count=100`, { headers: auth() });
    const check = rzp.response('/v1/payouts', 'GET', r.status, await r.json());
    assert.ok(check.valid, check.errors.join('; '));
  });

  it('POST /v1/fund_accounts/validations: the body the name check sent (from the Lite identifier) and the answer; GET by id', async () => {
    const calls = holdAll(rzp, emu.requests(), 'POST', '/v1/fund_accounts/validations', { body: true });
    assert.equal((calls[0]!.body as { source_account_number: string }).source_account_number, emu.settings.liteAccountNumber);
    const id = (calls[0]!.answer as { id: string }).id;
    const r = await fetch(`${emu.url}/v1/fund_accounts/validations/${id}`, { headers: auth() });
    const check = rzp.response('/v1/fund_accounts/validations/{id}', 'GET', r.status, await r.json());
    assert.ok(check.valid, check.errors.join('; '));
  });

  it('webhooks: every payout.* and fund_account.validation.* payload the emulator delivered', () => {
    const payouts = delivered.filter((d) => d.event.startsWith('payout.'));
    const favs = delivered.filter((d) => d.event.startsWith('fund_account.validation.'));
    assert.ok(payouts.length > 0 && favs.length > 0, delivered.map((d) => d.event).join(', '));
    for (const d of payouts) {
      const check = rzp.webhook('payout', d.body);
      assert.ok(check.valid, `${d.event}: ${check.errors.slice(0, 8).join('; ')}\n${JSON.stringify(d.body).slice(0, 600)}`);
    }
    for (const d of favs) {
      const check = rzp.webhook('fund_account.validation', d.body);
      assert.ok(check.valid, `${d.event}: ${check.errors.slice(0, 8).join('; ')}`);
    }
  });
});

describe('razorpayx payee verifications (the connector called directly) against the same schema', () => {
  const rzp = SPECS.razorpayx();
  let emu: RazorpayxEmulator;
  let hooks: Server;
  const delivered: Array<{ event: string; body: unknown }> = [];

  before(async () => {
    hooks = await webhookCatcher(delivered);
    emu = await startRazorpayxEmulator({ latencyMs: 0, validationMs: 50, slowValidationMs: 600, webhookUrl: `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hooks` });
    const s = emu.settings;
    const vars = { KEY_ID: s.keyId, KEY_SECRET: s.keySecret, ACCOUNT_NUMBER: s.accountNumber, FAV_ACCOUNT_NUMBER: s.liteAccountNumber, WEBHOOK_SECRET: s.webhookSecret, VALIDATION_WAIT_MS: '300' };
    const c = createRazorpayx(factoryContext('rzp', vars, emu.url));
    const reqs: OperationRequest[] = [
      { operation: 'account-verification', txnId: 'txn_schemaBank1', accountNumber: '50100012345678', ifsc: 'HDFC0000053' },
      { operation: 'account-verification', txnId: 'txn_schemaBank2', accountNumber: '50100012345000', ifsc: 'ICIC0000047' },
      { operation: 'account-verification', txnId: 'txn_schemaBank3', accountNumber: '50100012345999', ifsc: 'SBIN0000691' },
      { operation: 'account-verification', txnId: 'txn_schemaBank4', accountNumber: '50100012345888', ifsc: 'UTIB0000004' },
      { operation: 'vpa-verification', txnId: 'txn_schemaVpa1', vpa: 'priya.sharma@okaxis' },
      { operation: 'vpa-verification', txnId: 'txn_schemaVpa2', vpa: 'invalid.one@ybl' },
    ];
    try {
      for (const r of reqs) await c.execute(r);
      await new Promise((r) => setTimeout(r, 800));
      // the enquiries: by the validation id, and by our reference (the listing)
      await c.status!({ txnId: 'txn_schemaBank4', operation: 'account-verification', partnerRef: emu.validations().find((v) => v.reference_id === 'txn_schemaBank4')!.id, amountPaise: null, commissionPaise: 0 });
      await c.status!({ txnId: 'txn_schemaVpa1', operation: 'vpa-verification', partnerRef: null, amountPaise: null, commissionPaise: 0 });
    } finally {
      await c.close?.();
    }
  });
  after(async () => {
    await emu?.close();
    await new Promise((r) => hooks?.close(r));
  });

  it('POST /v1/fund_accounts/validations: every bank account and VPA body the connector sent (reference_id = our txn id), and the answers', () => {
    const calls = holdAll(rzp, emu.requests(), 'POST', '/v1/fund_accounts/validations', { body: true });
    assert.deepEqual(
      calls.map((q) => (q.body as { fund_account: { account_type: string } }).fund_account.account_type),
      ['bank_account', 'bank_account', 'bank_account', 'bank_account', 'vpa', 'vpa'],
    );
    for (const q of calls) assert.match((q.body as { reference_id: string }).reference_id, /^txn_schema/);
  });

  it('GET /v1/fund_accounts/validations/{id} and the listing under the Lite identifier', () => {
    const byId = emu.requests().filter((q) => q.method === 'GET' && /^\/v1\/fund_accounts\/validations\/fav_/.test(q.path));
    assert.ok(byId.length > 0, 'asked by id');
    for (const q of byId) assert.ok(rzp.response('/v1/fund_accounts/validations/{id}', 'GET', q.status, q.answer).valid, JSON.stringify(q.answer).slice(0, 400));
    const lists = emu.requests().filter((q) => q.method === 'GET' && q.path === '/v1/fund_accounts/validations');
    assert.ok(lists.length > 0, 'listed by account');
    for (const q of lists) {
      const check = rzp.response('/v1/fund_accounts/validations', 'GET', q.status, q.answer);
      assert.ok(check.valid, check.errors.slice(0, 8).join('; '));
    }
  });

  it('webhooks: every fund_account.validation.* payload of a bank account or a VPA', () => {
    const favs = delivered.filter((d) => d.event.startsWith('fund_account.validation.'));
    assert.ok(favs.some((d) => d.event.endsWith('.failed')) && favs.some((d) => d.event.endsWith('.completed')), favs.map((d) => d.event).join(', '));
    for (const d of favs) {
      const check = rzp.webhook('fund_account.validation', d.body);
      assert.ok(check.valid, `${d.event}: ${check.errors.slice(0, 8).join('; ')}\n${JSON.stringify(d.body).slice(0, 600)}`);
    }
  });
});
