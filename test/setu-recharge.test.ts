// The setu-recharge connector end to end: Sangam's HTTP surface, a live app listening on a real port,
// the Setu prepaid emulator in-process posting its (unsigned) webhooks under the secret base URL
// /partners/setu/webhooks/<secret>, the wallet and the ledger (checked after every test). Plus the
// pre-flight (operator lookup, plans) through /api/v1/mobile-recharge/*, and a few unit-level checks. The
// shared connector conformance scenarios run through its adapter (connector-conformance.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { redactUrl } from '../src/audit/redact.js';
import { listFees } from '../src/ledger/pricing.js';
import { startSetuRechargeEmulator, type SetuRechargeEmulator } from '../partner-sim/setu-recharge/index.js';
import { PartnerError } from '../src/providers/connector.js';
import { createSetuRecharge } from '../src/providers/setu-recharge/index.js';
import { paymentRefIdOf, txnIdOfPaymentRef } from '../src/providers/setu/transformers.js';
import { lookupOf, plansOf, statusOf } from '../src/providers/setu-recharge/transformers.js';
import { eventually, PATHS, sleep, uuid, VALID } from './harness.js';
import { assertLedgerHolds, factoryContext, liveReads, partnerSuiteEnv, partnerSuiteLife, startPartnerApp, type PartnerApp } from './live-harness.js';
import { conformance } from './connector-conformance.js';

const SECRET = 'setu_webhook_path_secret_for_tests_0001';

async function startSetuApp(emu: SetuRechargeEmulator, port: number | null, env: Record<string, string> = {}): Promise<PartnerApp> {
  const s = emu.settings;
  const vars = { TOKEN_URL: `${emu.url}/v1/users/login`, CLIENT_ID: s.clientId, CLIENT_SECRET: s.clientSecret, PRODUCT_INSTANCE_ID: s.productInstanceId, WEBHOOK_SECRET: SECRET };
  return startPartnerApp(
    {
      ...partnerSuiteEnv('setu', 'setu-recharge', emu.url, vars, 'recharge-commission'),
      SANGAM_PARTNER_TIMEOUT_MS: '2000', // a cold first call on a loaded machine can take over 700 ms
      SANGAM_RECONCILE_SCHEDULE: '2',
      SANGAM_RECONCILE_LEASE_S: '3', // an enquiry that found Setu down is asked again after this
      ...env,
    },
    { port },
  );
}

// Emulator lookup: d1 = 1 → jio; d2d3 = 04 → Maharashtra; d4 ≠ 9 → not ported; the last four steer the recharge.
const mobile = (suffix: string) => `910456${suffix}`;

