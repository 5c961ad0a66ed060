// Float reconciliation (issue #37 item 2; docs/RELIABILITY.md, "Float reconciliation"), end to end
// against the Setu prepaid emulator: its wallet moves as Setu's does (a recharge debits it, a failure or a
// reversal credits it back) and GET /wallet/balance answers in Setu's documented shape (validated against
// Setu's own OpenAPI, docs/partners/setu-recharge/). A reversal whose every webhook is dropped is found by
// the float check — the balance is more than Sangam's books — and becomes an item of "Needs attention"
// naming that recharge; a maker proposes its reversal, a different checker approves it, it posts exactly
// once and the ledger holds. A balance that agrees raises nothing; a recorded funding raises nothing; an
// unexplained drift is adjusted (maker-checker) or dismissed. The float check is ticked by hand.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { runCommand } from '../src/admin/run.js';
import { members, subsetsSumming } from '../src/float/candidates.js';
import type { FloatOutcome } from '../src/float/check.js';
import { startSetuRechargeEmulator, type SetuRechargeEmulator } from '../partner-sim/setu-recharge/index.js';
import { paymentRefIdOf } from '../src/providers/setu/transformers.js';
import { walletBalanceOf } from '../src/providers/setu-recharge/transformers.js';
import { eventually, PATHS, uuid, VALID } from './harness.js';
import { liveReads, partnerSuiteEnv, partnerSuiteLife, startPartnerApp, type PartnerApp } from './live-harness.js';

const SECRET = 'setu_float_webhook_path_secret_for_tests';
const ADMINS = { maker: 'float-maker@sangam.test', checker: 'float-checker@sangam.test' };
const SPEC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/partners/setu-recharge/mobile-prepaid-recharge.json');
const WALLET = 5_000_000;

// Emulator lookup: d1 = 1 → jio; d2d3 = 04 → Maharashtra; the last four steer the recharge (0004: reversed later).
const mobile = (suffix: string) => `910456${suffix}`;

