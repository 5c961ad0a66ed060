// Nothing left stuck (issue #21), through the HTTP surface against two partner simulator processes:
// a pending past its partner's expectation is overdue (metric, one warn line, the console queue); a
// transaction's page shows its whole partner history; a resolution that moves money needs a second
// admin (never its maker), moves the wallet exactly once when approved and nothing when rejected; bad
// input gets the envelope; every step is in the audit trail; the CLI goes through the same actions.
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { runCommand } from '../src/admin/run.js';
import { loadConfig } from '../src/config.js';
import { Expectations, UNROUTED_S } from '../src/attention/expectations.js';
import { eventually, PATHS, uuid, VALID } from './harness.js';
import { assertLedgerHolds, freePort, startPartnerApp, startSim, type PartnerApp, type Sim } from './live-harness.js';

const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const ADMINS = { maker: 'ops1@sangam.test', checker: 'ops2@sangam.test' };
const PASSWORD = 'admin pass 1';

describe('needs attention', () => {
  let a: Sim;
  let b: Sim;
  let t: PartnerApp;
  const logs: Array<Record<string, unknown>> = [];
  const sessions: Record<string, { cookie: string; csrf: string }> = {};

  before(async () => {
    // Payouts go to `a`, expected final at once (0 s): any pending there is overdue; recharges go to
    // `b`, expected within an hour. Neither simulator calls back during the test.
    a = await startSim({ secret: SECRET, pendingMs: 600_000 });
    b = await startSim({ secret: SECRET, pendingMs: 600_000 });
    const logStream = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logs.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    t = await startPartnerApp(
      {
        SANGAM_PARTNERS: `a=${a.url},b=${b.url}`,
        SANGAM_PARTNER_SECRET: SECRET,
        SANGAM_PARTNER_ROUTES: 'upi-payment-status=a;recharge-commission=b',
        SANGAM_PARTNER_TIMEOUT_MS: '2000',
        SANGAM_EXPECTED_FINAL_S: 'a=0,b=3600',
        SANGAM_OVERDUE_POLL_MS: '50',
        SANGAM_RECONCILE_SCHEDULE: '0.2',
        SANGAM_RECONCILE_POLL_MS: '50',
        SANGAM_RECONCILE_CUTOFF_S: '1',
        LOG_LEVEL: 'warn',
      },
      { port: await freePort(), logStream },
    );
    for (const email of Object.values(ADMINS)) assert.equal((await runCommand(t.store.db, ['users', 'create', '--email', email, '--password', PASSWORD, '--admin'])).code, 0);
    assert.equal((await runCommand(t.store.db, ['users', 'create', '--email', 'dev@acme.test', '--password', PASSWORD, '--account', t.accountId])).code, 0);
    for (const email of [...Object.values(ADMINS), 'dev@acme.test']) sessions[email] = await login(email);
  });
  after(async () => {
    await t?.close();
    await a?.stop();
    await b?.stop();
  });
  afterEach(async () => {
    await assertLedgerHolds(t.store.db);
  });

  async function login(email: string) {
    const r = await t.app.inject({ method: 'POST', url: '/console/api/login', payload: { email, password: PASSWORD } });
    assert.equal(r.statusCode, 200, r.body);
    return { cookie: String(r.headers['set-cookie']).split(';')[0]!, csrf: (JSON.parse(r.body) as { data: { csrf_token: string } }).data.csrf_token };
  }
  /** A console call as `email`: status and parsed envelope. */
  async function consoleCall(email: string, method: string, url: string, payload?: unknown) {
    const s = sessions[email]!;
    const r = await t.app.inject({ method: method as 'GET', url: `/console/api${url}`, payload: payload as object, headers: { cookie: s.cookie, 'x-csrf-token': s.csrf } });
    return { status: r.statusCode, body: JSON.parse(r.body) as { ok: boolean; statuscode: string; message: string; data: any } }; // eslint-disable-line @typescript-eslint/no-explicit-any
  }
  const propose = (email: string, txnId: string, body: Record<string, unknown>) => consoleCall(email, 'POST', `/admin/attention/${txnId}/resolutions`, body);
  const decideAs = (email: string, id: string, how: 'approve' | 'reject', body?: unknown) => consoleCall(email, 'POST', `/admin/resolutions/${id}/${how}`, body);

  async function wallet() {
    const r = await t.call('GET', '/api/v1/account/wallet', { key: t.liveKey });
    return { balance: Math.round(r.body.data.balance * 100), held: Math.round(r.body.data.held * 100) };
  }
  const txOf = (ref: string) => t.call('GET', `/api/v1/transactions/${ref}`, { key: t.liveKey }).then((r) => r.body.data);
  async function pendingPayout(amount = 40) {
    const body = { ...VALID.upi(), vpa: 'pending@sandbox', amount };
    const r = await t.call('POST', PATHS.upi, { key: t.liveKey, body });
    assert.equal(r.body.data.status, 'pending', r.text);
    return { txnId: r.body.data.txn_id as string, ref: body.reference_id };
  }
  const metrics = async () => (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
  const overdueGauge = (text: string, partner: string) => Number(new RegExp(`^sangam_overdue_transactions\\{partner="${partner}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? NaN);

  /** A callback from partner `a`, signed as the simulator signs it, for a transaction it holds. */
  async function callback(txnId: string, status: 'SUCCESS' | 'FAILURE') {
    const row = await t.store.db.selectFrom('transactions').select('partner_ref').where('id', '=', txnId).executeTakeFirstOrThrow();
    const id = `msg_${uuid()}`;
    const at = new Date();
    const body = JSON.stringify({ type: 'transaction.update', data: { client_ref: txnId, status, partner_ref: row.partner_ref ?? '', message: `partner says ${status}`, reference: '412345678901' } });
    const headers = { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(SECRET).sign(id, at, body) };
    const r = await fetch(`${t.base}/partners/a/webhooks`, { method: 'POST', headers, body });
    assert.equal(r.status, 200);
    return ((await r.json()) as { result: string }).result;
  }

  it('a pending past its partner\'s expectation is overdue: metric, one warn line, the queue and its badge', async () => {
    const late = await pendingPayout();
    const recharge = await t.call('POST', PATHS.recharge, { key: t.liveKey, body: { ...VALID.recharge(), mobile: '9876500002' } });
    assert.equal(recharge.body.data.status, 'pending', recharge.text);
    await eventually(async () => overdueGauge(await metrics(), 'a') >= 1);
    assert.equal(overdueGauge(await metrics(), 'b'), 0, 'a recharge an hour from its expectation is not overdue');
    // Looked at again and again, it is logged once.
    for (let i = 0; i < 3; i++) await t.overdue.tick();
    const lines = logs.filter((l) => l.txn_id === late.txnId && String(l.msg).startsWith('transaction overdue'));
    assert.equal(lines.length, 1, JSON.stringify(lines));
    assert.equal(lines[0]!.level, 40);
    assert.equal(lines[0]!.partner, 'a');
    assert.equal(lines[0]!.expected_final_s, 0);

    const queue = await consoleCall(ADMINS.maker, 'GET', '/admin/attention?reason=overdue');
    assert.equal(queue.status, 200);
    const row = queue.body.data.items.find((i: { id: string }) => i.id === late.txnId);
    assert.ok(row, 'the overdue payout is in the queue');
    assert.ok(row.reasons.includes('overdue'));
    assert.equal(row.partner, 'a');
    assert.equal(row.expected_final_s, 0);
    assert.ok(!queue.body.data.items.some((i: { id: string }) => i.id === recharge.body.data.txn_id), 'the recharge is within its expectation');
    const summary = await consoleCall(ADMINS.maker, 'GET', '/admin/attention/summary');
    assert.ok(summary.body.data.total >= 1 && summary.body.data.overdue >= 1, JSON.stringify(summary.body.data));
    assert.equal((await consoleCall('dev@acme.test', 'GET', '/admin/attention')).status, 403, 'admins only');
  });

  it('a transaction\'s page shows its whole partner history: request, answer, enquiries, callback', async () => {
    const p = await pendingPayout(12);
    // The reconciler asks the simulator (still pending), then the partner calls back.
    await eventually(async () => (await t.store.db.selectFrom('partner_events').select('id').where('txn_id', '=', p.txnId).where('kind', '=', 'enquiry').executeTakeFirst()) !== undefined);
    assert.equal(await callback(p.txnId, 'SUCCESS'), 'settled');
    const page = await consoleCall(ADMINS.maker, 'GET', `/admin/attention/${p.txnId}`);
    assert.equal(page.status, 200);
    const { transaction, history } = page.body.data;
    assert.equal(transaction.status, 'success');
    assert.equal(transaction.partner, 'a');
    const kinds = history.map((h: { kind: string }) => h.kind);
    for (const k of ['request', 'answer', 'enquiry', 'callback']) assert.ok(kinds.includes(k), `${k} in ${kinds.join(',')}`);
    assert.ok(kinds.indexOf('request') < kinds.indexOf('answer'), 'oldest first');
    const answer = history.find((h: { kind: string }) => h.kind === 'answer');
    assert.equal(answer.status, 'pending');
    const enquiry = history.find((h: { kind: string }) => h.kind === 'enquiry');
    assert.equal(enquiry.partner, 'a');
    assert.equal(enquiry.status, 'pending');
    const cb = history.find((h: { kind: string }) => h.kind === 'callback');
    assert.equal(cb.status, 'success');
    assert.equal(cb.detail.result, 'settled');
    assert.equal(history.filter((h: { kind: string }) => h.kind === 'callback').length, 1, 'the callback log and the history show it once');
    // Final now: out of the overdue count.
    assert.ok(!(await consoleCall(ADMINS.maker, 'GET', '/admin/attention')).body.data.items.some((i: { id: string }) => i.id === p.txnId));
  });

  it('marking a pending success needs a second admin; approval moves the wallet once', async () => {
    const p = await pendingPayout(40);
    const held = await wallet();
    const proposed = await propose(ADMINS.maker, p.txnId, { action: 'success', reason: 'Credited per partner statement', evidence: 'UTR 412345678901, statement line 17' });
    assert.equal(proposed.status, 200, JSON.stringify(proposed.body));
    assert.equal(proposed.body.data.state, 'proposed');
    const id = proposed.body.data.id as string;
    assert.deepEqual(await wallet(), held, 'a proposal moves nothing');
    assert.equal((await txOf(p.ref)).status, 'pending');

    const own = await decideAs(ADMINS.maker, id, 'approve');
    assert.equal(own.status, 403);
    assert.equal(own.body.data.Errorcode, 102);
    assert.match(own.body.data.Message, /different admin/);

    const ok = await decideAs(ADMINS.checker, id, 'approve');
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.data.state, 'applied');
    assert.equal(ok.body.data.effect.status, 'success');
    assert.deepEqual(await wallet(), { balance: held.balance, held: held.held - 4100 }, 'the hold is posted: 40 + 1 fee');
    const data = await txOf(p.ref);
    assert.equal(data.status, 'success');
    assert.match(data.message, /Sangam operations/);

    const again = await decideAs(ADMINS.checker, id, 'approve');
    assert.equal(again.status, 422);
    assert.equal(again.body.data.errors[0].field, 'id');
    assert.deepEqual(await wallet(), { balance: held.balance, held: held.held - 4100 }, 'once');

    // A success is reversed the same way: maker, then checker; the debit comes back.
    const rev = await propose(ADMINS.checker, p.txnId, { action: 'reversal', reason: 'Bank returned the credit', evidence: 'Partner statement: reversal of UTR 412345678901' });
    assert.equal(rev.status, 200, JSON.stringify(rev.body));
    assert.equal((await decideAs(ADMINS.checker, rev.body.data.id, 'approve')).status, 403);
    assert.equal((await decideAs(ADMINS.maker, rev.body.data.id, 'approve')).status, 200);
    assert.deepEqual(await wallet(), { balance: held.balance + 4100, held: held.held - 4100 });
    assert.ok((await txOf(p.ref)).reversed_at);
    const twice = await propose(ADMINS.maker, p.txnId, { action: 'reversal', reason: 'again', evidence: 'x' });
    assert.equal(twice.status, 422);
    assert.equal(twice.body.data.errors[0].field, 'action');

    const page = (await consoleCall(ADMINS.maker, 'GET', `/admin/attention/${p.txnId}`)).body.data;
    assert.deepEqual(page.resolutions.map((r: { action: string; state: string }) => `${r.action}:${r.state}`), ['success:applied', 'reversal:applied']);
    assert.equal(page.history.filter((h: { kind: string }) => h.kind === 'resolution').length, 2);
  });

  it('a rejected proposal moves nothing; marking failed releases the hold', async () => {
    const p = await pendingPayout(25);
    const held = await wallet();
    const proposed = await propose(ADMINS.maker, p.txnId, { action: 'failed', reason: 'Partner says never received', evidence: 'Support ticket 8812' });
    const id = proposed.body.data.id as string;
    const noReason = await decideAs(ADMINS.checker, id, 'reject', { reason: '  ' });
    assert.equal(noReason.status, 422);
    assert.deepEqual(noReason.body.data.errors.map((e: { field: string }) => e.field), ['reason']);
    const rejected = await decideAs(ADMINS.checker, id, 'reject', { reason: 'Statement shows it pending still' });
    assert.equal(rejected.status, 200);
    assert.equal(rejected.body.data.state, 'rejected');
    assert.deepEqual(await wallet(), held);
    assert.equal((await txOf(p.ref)).status, 'pending');
    assert.equal((await decideAs(ADMINS.maker, id, 'approve')).status, 422, 'a rejected proposal cannot be approved');

    const failed = await propose(ADMINS.checker, p.txnId, { action: 'failed', reason: 'Partner confirmed failure', evidence: 'Ticket 8812, reply 3' });
    assert.equal((await decideAs(ADMINS.maker, failed.body.data.id, 'approve')).status, 200);
    assert.deepEqual(await wallet(), { balance: held.balance + 2600, held: held.held - 2600 });
    assert.equal((await txOf(p.ref)).status, 'failed');
  });

  it('a conflict flag or a manual review is dismissed by one admin, with no money movement', async () => {
    const p = await pendingPayout(9);
    // Past the 1 s cut-off the reconciler sends it to manual review.
    await eventually(async () => (await t.store.db.selectFrom('transactions').select('review_reason').where('id', '=', p.txnId).executeTakeFirstOrThrow()).review_reason !== null, 30_000);
    const inReview = (await consoleCall(ADMINS.maker, 'GET', '/admin/attention?reason=review')).body.data.items;
    assert.ok(inReview.some((i: { id: string }) => i.id === p.txnId));
    const before = await wallet();
    // Dismissing the review puts it back in reconciliation: the partner is asked again.
    const review = await propose(ADMINS.maker, p.txnId, { action: 'dismiss', reason: 'Partner is reprocessing; ask again' });
    assert.equal(review.status, 200, JSON.stringify(review.body));
    assert.equal(review.body.data.state, 'applied');
    const row = await t.store.db.selectFrom('transactions').select(['review_reason', 'status']).where('id', '=', p.txnId).executeTakeFirstOrThrow();
    assert.equal(row.status, 'pending');
    const dismissedAt = new Date(review.body.data.decided_at);
    await eventually(async () => (await t.store.db.selectFrom('partner_events').select('id').where('txn_id', '=', p.txnId).where('kind', '=', 'enquiry').where('at', '>', dismissedAt).executeTakeFirst()) !== undefined);

    assert.equal(await callback(p.txnId, 'SUCCESS'), 'settled');
    assert.equal(await callback(p.txnId, 'FAILURE'), 'conflict');
    const flagged = (await consoleCall(ADMINS.maker, 'GET', '/admin/attention?reason=flagged')).body.data.items.find((i: { id: string }) => i.id === p.txnId);
    assert.match(flagged.flagged, /reported failed/);
    const settledWallet = await wallet();
    assert.equal(settledWallet.held, before.held - 1000);
    const dismissed = await propose(ADMINS.checker, p.txnId, { action: 'dismiss', reason: 'Duplicate partner message; statement shows the credit', evidence: 'statement line 4' });
    assert.equal(dismissed.body.data.state, 'applied');
    assert.deepEqual(await wallet(), settledWallet);
    assert.equal((await t.store.db.selectFrom('transactions').select('flagged').where('id', '=', p.txnId).executeTakeFirstOrThrow()).flagged, null);
    assert.ok(!(await consoleCall(ADMINS.maker, 'GET', '/admin/attention')).body.data.items.some((i: { id: string }) => i.id === p.txnId));
  });

  it('bad input gets the envelope 4xx, never a 500', async () => {
    const p = await pendingPayout(3);
    const expectError = (r: Awaited<ReturnType<typeof consoleCall>>, status: number, errorcode: number, field?: string) => {
      assert.equal(r.status, status, JSON.stringify(r.body));
      assert.equal(r.body.statuscode, 'ERR');
      assert.equal(r.body.ok, false);
      assert.equal(r.body.data.Errorcode, errorcode);
      assert.ok(r.body.data.request_id);
      if (field) assert.deepEqual(r.body.data.errors.map((e: { field: string }) => e.field), [field]);
    };
    expectError(await propose(ADMINS.maker, 'txn_doesnotexist00000000', { action: 'success', reason: 'x', evidence: 'y' }), 404, 109);
    expectError(await consoleCall(ADMINS.maker, 'GET', '/admin/attention/txn_doesnotexist00000000'), 404, 109);
    expectError(await propose(ADMINS.maker, p.txnId, { action: 'success', reason: '   ', evidence: 'y' }), 422, 104, 'reason');
    expectError(await propose(ADMINS.maker, p.txnId, { action: 'refund', reason: 'x', evidence: 'y' }), 422, 104, 'action');
    expectError(await propose(ADMINS.maker, p.txnId, { reason: 'x' }), 422, 104, 'action');
    expectError(await propose(ADMINS.maker, p.txnId, { action: 'success', reason: 'x' }), 422, 104, 'evidence');
    expectError(await propose(ADMINS.maker, p.txnId, { action: 'reversal', reason: 'x', evidence: 'y' }), 422, 104, 'action');
    expectError(await propose(ADMINS.maker, p.txnId, { action: 'success', reason: 'x'.repeat(1001), evidence: 'y' }), 422, 104, 'reason');
    expectError(await consoleCall(ADMINS.maker, 'GET', '/admin/attention?reason=stale'), 422, 104, 'reason');
    expectError(await decideAs(ADMINS.checker, 'res_doesnotexist', 'approve'), 404, 109);
    expectError(await decideAs(ADMINS.checker, 'res_doesnotexist', 'reject', { reason: 'x' }), 404, 109);
    expectError(await propose('dev@acme.test', p.txnId, { action: 'success', reason: 'x', evidence: 'y' }), 403, 102);
    const sandbox = await t.call('POST', PATHS.upi, { body: { ...VALID.upi(), vpa: 'pending@sandbox' } });
    expectError(await propose(ADMINS.maker, sandbox.body.data.txn_id, { action: 'success', reason: 'x', evidence: 'y' }), 422, 104, 'txn_id');
    const first = await propose(ADMINS.maker, p.txnId, { action: 'failed', reason: 'x', evidence: 'y' });
    assert.equal(first.status, 200);
    expectError(await propose(ADMINS.checker, p.txnId, { action: 'success', reason: 'x', evidence: 'y' }), 422, 104, 'txn_id');
    // Without the CSRF token a change is refused.
    const s = sessions[ADMINS.checker]!;
    const noCsrf = await t.app.inject({ method: 'POST', url: `/console/api/admin/resolutions/${first.body.data.id}/approve`, headers: { cookie: s.cookie } });
    assert.equal(noCsrf.statusCode, 403);
    assert.equal((await txOf(p.ref)).status, 'pending');
  });

  it('every step is in the audit trail, and the trail still verifies', async () => {
    const rows = await t.store.db.selectFrom('audit_logs').select(['path', 'request_body']).where('method', '=', 'ADMIN').where('path', 'like', 'attention %').execute();
    const paths = new Set(rows.map((r) => r.path));
    for (const step of ['attention propose', 'attention approve', 'attention reject', 'attention apply']) assert.ok(paths.has(step), `${step} audited`);
    const proposal = rows.find((r) => r.path === 'attention propose' && (r.request_body as { action?: string }).action === 'success')!;
    assert.equal((proposal.request_body as { actor: string }).actor, `console:${ADMINS.maker}`);
    assert.match(String((proposal.request_body as { evidence: string }).evidence), /UTR/);
    const reject = rows.find((r) => r.path === 'attention reject')!;
    assert.equal((reject.request_body as { actor: string }).actor, `console:${ADMINS.checker}`);
    assert.equal((await runCommand(t.store.db, ['audit', 'verify'])).code, 0);
  });

  it('the CLI resolves through the same actions: --as names the admin, maker-checker holds', async () => {
    const p = await pendingPayout(7);
    const ctx = { settlement: async () => t.services.settlement };
    const cli = (...argv: string[]) => runCommand(t.store.db, argv, ctx);
    const list = await cli('attention', 'list', '--reason', 'overdue');
    assert.equal(list.code, 0);
    assert.ok((list.output.items as Array<{ id: string }>).some((i) => i.id === p.txnId) || (await cli('attention', 'list')).code === 0);
    assert.equal((await cli('attention', 'propose', p.txnId, '--action', 'success', '--reason', 'x', '--evidence', 'y')).code, 2, '--as is required');
    assert.equal((await cli('attention', 'propose', p.txnId, '--action', 'success', '--reason', 'x', '--evidence', 'y', '--as', 'dev@acme.test')).code, 1, 'not an admin');
    const proposed = await cli('attention', 'propose', p.txnId, '--action', 'success', '--reason', 'Partner statement', '--evidence', 'UTR 998877665544', '--as', ADMINS.maker);
    assert.equal(proposed.code, 0, JSON.stringify(proposed.output));
    const id = proposed.output.id as string;
    const own = await cli('attention', 'approve', id, '--as', ADMINS.maker.toUpperCase());
    assert.equal(own.code, 1);
    assert.equal(own.output.status, 403);
    const before = await wallet();
    assert.equal((await cli('attention', 'approve', id, '--as', ADMINS.checker)).code, 0);
    assert.deepEqual(await wallet(), { balance: before.balance, held: before.held - 800 });
    const show = await cli('attention', 'show', p.txnId);
    assert.equal(show.code, 0);
    assert.equal((show.output.transaction as { status: string }).status, 'success');
    assert.equal((await cli('attention', 'show', 'txn_nope')).output.status, 404);
    const audited = await t.store.db.selectFrom('audit_logs').select('request_body').where('path', '=', 'attention approve').execute();
    assert.ok(audited.some((r) => (r.request_body as { actor: string }).actor === `cli:${ADMINS.checker}`));
  });

  // Issue #37: an admin proposed, made `puppet@…` an admin from the console, signed in as it and approved.
  it('maker-checker is not defeated by an admin the maker makes: the new admin waits for another admin, and can never check what was proposed before its rights took effect', async () => {
    const ctx = { settlement: async () => t.services.settlement };
    const cli = (...argv: string[]) => runCommand(t.store.db, argv, ctx);
    const p = await pendingPayout(11);
    const proposed = await propose(ADMINS.maker, p.txnId, { action: 'success', reason: 'Credited', evidence: 'UTR 412345678902' });
    assert.equal(proposed.status, 200, JSON.stringify(proposed.body));
    const id = proposed.body.data.id as string;

    const made = await consoleCall(ADMINS.maker, 'POST', '/admin/users', { email: 'puppet@sangam.test', password: PASSWORD, is_admin: true, account_id: null });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.deepEqual([made.body.data.admin, made.body.data.is_admin], ['pending', false]);
    assert.match(made.body.message, /wait for approval/);
    const puppetId = made.body.data.id as string;
    sessions['puppet@sangam.test'] = await login('puppet@sangam.test');
    const me = await consoleCall('puppet@sangam.test', 'GET', '/session');
    assert.deepEqual([me.body.data.user.is_admin, me.body.data.user.admin_pending], [false, true]);

    const held = await wallet();
    const refused = await decideAs('puppet@sangam.test', id, 'approve');
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    assert.match(refused.body.data.Message, /wait for approval/);
    const viaCli = await cli('attention', 'approve', id, '--as', 'puppet@sangam.test');
    assert.deepEqual([viaCli.code, viaCli.output.status], [1, 403]);
    assert.match(String(viaCli.output.error), /wait for approval/);
    // Nor can the pending admin approve itself, nor its maker approve it.
    assert.equal((await consoleCall('puppet@sangam.test', 'POST', `/admin/users/${puppetId}/approve-admin`)).status, 403);
    const byMaker = await consoleCall(ADMINS.maker, 'POST', `/admin/users/${puppetId}/approve-admin`);
    assert.equal(byMaker.status, 403, JSON.stringify(byMaker.body));
    assert.match(byMaker.body.data.Message, /Maker-checker/);
    assert.equal((await cli('users', 'approve-admin', puppetId, '--as', ADMINS.maker)).output.status, 403);

    // A second admin approves the new admin: from now on it is one, but not for what was proposed before.
    const approved = await consoleCall(ADMINS.checker, 'POST', `/admin/users/${puppetId}/approve-admin`);
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    assert.equal(approved.body.data.admin, 'effective');
    const late = await decideAs('puppet@sangam.test', id, 'approve');
    assert.equal(late.status, 403, JSON.stringify(late.body));
    assert.match(late.body.data.Message, /took effect .* after resolution/);
    assert.deepEqual(await wallet(), held, 'nothing moved');
    assert.equal((await txOf(p.ref)).status, 'pending');
    assert.equal((await decideAs(ADMINS.checker, id, 'reject', { reason: 'Proposed again below' })).status, 200);

    // What the maker proposes after the new admin's rights took effect, the new admin may check.
    const again = await propose(ADMINS.maker, p.txnId, { action: 'success', reason: 'Credited', evidence: 'UTR 412345678902' });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    const ok = await decideAs('puppet@sangam.test', again.body.data.id, 'approve');
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal((await txOf(p.ref)).status, 'success');

    // The trail shows who proposed, who approved, and how the approver became an admin.
    const ids = Object.fromEntries(
      (await t.store.db.selectFrom('console_users').select(['id', 'email']).where('email', 'in', [ADMINS.maker, ADMINS.checker]).execute()).map((u) => [u.email, u.id]),
    );
    const body = async (path: string, where: (b: Record<string, unknown>) => boolean) => {
      const rows = await t.store.db.selectFrom('audit_logs').select('request_body').where('path', '=', path).execute();
      return rows.map((r) => r.request_body as Record<string, unknown>).filter(where);
    };
    const [create] = await body('users create', (b) => b.user_id === puppetId);
    assert.deepEqual([create!.admin, create!.admin_created_by, create!.actor], ['pending', ids[ADMINS.maker], `console:${ADMINS.maker}`]);
    const [link] = await body('users approve-admin', (b) => b.user_id === puppetId);
    assert.deepEqual([link!.admin_created_by, link!.admin_approved_by, link!.actor], [ids[ADMINS.maker], ids[ADMINS.checker], `console:${ADMINS.checker}`]);
    const [approval] = await body('attention approve', (b) => b.resolution_id === again.body.data.id);
    assert.deepEqual(
      [approval!.maker, approval!.maker_user, approval!.checker, approval!.checker_user, approval!.checker_admin_created_by, approval!.checker_admin_approved_by],
      [ADMINS.maker, ids[ADMINS.maker], 'puppet@sangam.test', puppetId, ids[ADMINS.maker], ids[ADMINS.checker]],
    );
    assert.equal((await runCommand(t.store.db, ['audit', 'verify'])).code, 0);
  });
});

describe('expectations', () => {
  const partners = { names: () => ['rzp', 'sim'], expectedFinalS: (name: string) => (name === 'rzp' ? 3600 : undefined) };

  it('a partner\'s own expectation, overridden by its name or by *, with a fallback', () => {
    const own = new Expectations({}, partners);
    assert.equal(own.of('rzp'), 3600);
    assert.equal(own.of('sim'), UNROUTED_S, 'a partner that declares none');
    assert.equal(own.of(null), UNROUTED_S, 'a pending no partner holds');
    assert.equal(own.of('removed'), UNROUTED_S, 'a partner no longer configured');
    const set = new Expectations(loadConfig({ SANGAM_EXPECTED_FINAL_S: '*=60,sim=5' }).attention.expectedFinalS, partners);
    assert.deepEqual([set.of('rzp'), set.of('sim'), set.of(null)], [60, 5, 60]);
  });

  it('a bad SANGAM_EXPECTED_FINAL_S stops the boot with a message', () => {
    assert.throws(() => new Expectations({ nope: 1 }, partners), /SANGAM_EXPECTED_FINAL_S: unknown partner nope/);
    assert.throws(() => loadConfig({ SANGAM_EXPECTED_FINAL_S: 'rzp=1.5' }), /whole seconds/);
    assert.throws(() => loadConfig({ SANGAM_EXPECTED_FINAL_S: 'rzp' }), /not key=value/);
  });
});
