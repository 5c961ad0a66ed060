// Partner robustness against real simulator processes: failover before any outcome, no failover after
// the request was sent, circuit breaking, reconciliation by status enquiry, manual review, and
// transactions that never reached the network.
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { eventually, PATHS, VALID } from './harness.js';
import { startLive, startSim, type LiveApp, type Sim } from './live-harness.js';

const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const FAST = { SANGAM_RECONCILE_SCHEDULE: '0.3,0.3', SANGAM_RECONCILE_POLL_MS: '50', SANGAM_PARTNER_TIMEOUT_MS: '1000' };

const status = (t: LiveApp, ref: string) => t.call('GET', `/api/v1/transactions/${ref}`, { key: t.liveKey }).then((r) => r.body.data.status as string);
const finalStatus = (t: LiveApp, ref: string, timeoutMs = 30_000) =>
  eventually(async () => {
    const s = await status(t, ref);
    return s !== 'pending' && s;
  }, timeoutMs);

describe('routing and failover across two partners', () => {
  let a: Sim;
  let b: Sim;
  let t: LiveApp;
  before(async () => {
    a = await startSim({ secret: SECRET });
    b = await startSim({ secret: SECRET });
    t = await startLive({ ...FAST, SANGAM_PARTNER_URL: '', SANGAM_PARTNERS: `a=${a.url},b=${b.url}`, SANGAM_BREAKER_MIN_CALLS: '3', SANGAM_BREAKER_RESET_MS: '60000' }, 10_000, a);
  });
  after(async () => {
    await t.close();
    await a.stop();
    await b.stop();
  });
  afterEach(() => t.assertLedger());

  it('a 503 from the first partner fails over to the second: one clean answer, one execution', async () => {
    await a.faults({ error_next: 1 });
    const body = VALID.upi();
    const r = await t.call('POST', PATHS.upi, { key: t.liveKey, body });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.status, 'success');
    const txn = r.body.data.txn_id as string;
    assert.equal((await a.calls())[txn], undefined);
    assert.equal((await b.calls())[txn], 1);
    const row = await t.store.db.selectFrom('transactions').select('partner').where('id', '=', txn).executeTakeFirstOrThrow();
    assert.equal(row.partner, 'b');
  });

  it('a timeout after the request was sent does not fail over; reconciliation settles it at the same partner', async () => {
    // The stall lies far past the 1 s deadline: on a loaded machine a late timer must not let the answer win.
    await a.faults({ timeout_next: 1, timeout_ms: 4000 });
    const before = await t.wallet();
    const body = { ...VALID.upi(), amount: 12 };
    const r = await t.call('POST', PATHS.upi, { key: t.liveKey, body });
    assert.equal(r.body.statuscode, 'TUP', r.text);
    const txn = r.body.data.txn_id as string;
    assert.equal(await finalStatus(t, body.reference_id), 'success');
    assert.equal((await b.calls())[txn], undefined, 'never sent to the second partner');
    const after = await t.wallet();
    assert.equal(Math.round((before.balance - after.balance) * 100), 1200 + 100);
    assert.equal(after.held, before.held);
  });

  it('a failing partner opens its breaker; calls go straight to the next one; health and metrics show it', async () => {
    await a.faults({ error_next: 100 });
    for (let i = 0; i < 4; i++) assert.equal((await t.call('POST', PATHS.upi, { key: t.liveKey, body: VALID.upi() })).body.data.status, 'success');
    const callsAtA = Object.keys(await a.calls()).length;
    const health = await (await fetch(`${t.base}/health`)).json();
    assert.equal((health as { partners: Record<string, string> }).partners.a, 'open');
    const r = await t.call('POST', PATHS.upi, { key: t.liveKey, body: VALID.upi() });
    assert.equal(r.body.data.status, 'success');
    assert.equal(Object.keys(await a.calls()).length, callsAtA);
    const metrics = await (await fetch(`${t.base}/metrics`)).text();
    assert.match(metrics, /sangam_partner_breaker_state\{partner="a"\} 2/);
    assert.match(metrics, /sangam_partner_request_duration_seconds_count\{partner="b",operation="upi-payment-status",result="success"\} \d+/);
    assert.match(metrics, /sangam_partner_errors_total\{partner="a",operation="upi-payment-status",kind="unavailable"\} \d+/);
    assert.match(metrics, /sangam_pending_transactions/);
    await a.faults({});
  });

  it('with every partner down the answer is 502/113 and nothing is debited', async () => {
    await b.faults({ error_next: 100 });
    const before = await t.wallet();
    const r = await t.call('POST', PATHS.recharge, { key: t.liveKey, body: VALID.recharge() });
    assert.equal(r.status, 502);
    assert.equal(r.body.data.Errorcode, 113);
    assert.deepEqual(await t.wallet(), before);
    await b.faults({});
  });
});