describe('float reconciliation: the Setu prepaid wallet against Sangam\'s books', () => {
  let emu: SetuRechargeEmulator;
  let t: PartnerApp;

  partnerSuiteLife(async (port) => {
    emu = await startSetuRechargeEmulator({ webhookUrl: `http://127.0.0.1:${port}/partners/setu/webhooks/${SECRET}`, pendingMs: 200, latencyMs: 0, webhookTimeScale: 0.005, walletPaise: WALLET });
    const s = emu.settings;
    const vars = { TOKEN_URL: `${emu.url}/v1/users/login`, CLIENT_ID: s.clientId, CLIENT_SECRET: s.clientSecret, PRODUCT_INSTANCE_ID: s.productInstanceId, WEBHOOK_SECRET: SECRET };
    t = await startPartnerApp(
      {
        ...partnerSuiteEnv('setu', 'setu-recharge', emu.url, vars, 'recharge-commission'),
        SANGAM_PARTNER_TIMEOUT_MS: '2000',
        SANGAM_FLOAT_CHECK_MS: '3600000', // ticked by hand
        SANGAM_FLOAT_CONFIRM_CHECKS: '2',
      },
      { port },
    );
    for (const email of Object.values(ADMINS)) assert.equal((await cli('users', 'create', '--email', email, '--password', 'admin pass 1', '--admin')).code, 0);
    assert.equal((await cli('float', 'opening', '--partner', 'setu', '--amount', String(WALLET / 100), '--memo', 'Setu dashboard')).code, 0);
    return { emu, t };
  });

  const cli = (...argv: string[]) => runCommand(t.store.db, argv, { settlement: async () => t.services.settlement });
  const { wallet } = liveReads(() => t);
  const recharge = (suffix: string, amount: number) =>
    t.call('POST', PATHS.recharge, { key: t.liveKey, body: { ...VALID.recharge(), mobile: mobile(suffix), operator: 'JIO', circle: 'MH', amount, idempotency_key: uuid() } });
  const sim = (p: string, body: unknown) => fetch(`${emu.url}/_sim${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const setu = async () => (await t.float.tick()).find((o) => o.partner === 'setu')!;
  const openItems = () => t.store.db.selectFrom('float_drifts').selectAll().where('state', '=', 'open').execute();
  const metric = async (name: string) => {
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    const line = text.split('\n').find((l) => l.startsWith(`${name}{partner="setu"}`));
    return line === undefined ? undefined : Number(line.split(' ').at(-1));
  };
  /** Two checks in a row (a drift needs two to become an item); the second's outcome. */
  const twice = async (): Promise<FloatOutcome> => (await setu(), setu());

  it("the emulator's GET /wallet/balance answers in Setu's documented shape, and the connector reads it in paise", async () => {
    const spec = JSON.parse(readFileSync(SPEC, 'utf8')) as { paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: object }> }> }>> };
    const schema = spec.paths['/wallet/balance']!.get!.responses['200']!.content['application/json']!.schema;
    const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
    const s = emu.settings;
    const login = await fetch(`${emu.url}/v1/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ClientID: s.clientId, Secret: s.clientSecret, grant_type: 'client_credentials' }) });
    const token = ((await login.json()) as { access_token: string }).access_token;
    await sim('/wallet', { balance: 150_075 }); // ₹1,500.75, the spec's example
    const r = await fetch(`${emu.url}/wallet/balance`, { headers: { authorization: `Bearer ${token}`, 'x-product-instance-id': s.productInstanceId } });
    assert.equal(r.status, 200);
    const body = (await r.json()) as { data: { balance: number; currency: string } };
    assert.ok(validate(body), JSON.stringify(validate.errors));
    assert.deepEqual(body.data, { balance: 1500.75, currency: 'INR' });
    const [account] = t.services.partners!.floats();
    assert.equal(account?.partner, 'setu');
    assert.equal((await account!.balance()).balancePaise, 150_075);
    await sim('/wallet', { balance: WALLET });
    // Exactly, or not at all: a balance with a third decimal is no amount in paise.
    assert.equal(walletBalanceOf({ data: { balance: 12.345, currency: 'INR' } }), null);
    assert.equal(walletBalanceOf({ data: { balance: 0.1 + 0.2, currency: 'INR' } }), 30);
    assert.equal(walletBalanceOf({ data: { balance: 10, currency: 'USD' } }), null);
  });

  it('no drift, no item: successes and failures move the wallet as they move the books', async () => {
    const ok = await recharge('1234', 199);
    assert.equal(ok.body.data.status, 'success', ok.text);
    const failed = await recharge('0001', 149);
    assert.equal(failed.body.data.status, 'failed');
    assert.equal(emu.recharges().find((x) => x.input.paymentRefId === paymentRefIdOf(ok.body.data.txn_id))?.debited, true);
    const o = await twice();
    assert.equal(o.state, 'balanced', JSON.stringify(o));
    assert.deepEqual(await openItems(), []);
    assert.equal(await metric('sangam_float_drift_paise'), 0);
    const spends = await t.store.db.selectFrom('float_movements').select(['kind', 'amount_paise', 'txn_id']).where('kind', '=', 'spend').execute();
    assert.deepEqual(spends, [{ kind: 'spend', amount_paise: -19900, txn_id: ok.body.data.txn_id }], 'the success is spent once, the failure never');
  });

  it('a funding recorded raises nothing; one not recorded is a drift until it is', async () => {
    assert.equal((await sim('/wallet/topup', { amount: 100_000 })).status, 200);
    assert.equal((await cli('float', 'fund', '--partner', 'setu', '--amount', '1000', '--memo', 'NEFT UTR 1234')).code, 0);
    assert.equal((await twice()).state, 'balanced');
    assert.deepEqual(await openItems(), []);
    // Topped up at Setu, not recorded: a drift, confirmed by the second check, with nothing to reverse.
    await sim('/wallet/topup', { amount: 50_000 });
    const first = await setu();
    assert.equal(first.state === 'drift' && first.item, null, 'one check is not enough');
    const o = await setu();
    assert.ok(o.state === 'drift' && o.item && o.drift === 50_000, JSON.stringify(o));
    const [item] = await openItems();
    assert.equal(item?.drift_paise, 50_000);
    assert.deepEqual(item?.candidates.sets, []);
    assert.match(String(item?.candidates.note), /no statement/);
    assert.equal(await metric('sangam_float_open_drifts'), 1);
    const summary = (await cli('attention', 'list')).output as { counts: { float: number; total: number } };
    assert.equal(summary.counts.float, 1, 'the drift is counted in Needs attention');
    assert.equal((await cli('float', 'fund', '--partner', 'setu', '--amount', '500')).code, 0);
    const cleared = await setu();
    assert.ok(cleared.state === 'balanced' && cleared.cleared === item!.id, JSON.stringify(cleared));
    assert.deepEqual(await openItems(), []);
  });

  it('a reversal whose every webhook is dropped is found by the float check; resolved maker-checker, it posts exactly once', async () => {
    emu.setFaults({ drop_webhooks: true });
    const before = await wallet();
    const r = await recharge('0004', 199);
    assert.equal(r.body.data.status, 'success', r.text);
    const txnId = r.body.data.txn_id as string;
    const rec = () => emu.recharges().find((x) => x.input.paymentRefId === paymentRefIdOf(txnId))!;
    await eventually(async () => rec().reversed);
    await eventually(async () => emu.webhookLog().filter((w) => w.ref === rec().transactionRefId && w.url.endsWith('/payment/reversal')).length > 0);
    assert.ok(emu.webhookLog().filter((w) => w.ref === rec().transactionRefId).every((w) => w.outcome === 'dropped'), 'every webhook dropped');
    assert.ok((await wallet()).balance < before.balance, 'the client paid for it, and nothing told Sangam of the reversal');

    const o = await twice();
    assert.ok(o.state === 'drift' && o.drift === 19_900 && o.item, JSON.stringify(o));
    assert.equal(await metric('sangam_float_drift_paise'), 19_900);
    const shown = await cli('float', 'show', o.item);
    assert.equal(shown.code, 0);
    const page = shown.output as { drift: { candidates: { sets: string[][]; transactions: Array<{ txn_id: string }> } } };
    assert.deepEqual(page.drift.candidates.sets[0], [txnId], 'the reversed recharge explains the drift alone');
    assert.ok(page.drift.candidates.transactions.some((c) => c.txn_id === txnId));

    // Only a candidate can be proposed; the maker cannot approve their own; the checker can, once.
    const other = await cli('float', 'propose', o.item, '--action', 'reversal', '--txn', 'txn_notacandidate0000000', '--reason', 'x', '--evidence', 'y', '--as', ADMINS.maker);
    assert.equal(other.code, 2, JSON.stringify(other.output));
    const proposed = await cli('float', 'propose', o.item, '--action', 'reversal', '--txn', txnId, '--reason', 'Setu statement shows the reversal', '--evidence', 'Setu support ticket 4411', '--as', ADMINS.maker);
    assert.equal(proposed.code, 0, JSON.stringify(proposed.output));
    const resolution = (proposed.output as { resolution: { id: string; state: string } }).resolution;
    assert.equal(resolution.state, 'proposed');
    assert.equal((await cli('float', 'status')).code, 0);
    const own = await cli('attention', 'approve', resolution.id, '--as', ADMINS.maker);
    assert.equal(own.output.status, 403);
    assert.equal((await cli('attention', 'approve', resolution.id, '--as', ADMINS.checker)).code, 0);
    const again = await cli('attention', 'approve', resolution.id, '--as', ADMINS.checker);
    assert.notEqual(again.code, 0, 'applied once');

    const tx = await t.store.db.selectFrom('transactions').select(['status', 'result']).where('id', '=', txnId).executeTakeFirstOrThrow();
    assert.equal(tx.status, 'success');
    assert.ok((tx.result as { reversed_at?: string }).reversed_at);
    assert.deepEqual(await wallet(), before, "the client's debit came back, once");
    // Setu's webhook, had it come late after all, changes nothing more.
    emu.setFaults({});
    const late = await fetch(`${t.base}/partners/setu/webhooks/${SECRET}/payment/reversal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ transactionRefId: rec().transactionRefId, status: 'REVERSED', amount: '199.00', mobile_number: rec().input.mobile, provider: 'Jio' }),
    });
    assert.equal(late.status, 200);
    assert.deepEqual(await wallet(), before);

    const cleared = await setu();
    assert.ok(cleared.state === 'balanced' && cleared.cleared === o.item, JSON.stringify(cleared));
    const reversals = await t.store.db.selectFrom('float_movements').select('amount_paise').where('kind', '=', 'reversal').where('txn_id', '=', txnId).execute();
    assert.deepEqual(reversals, [{ amount_paise: 19_900 }]);
    assert.equal(await metric('sangam_float_drift_paise'), 0);
    const ledger = await cli('ledger', 'check');
    assert.equal(ledger.code, 0, JSON.stringify(ledger.output));
  });

  it('an unexplained drift: an adjustment waits for a second admin; a dismissal closes it and the same drift does not reopen', async () => {
    await sim('/wallet/topup', { amount: 700 });
    const o = await twice();
    assert.ok(o.state === 'drift' && o.item, JSON.stringify(o));
    const bad = await cli('float', 'propose', o.item, '--action', 'adjustment', '--reason', 'bank charge', '--evidence', 'statement', '--as', ADMINS.maker);
    assert.equal(bad.code, 2, 'an adjustment needs an amount');
    const p = await cli('float', 'propose', o.item, '--action', 'adjustment', '--amount=7', '--reason', 'cashback credited by Setu', '--evidence', 'statement line 12', '--as', ADMINS.maker);
    assert.equal(p.code, 0, JSON.stringify(p.output));
    const id = (p.output as { resolution: { id: string } }).resolution.id;
    assert.equal((await cli('float', 'approve', id, '--as', ADMINS.maker)).output.status, 403);
    assert.equal((await cli('float', 'approve', id, '--as', ADMINS.checker)).code, 0);
    assert.deepEqual(await openItems(), []);
    assert.equal((await setu()).state, 'balanced');
    const movement = await t.store.db.selectFrom('float_movements').select(['amount_paise', 'recorded_by']).where('kind', '=', 'adjustment').executeTakeFirstOrThrow();
    assert.deepEqual(movement, { amount_paise: 700, recorded_by: `${ADMINS.maker} + ${ADMINS.checker}` });
    await assert.rejects(t.store.db.updateTable('float_movements').set({ recorded_by: 'x' }).execute(), /append-only/);

    // Setu took 3 rupees we cannot explain: no failed recharge is that amount.
    const now = ((await (await fetch(`${emu.url}/_sim/wallet`)).json()) as { balance: number }).balance;
    await sim('/wallet', { balance: now - 300 });
    const d = await twice();
    assert.ok(d.state === 'drift' && d.item && d.drift === -300, JSON.stringify(d));
    const dismissed = await cli('float', 'propose', d.item, '--action', 'dismiss', '--reason', 'Setu platform fee, booked by finance', '--as', ADMINS.maker);
    assert.equal(dismissed.code, 0, JSON.stringify(dismissed.output));
    assert.deepEqual(await openItems(), []);
    const after = await twice();
    assert.ok(after.state === 'drift' && after.item === null, 'the same drift does not reopen');
    const audit = await t.store.db.selectFrom('audit_logs').select('path').where('path', 'like', 'float %').execute();
    for (const step of ['float opening', 'float fund', 'float propose', 'float approve', 'float apply']) assert.ok(audit.some((a) => a.path === step), step);
    // Re-anchored at the balance Setu shows: nothing to look at any more.
    assert.equal((await cli('float', 'opening', '--partner', 'setu', '--amount', String((now - 300) / 100))).code, 0);
    assert.equal((await setu()).state, 'balanced');
  });

  it('the console shows the floats and records a funding through the same action (admins only)', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/console/api/login', payload: { email: ADMINS.maker, password: 'admin pass 1' } });
    assert.equal(login.statusCode, 200, login.body);
    const headers = { cookie: String(login.headers['set-cookie']).split(';')[0]!, 'x-csrf-token': (JSON.parse(login.body) as { data: { csrf_token: string } }).data.csrf_token };
    await setu();
    const page = await t.app.inject({ method: 'GET', url: '/console/api/admin/float', headers });
    assert.equal(page.statusCode, 200, page.body);
    const data = (JSON.parse(page.body) as { data: { partners: Array<{ partner: string; drift_paise: number }> } }).data;
    assert.equal(data.partners.find((p) => p.partner === 'setu')?.drift_paise, 0);
    const bad = await t.app.inject({ method: 'POST', url: '/console/api/admin/float/funding', headers, payload: { partner: 'setu', amount_paise: -5 } });
    assert.equal(bad.statusCode, 422, bad.body);
    assert.equal((JSON.parse(bad.body) as { data: { errors: Array<{ field: string }> } }).data.errors[0]?.field, 'amount');
    const ok = await t.app.inject({ method: 'POST', url: '/console/api/admin/float/funding', headers, payload: { partner: 'setu', amount_paise: 2500, memo: 'UTR 99' } });
    assert.equal(ok.statusCode, 200, ok.body);
    await sim('/wallet/topup', { amount: 2500 });
    assert.equal((await twice()).state, 'balanced');
    const fund = await t.store.db.selectFrom('audit_logs').select('request_body').where('path', '=', 'float fund').orderBy('id', 'desc').executeTakeFirstOrThrow();
    assert.equal((fund.request_body as { actor: string }).actor, `console:${ADMINS.maker}`);
  });

  it('a balance that cannot be read concludes nothing and is kept as the check\'s error', async () => {
    emu.setFaults({ error_next: 1000, error_status: 503, scope: 'any' });
    const o = await setu();
    assert.equal(o.state, 'unreadable');
    const status = (await cli('float', 'status')).output as { partners: Array<{ partner: string; error: string | null }> };
    assert.match(String(status.partners.find((p) => p.partner === 'setu')?.error), /wallet balance/);
    emu.setFaults({});
    assert.equal((await setu()).state, 'balanced');
  });
});

describe('float candidates: the bounded subset sum', () => {
  it('finds single matches before pairs, pairs before triples, and says when the search was cut', () => {
    assert.deepEqual(subsetsSumming([500, 300, 200, 700], 500).sets, [[0], [1, 2]]);
    assert.deepEqual(subsetsSumming([100, 250, 400], 750), { sets: [[0, 1, 2]], exhaustive: true });
    assert.deepEqual(subsetsSumming([100, 200], 50), { sets: [], exhaustive: true });
    const many = Array.from({ length: 60 }, (_, i) => (i + 1) * 100);
    const cut = subsetsSumming(many, 15_000, { maxSize: 6, maxNodes: 1000, maxSets: 1000 });
    assert.equal(cut.exhaustive, false);
    const capped = subsetsSumming(Array.from({ length: 40 }, () => 100), 200, { maxSize: 6, maxNodes: 1_000_000, maxSets: 5 });
    assert.equal(capped.sets.length, 5);
    assert.equal(capped.exhaustive, false);
    // Membership is complete whatever the bounds: 900 and 250 belong to no subset summing to 1000 here.
    assert.deepEqual(members([500, 300, 200, 900, 250], 1000), [true, true, true, false, false]);
    assert.deepEqual(members([1000, 2000, 3000], 3000), [true, true, true]);
    assert.deepEqual(members([150, 250], 100), [false, false]);
    assert.equal(members([1, 2], 10_000_000), null, 'too many sums: not computed');
  });
});