describe('setu-recharge connector, end to end', () => {
  let emu: SetuRechargeEmulator;
  let t: PartnerApp;
  let fee = 0;

  partnerSuiteLife(async (port) => {
    emu = await startSetuRechargeEmulator({
      webhookUrl: `http://127.0.0.1:${port}/partners/setu/webhooks/${SECRET}`,
      pendingMs: 300,
      latencyMs: 0,
      webhookTimeScale: 0.005,
    });
    t = await startSetuApp(emu, port);
    fee = (await listFees(t.store.db)).find((f) => f.operation === 'recharge-commission')?.fee_paise ?? 0;
    return { emu, t };
  });

  const recharge = (body: Record<string, unknown>) => t.call('POST', PATHS.recharge, { key: t.liveKey, body });
  const { txOf, wallet, final } = liveReads(() => t);
  const rechargesOf = (txnId: string) => emu.recharges().filter((r) => r.input.paymentRefId === paymentRefIdOf(txnId));
  const checksOf = async (txnId: string) => (await t.store.db.selectFrom('transactions').select('checks').where('id', '=', txnId).executeTakeFirstOrThrow()).checks;
  const calls = async () => (await (await fetch(`${emu.url}/_sim/calls`)).json()) as Record<string, number>;
  const sim = (path: string, body: unknown) => fetch(`${emu.url}/_sim${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const webhook = (path: string, body: unknown, secret = SECRET) =>
    fetch(`${t.base}/partners/setu/webhooks/${secret}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  /** The transaction once it shows a reversal. */
  const reversedOf = (reference: string, timeoutMs: number) =>
    eventually(async () => {
      const x = await txOf(reference);
      return x.body.data.reversed_at && x;
    }, timeoutMs);
  const rechargeBodyOf = (suffix: string) => ({ ...VALID.recharge(), mobile: mobile(suffix), operator: 'JIO', circle: 'MH', amount: 199, idempotency_key: uuid() });

  conformance({
    kind: 'setu-recharge',
    app: () => t,
    path: PATHS.recharge,
    body: (steer) => rechargeBodyOf({ success: '1234', refusal: '0001', held: '0005' }[steer]),
    debit: () => 19900 - 398 + fee,
    refusalCharge: () => 0,
    refusalMessage: /Recharge failed at operator end/,
    madeAt: (txnId) => rechargesOf(txnId).length,
    setFaults: (f) => emu.setFaults(f),
    faults: {
      'error-after-work': { error_after_accept_next: 1, error_status: 503, drop_webhooks: true }, // ERR999 after executing
      'error-before-work': { error_next: 1, error_status: 500, scope: 'payment', drop_webhooks: true }, // ERR100 before executing
      'duplicate-webhooks': { duplicate_webhooks: true },
    },
    settle: async (txnId) => assert.equal((await sim(`/recharges/${paymentRefIdOf(txnId)}/settle`, { status: 'Successful' })).status, 200),
    forge: async (txnId) => {
      const rec = rechargesOf(txnId)[0]!;
      const claim = { transactionRefId: rec.transactionRefId, status: 'Successful', operatorRefId: 'FORGED0000', amount: '199.00', mobile_number: rec.input.mobile };
      const wrongSecret = await webhook('/payment/status', claim, 'not_the_secret_at_all_000000000000');
      const bare = await fetch(`${t.base}/partners/setu/webhooks/payment/status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(claim) });
      // Setu signs nothing: even the right URL claiming a success the status API does not show is refused (409, Setu retries).
      const unconfirmed = await webhook('/payment/status', claim);
      return [wrongSecret.status, bare.status, unconfirmed.status];
    },
    duplicatesDelivered: async (txnId) => {
      const ref = rechargesOf(txnId)[0]!.transactionRefId;
      const d = emu.webhookLog().filter((w) => w.ref === ref && w.url.endsWith('/payment/status') && w.status_code === 200);
      return d.length >= 2;
    },
    lost: 'pending-then-failed',
    lookupUnknown: async (missing) => assert.equal((await sim('/lookup', { missing })).status, 200),
    wrongCredentials: { start: (env) => startSetuApp(emu, null, { ...env, SANGAM_PARTNER_SETU_CLIENT_SECRET: 'wrong-secret' }), message: /Setu refused our client credentials \(HTTP 401\)/, secret: 'wrong-secret' },
    total: () => emu.recharges().length,
    afterSuccess: async (txnId, done) => {
      assert.equal(done.body.data.commission, 3.98);
      assert.equal(done.body.data.operator, 'JIO');
      const [rec, ...more] = rechargesOf(txnId);
      assert.equal(more.length, 0);
      assert.equal(rec!.input.paymentRefId, txnId.replace('_', ''));
      assert.equal(rec!.input.operator, 'jio');
      assert.equal(rec!.input.location, 'Maharashtra');
      assert.equal(rec!.input.amount, 19900);
      assert.equal(rec!.input.mode, 'Wallet');
      assert.equal(done.body.data.utr, rec!.operatorRefId);
    },
  });

  it('documented refusals inside the recharge (Invalid Amount, Insufficient Balance): failed, nothing charged', async () => {
    const before = await wallet();
    const odd = await recharge({ ...VALID.recharge(), mobile: mobile('2345'), circle: 'MH', amount: 10.5 });
    assert.equal(odd.body.data.status, 'failed');
    assert.match(odd.body.data.message, /Invalid Amount/);
    await sim('/wallet', { balance: 1000 });
    const poor = await recharge({ ...VALID.recharge(), mobile: mobile('2346'), circle: 'MH', amount: 199 });
    assert.equal(poor.body.data.status, 'failed');
    assert.match(poor.body.data.message, /Insufficient balance/i);
    await sim('/wallet', { balance: 5_000_000 });
    assert.deepEqual(await wallet(), before);
  });

  it('pending (0002) → success by the payment/status webhook, confirmed with the status API (no reconciler check)', async () => {
    const before = await wallet();
    const body = { ...VALID.recharge(), mobile: mobile('0002'), circle: 'MH', amount: 299 };
    const r = await recharge(body);
    assert.equal(r.body.statuscode, 'TUP');
    assert.equal(r.body.data.verified_at, null);
    const txnId = r.body.data.txn_id as string;
    const done = await final(body.reference_id, 5000);
    assert.equal(done.body.data.status, 'success');
    assert.equal(done.body.data.utr, rechargesOf(txnId)[0]!.operatorRefId);
    assert.equal(await checksOf(txnId), 0);
    const ref = rechargesOf(txnId)[0]!.transactionRefId;
    await eventually(async () => emu.webhookLog().some((w) => w.ref === ref && w.url.endsWith('/payment/status') && w.status_code === 200));
    assert.deepEqual(await wallet(), { balance: before.balance - (29900 - 598) - fee, held: 0 });
  });

  it('pending (0003) → failure by polling /recharge/status when webhooks are dropped; nothing charged', async () => {
    emu.setFaults({ drop_webhooks: true });
    const before = await wallet();
    const body = { ...VALID.recharge(), mobile: mobile('0003'), circle: 'MH' };
    const r = await recharge(body);
    assert.equal(r.body.statuscode, 'TUP');
    const done = await final(body.reference_id);
    assert.equal(done.body.data.status, 'failed');
    // Setu's /recharge/status types data.error as a string (its /recharge/request as an object): the reason is read from either.
    assert.match(done.body.data.message, /Recharge failed at Setu: Recharge failed at operator end/);
    const ref = rechargesOf(r.body.data.txn_id)[0]!.transactionRefId;
    assert.ok(emu.webhookLog().filter((w) => w.ref === ref).every((w) => w.outcome === 'dropped'));
    assert.ok(((await calls())['/recharge/status'] ?? 0) >= 1);
    assert.deepEqual(await wallet(), before);
  });

  it('a forged "Successful" webhook is not believed: the status API says Failure, and that is applied', async () => {
    emu.setFaults({ forged_success: true });
    const before = await wallet();
    const body = { ...VALID.recharge(), mobile: mobile('0003'), circle: 'MH' };
    const r = await recharge(body);
    const txnId = r.body.data.txn_id as string;
    const ref = rechargesOf(txnId)[0]!.transactionRefId;
    await eventually(async () => emu.webhookLog().some((w) => w.ref === ref && w.forged && w.status_code === 200));
    const done = await final(body.reference_id);
    assert.equal(done.body.data.status, 'failed');
    assert.equal(done.body.data.utr, null);
    assert.deepEqual(await wallet(), before);
  });

  it('REVERSED (0004, webhook only): stays success with reversed_at; the debit and the commission come back; transaction.reversed', async () => {
    const ep = await t.call('POST', '/api/v1/webhook-endpoints', { key: t.liveKey, body: { url: 'https://127.0.0.1:9/hooks' } });
    assert.equal(ep.status, 200, ep.text);
    const before = await wallet();
    const body = { ...VALID.recharge(), mobile: mobile('0004'), operator: 'JIO', circle: 'MH', amount: 199 };
    const r = await recharge(body);
    assert.equal(r.body.data.status, 'success');
    const txnId = r.body.data.txn_id as string;
    assert.deepEqual(await wallet(), { balance: before.balance - (19900 - 398) - fee, held: 0 });
    const done = await reversedOf(body.reference_id, 8000);
    assert.equal(done.body.data.status, 'success');
    assert.match(done.body.data.reversal_reason, /reversed/i);
    assert.deepEqual(await wallet(), before);
    const events = await t.store.db.selectFrom('webhook_events').select(['type']).where('txn_id', '=', txnId).execute();
    assert.ok(events.some((e) => e.type === 'transaction.reversed'), JSON.stringify(events));
    // the same reversal again (Setu retries) returns nothing twice
    const rec = rechargesOf(txnId)[0]!;
    const again = await webhook('/payment/reversal', { transactionRefId: rec.transactionRefId, status: 'REVERSED', amount: '199.00', mobile_number: body.mobile, provider: 'Jio' });
    assert.equal(again.status, 200);
    assert.deepEqual(await wallet(), before);
    await t.call('DELETE', `/api/v1/webhook-endpoints/${ep.body.data.id}`, { key: t.liveKey });
  });

  it('a recharge erased (POST /api/v1/erasures) and then reversed by the operator still gets its refund: the erasure keeps what a refund is credited against', async () => {
    const before = await wallet();
    const body = rechargeBodyOf('1234');
    const r = await recharge(body);
    assert.equal(r.body.data.status, 'success', r.text);
    const txnId = r.body.data.txn_id as string;
    const erased = await t.call('POST', '/api/v1/erasures', { key: t.liveKey, body: { reference_id: body.reference_id } });
    assert.equal(erased.status, 200, erased.text);
    assert.equal((await txOf(body.reference_id)).body.data.operator, undefined, 'the content is erased');
    assert.equal((await sim(`/recharges/${paymentRefIdOf(txnId)}/settle`, { status: 'REVERSED' })).status, 200);
    const done = await reversedOf(body.reference_id, 8000);
    assert.equal(done.body.data.status, 'success');
    assert.deepEqual(await wallet(), before, 'the debit and the commission came back');
  });

  it('webhooks naming our request’s refId (the other reading of Setu’s “reference from the original recharge request”): the status and the REVERSED are applied', async () => {
    assert.equal((await sim('/webhook-reference', { field: 'refId' })).status, 200);
    try {
      const before = await wallet();
      const pending = { ...VALID.recharge(), mobile: mobile('0002'), circle: 'MH', amount: 199 };
      const p = await recharge(pending);
      assert.equal(p.body.statuscode, 'TUP', p.text);
      assert.equal((await final(pending.reference_id, 5000)).body.data.status, 'success');
      assert.equal(await checksOf(p.body.data.txn_id), 0, 'settled by its webhook, not by the reconciler');
      const body = { ...VALID.recharge(), mobile: mobile('0004'), operator: 'JIO', circle: 'MH', amount: 199 };
      const r = await recharge(body);
      assert.equal(r.body.data.status, 'success', r.text);
      const rec = rechargesOf(r.body.data.txn_id)[0]!;
      await eventually(async () => emu.webhookLog().some((w) => w.ref === rec.transactionRefId && w.url.endsWith('/payment/reversal') && w.status_code === 200), 8000);
      assert.equal(emu.webhookLog().find((w) => w.ref === rec.transactionRefId && w.url.endsWith('/payment/reversal'))!.body?.transactionRefId, rec.input.paymentRefId);
      assert.ok((await txOf(body.reference_id)).body.data.reversed_at, 'the reversal was applied');
      assert.deepEqual(await wallet(), { balance: before.balance - (19900 - 398) - fee, held: 0 }, 'only the first recharge stays charged');
    } finally {
      await sim('/webhook-reference', { field: 'transactionRefId' });
    }
  });

  it('a REVERSED webhook that cannot be confirmed at once (status API down) is parked (202), then confirmed by the recheck and posted once', async () => {
    const before = await wallet();
    const body = { ...VALID.recharge(), mobile: mobile('3458'), circle: 'MH', amount: 59 };
    const r = await recharge(body);
    assert.equal(r.body.data.status, 'success', r.text);
    const txnId = r.body.data.txn_id as string;
    const rec = rechargesOf(txnId)[0]!;
    emu.setFaults({ error_next: 1000, error_status: 503, scope: 'any' }); // Setu's API is down
    const w = await webhook('/payment/reversal', { transactionRefId: rec.transactionRefId, status: 'REVERSED', amount: '59.00', mobile_number: body.mobile, provider: 'Airtel', failureReason: 'Transaction reversed by operator' });
    assert.equal(w.status, 202, await w.clone().text());
    assert.equal(((await w.json()) as { parked: boolean }).parked, true);
    assert.equal((await txOf(body.reference_id)).body.data.reversed_at, undefined, 'not applied before it is confirmed');
    // The recheck the park asked for reaches Setu while it is still down (whenever the reconciler runs
    // it); it is asked again when its lease runs out, and that time Setu answers.
    const asked = (await calls())['/recharge/status'] ?? 0;
    await eventually(async () => ((await calls())['/recharge/status'] ?? 0) > asked, 15_000);
    assert.equal((await txOf(body.reference_id)).body.data.reversed_at, undefined, 'a failed recheck applies nothing');
    emu.setFaults({}); // Setu's API is back
    const done = await reversedOf(body.reference_id, 30_000);
    assert.equal(done.body.data.status, 'success');
    assert.deepEqual(await wallet(), before, 'the debit and the commission came back, once');
  });

  it('unsigned webhooks are safe: a reversal to the wrong secret 401, unknown reference 404, a reversal not matching the recharge is not applied', async () => {
    const before = await wallet();
    const body = { ...VALID.recharge(), mobile: mobile('3456'), circle: 'MH', amount: 49 };
    const r = await recharge(body);
    assert.equal(r.body.data.status, 'success');
    const txnId = r.body.data.txn_id as string;
    const rec = rechargesOf(txnId)[0]!;
    const reversal = { transactionRefId: rec.transactionRefId, status: 'REVERSED', amount: '49.00', mobile_number: body.mobile, provider: 'Jio', timestamp: '2026-01-09T11:56:26+05:30' };
    assert.equal((await webhook('/payment/reversal', reversal, 'not_the_secret_at_all_000000000000')).status, 401);
    assert.equal((await webhook('/payment/reversal', { ...reversal, transactionRefId: 'CYJSTPM00000000' })).status, 404);
    const wrongAmount = await webhook('/payment/reversal', { ...reversal, amount: '4900.00' });
    assert.equal(wrongAmount.status, 200);
    assert.equal(((await wrongAmount.json()) as { applied: unknown }).applied, false);
    const wrongMobile = await webhook('/payment/reversal', { ...reversal, mobile_number: '9999999999' });
    assert.equal(((await wrongMobile.json()) as { applied: unknown }).applied, false);
    const charged = { balance: before.balance - (4900 - 98) - fee, held: 0 };
    assert.deepEqual(await wallet(), charged);
    assert.equal((await txOf(body.reference_id)).body.data.reversed_at ?? null, null);
    // the secret segment never reaches a log line
    assert.equal(redactUrl(`/partners/setu/webhooks/${SECRET}/payment/reversal`), '/partners/setu/webhooks/[secret]/payment/reversal');
    // wallet notifications are acknowledged
    assert.equal((await webhook('/wallet/low-balance', { event: 'wallet.low_balance', balance: '900.00' })).status, 200);
  });

  it('operator lookup (live): our codes, ported flag, cached — the second call does not reach Setu', async () => {
    const before = (await calls())['/fetch-operator-details'] ?? 0;
    const a = await t.call('GET', '/api/v1/mobile-recharge/operator-lookup?mobile=9876543210', { key: t.liveKey });
    assert.equal(a.status, 200, a.text);
    assert.deepEqual(a.body.data, { mobile: '9876543210', operator: 'VI', circle: 'MH', ported: false });
    const again = await t.call('GET', '/api/v1/mobile-recharge/operator-lookup?mobile=9876543210', { key: t.liveKey });
    assert.deepEqual(again.body.data, a.body.data);
    const ported = await t.call('GET', '/api/v1/mobile-recharge/operator-lookup?mobile=9876943210', { key: t.liveKey });
    assert.deepEqual(ported.body.data, { mobile: '9876943210', operator: 'JIO', circle: 'MH', ported: true });
    assert.equal((await calls())['/fetch-operator-details'], before + 2);
  });

  it('plans (live): amounts in INR, our categories, BSNL split into Topup and Special; cached', async () => {
    const before = (await calls())['/fetch-plans'] ?? 0;
    const at = await t.call('GET', '/api/v1/mobile-recharge/plans?operator=AT&circle=KA', { key: t.liveKey });
    assert.equal(at.status, 200, at.text);
    const plans = at.body.data.plans as Array<{ amount: number; validity: string; description: string; category: string }>;
    assert.ok(plans.some((p) => p.amount === 10 && p.category === 'talktime' && p.validity === 'no expiry'));
    assert.ok(plans.some((p) => p.amount === 299 && p.category === 'unlimited' && p.validity === '28 days'));
    assert.ok(plans.some((p) => p.amount === 19 && p.category === 'data'));
    assert.ok(plans.some((p) => p.amount === 151 + 2 * 7), 'the Karnataka circle plan'); // Karnataka is circle #7
    await t.call('GET', '/api/v1/mobile-recharge/plans?operator=AT&circle=KA', { key: t.liveKey });
    const bs = await t.call('GET', '/api/v1/mobile-recharge/plans?operator=BS&circle=KL', { key: t.liveKey });
    const bt = await t.call('GET', '/api/v1/mobile-recharge/plans?operator=BT&circle=KL', { key: t.liveKey });
    assert.ok(bs.body.data.plans.length > 0 && bs.body.data.plans.every((p: { amount: number }) => [107, 197, 397, 151 + 2 * 9].includes(p.amount)), bs.text);
    assert.deepEqual(bt.body.data.plans.map((p: { amount: number }) => p.amount).sort((x: number, y: number) => x - y), [10, 50]);
    assert.equal((await calls())['/fetch-plans'], before + 3);
  });

  it('a recharge without operator and circle: looked up live, data.operator says which; recharged in Setu’s circle', async () => {
    const body = { ...VALID.recharge(), mobile: mobile('4567'), amount: 199 };
    delete (body as { operator?: string }).operator;
    const r = await recharge(body);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.status, 'success');
    assert.equal(r.body.data.operator, 'JIO');
    assert.equal(r.body.data.circle, 'MH');
    assert.equal(r.body.data.commission, 3.98);
    assert.equal(rechargesOf(r.body.data.txn_id)[0]!.input.location, 'Maharashtra');
  });

  it('unmapped operator (mtnl) or circle (Uttaranchal): a clear 502 naming it, nothing debited, never a guess', async () => {
    const before = await wallet();
    const mtnl = await t.call('GET', '/api/v1/mobile-recharge/operator-lookup?mobile=9868012345', { key: t.liveKey });
    assert.equal(mtnl.status, 502, mtnl.text);
    assert.equal(mtnl.body.data.Errorcode, 113);
    assert.match(mtnl.body.data.Message, /operator "mtnl"/);
    const ua = await t.call('GET', '/api/v1/mobile-recharge/operator-lookup?mobile=9823012345', { key: t.liveKey });
    assert.equal(ua.status, 502);
    assert.match(ua.body.data.Message, /circle "Uttaranchal"/);
    const count = emu.recharges().length;
    const body = { ...VALID.recharge(), mobile: '9868012345', amount: 199 };
    delete (body as { operator?: string }).operator;
    const r = await recharge(body);
    assert.equal(r.status, 502, r.text);
    assert.match(r.body.data.Message, /mtnl/);
    assert.equal(emu.recharges().length, count);
    assert.deepEqual(await wallet(), before);
  });

  for (const [name, faults] of [
    ['a read timeout while Setu is still working', { timeout_next: 1, timeout_ms: 3000, scope: 'payment' as const }],
  ] as const) {
    it(`no answer (${name}): TUP, settled by the status enquiry; one recharge, charged once`, async () => {
      emu.setFaults({ ...faults, drop_webhooks: true });
      const before = await wallet();
      const body = { ...VALID.recharge(), mobile: mobile('5678'), circle: 'MH', amount: 99 };
      const r = await recharge(body);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.statuscode, 'TUP');
      const txnId = r.body.data.txn_id as string;
      const done = await final(body.reference_id, 12000);
      assert.equal(done.body.data.status, 'success', done.text);
      await sleep('timeout_ms' in faults ? faults.timeout_ms : 0); // the hung request lands as a refused duplicate
      assert.equal(rechargesOf(txnId).length, 1);
      assert.equal(done.body.data.utr, rechargesOf(txnId)[0]!.operatorRefId);
      assert.deepEqual(await wallet(), { balance: before.balance - (9900 - 198) - fee, held: 0 });
    });
  }

  it('an expired token: the 401 is followed by a fresh login and the call succeeds', async () => {
    const issued = (await calls()).tokens_issued ?? 0;
    await sim('/tokens/expire', {});
    const r = await recharge({ ...VALID.recharge(), mobile: mobile('6789'), circle: 'MH' });
    assert.equal(r.body.data.status, 'success', r.text);
    assert.equal((await calls()).tokens_issued, issued + 1);
  });

  for (const [name, env, message] of [
    // Setu's OpenAPI shows ERR009 as the HTTP 500 example of /recharge/request: a refusal all the same, never "may have acted".
    ['wrong product instance (ERR009 under HTTP 500)', { SANGAM_PARTNER_SETU_PRODUCT_INSTANCE_ID: '00000000-0000-0000-0000-000000000000' }, /HTTP 500: Invalid product instance id\); nothing was executed or debited/],
  ] as const) {
    it(`${name}: a 502 that says so, nothing debited`, async () => {
      const bad = await startSetuApp(emu, null, env);
      try {
        const before = (await bad.call('GET', '/api/v1/account/wallet', { key: bad.liveKey })).body.data;
        const count = emu.recharges().length;
        const r = await bad.call('POST', PATHS.recharge, { key: bad.liveKey, body: { ...VALID.recharge(), mobile: mobile('7890'), circle: 'MH' } });
        assert.equal(r.status, 502, r.text);
        assert.equal(r.body.data.Errorcode, 113);
        assert.match(r.body.data.Message, message);
        assert.doesNotMatch(r.text, /wrong-secret|setu-recharge-emulator-secret/);
        assert.equal(emu.recharges().length, count);
        assert.deepEqual((await bad.call('GET', '/api/v1/account/wallet', { key: bad.liveKey })).body.data, before);
        await assertLedgerHolds(bad.store.db);
      } finally {
        await bad.close();
      }
    });
  }
});

describe('setu-recharge transformers and factory', () => {
  it('maps Setu’s operators and circles to ours; an unmapped one is a PartnerError naming it', () => {
    assert.deepEqual(lookupOf({ current_operator: 'airtel', current_location: 'West Bengal & AN Island', ported: false }), { operator: 'AT', circle: 'WB', ported: false });
    assert.deepEqual(lookupOf({ current_operator: 'bsnl', current_location: 'J&K', ported: true }), { operator: 'BT', circle: 'JK', ported: true });
    assert.throws(() => lookupOf({ current_operator: 'mtnl', current_location: 'Delhi' }), (e: Error) => e instanceof PartnerError && /"mtnl"/.test(e.message));
    for (const c of ['Uttaranchal', 'All', 'IND', 'toString']) {
      assert.throws(() => lookupOf({ current_operator: 'jio', current_location: c }), (e: Error) => e instanceof PartnerError && e.message.includes(`"${c}"`));
    }
  });

  it('statuses: Successful/REVERSED success, Failure failed, anything else pending', () => {
    assert.equal(statusOf('Successful'), 'success');
    assert.equal(statusOf('REVERSED'), 'success');
    assert.equal(statusOf('Failure'), 'failed');
    for (const s of ['Processing', 'SUCCESSFUL', 'Pending', '', undefined]) assert.equal(statusOf(s), 'pending');
  });

  it('the payment reference is our id without its underscore, and maps back', () => {
    assert.equal(paymentRefIdOf('txn_Ab12Cd34Ef56Gh78Ij90'), 'txnAb12Cd34Ef56Gh78Ij90');
    assert.equal(txnIdOfPaymentRef('txnAb12Cd34Ef56Gh78Ij90'), 'txn_Ab12Cd34Ef56Gh78Ij90');
    assert.equal(txnIdOfPaymentRef('TEST6291DD4004750702202402'), null);
  });

  it('plans: rows without a usable amount are skipped; annual by validity', () => {
    const p = plansOf([{ amount: 359900, plan_name: 'Unlimited', plan_description: 'x', validity: '365 Days' }, { amount: 'x' }, null], 'AT');
    assert.deepEqual(p, [{ amountPaise: 359900, validity: '365 days', description: 'x', category: 'annual' }]);
  });

  it('the factory names the full variable that is missing or malformed', () => {
    const ctx = (vars: Record<string, string>) => factoryContext('setu', vars);
    const all = { TOKEN_URL: 'http://127.0.0.1:1/v1/users/login', CLIENT_ID: 'c', CLIENT_SECRET: 's', PRODUCT_INSTANCE_ID: 'p', WEBHOOK_SECRET: SECRET };
    for (const v of Object.keys(all)) {
      const { [v]: _, ...rest } = all as Record<string, string>;
      assert.throws(() => createSetuRecharge(ctx(rest)), new RegExp(`SANGAM_PARTNER_SETU_${v} is required`));
    }
    assert.throws(() => createSetuRecharge(ctx({ ...all, WEBHOOK_SECRET: 'short' })), /SANGAM_PARTNER_SETU_WEBHOOK_SECRET must be/);
    assert.throws(() => createSetuRecharge(ctx({ ...all, PAYMENT_MODE: 'Cash' })), /SANGAM_PARTNER_SETU_PAYMENT_MODE must be/);
    void createSetuRecharge(ctx(all)).close?.();
  });
});