describe('reconciliation', () => {
  let t: LiveApp;
  before(async () => (t = await startLive({ ...FAST, SANGAM_RECONCILE_CUTOFF_S: '2' })));
  after(() => t.close());
  afterEach(() => t.assertLedger());

  it('a pending whose callback never comes is settled by status enquiry, with its ledger effect', async () => {
    await t.sim.faults({ drop_callbacks: true });
    const before = await t.wallet();
    const body = { ...VALID.upi(), vpa: 'pendingfail@sandbox', amount: 9 };
    await t.call('POST', PATHS.upi, { key: t.liveKey, body });
    assert.equal(await finalStatus(t, body.reference_id), 'failed');
    assert.deepEqual(await t.wallet(), before);
    await t.sim.faults({});
  });

  it('a transaction the partners never received (crash before sending) is failed and its hold released', async () => {
    const before = await t.wallet();
    const txnId = `txn_crashed${randomBytes(6).toString('hex')}`;
    // The recovery point of a request that crashed before its partner call.
    await t.services.recorder.record({
      tx: {
        id: txnId,
        accountId: t.accountId,
        environment: 'live',
        operation: 'upi-payment-status',
        referenceId: 'crashed-before-send',
        amountPaise: 5000,
        // As the live runner's recovery point writes it: a payment shows its txn_id and amount from the start.
        outcome: { status: 'pending', message: 'Submitted to the partner network', fields: { txn_id: txnId, amount: 50 } },
        // Not due until the hold has been seen (the reconciler polls fast here).
        nextCheckAt: new Date(Date.now() + 3_600_000),
      },
      hold: { txnId, accountId: t.accountId, principalPaise: 5000, feePaise: 100, commissionPaise: 0 },
      key: null,
      afterRecord: [],
    });
    await trxAge(t, txnId, 60);
    assert.equal((await t.wallet()).held, before.held + 51);
    await t.store.db.updateTable('transactions').set({ next_check_at: new Date() }).where('id', '=', txnId).execute();
    assert.equal(await finalStatus(t, 'crashed-before-send'), 'failed');
    assert.deepEqual(await t.wallet(), before);
  });

  it('past the cut-off a pending goes to manual review with its hold intact', async () => {
    await t.sim.faults({ drop_callbacks: true });
    const sim2 = await startSim({ secret: t.sim.secret, pendingMs: 60_000 });
    const t2 = await startLive({ ...FAST, SANGAM_RECONCILE_CUTOFF_S: '1' }, 1000, sim2);
    try {
      const body = { ...VALID.upi(), vpa: 'pending@sandbox', amount: 20 };
      await t2.call('POST', PATHS.upi, { key: t2.liveKey, body });
      const row = await eventually(async () => {
        const r = await t2.store.db.selectFrom('transactions').select(['status', 'review_reason', 'checks']).where('reference_id', '=', body.reference_id).executeTakeFirstOrThrow();
        return r.review_reason !== null && r;
      }, 8000);
      assert.equal(row.status, 'pending');
      assert.match(String(row.review_reason), /status enquiries/);
      assert.equal((await t2.wallet()).held, 21);
      await t2.assertLedger();
    } finally {
      await t2.close();
      await sim2.stop();
      await t.sim.faults({});
    }
  });
});

/** Makes a transaction look `seconds` old, as after a crash. */
async function trxAge(t: LiveApp, txnId: string, seconds: number) {
  await t.store.db
    .updateTable('transactions')
    .set({ created_at: new Date(Date.now() - seconds * 1000) } as never)
    .where('id', '=', txnId)
    .execute();
}
