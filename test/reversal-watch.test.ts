// Money stays right after a success (CONTRACT §9, issue #21), against the RazorpayX and Cashfree
// emulators on the real store:
//   - the reversal watch: a payout reversed at the partner while Sangam is down (every webhook
//     delivery missed) is found by the watch after the restart and posted once;
//   - settlement decides on the locked row: a reversal webhook that arrives while the request path's
//     settlement of the same transaction is uncommitted waits for it and is then posted once, and a
//     callback repeating the final outcome is not flagged as a conflict;
//   - the settlement paths (the request path's phase 3 and partner callbacks) run against each other
//     on one wallet without deadlock.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startRazorpayxEmulator, type RazorpayxEmulator } from '../partner-sim/razorpayx/index.js';
import { startCashfreePayoutsEmulator, type CashfreePayoutsEmulator } from '../partner-sim/cashfree-payouts/index.js';
import type { Outcome, PartnerReport } from '../src/providers/connector.js';
import { eventually, PATHS, startApp, VALID, type TestApp } from './harness.js';
import { assertLedgerHolds, freePort, partnerSuiteEnv, startPartnerApp, submitOutcome, type PartnerApp } from './live-harness.js';

const RZP_WEBHOOK_SECRET = 'rzp_webhook_secret_for_watch';
const FEE_PAISE = 100;

/** Upi-payment-status at partner `name` of `kind`: no reconciliation soon, the reversal watch at 1, 2 and 4 s. */
const watchEnv = (name: string, kind: string, url: string, vars: Record<string, string>): Record<string, string> => ({
  ...partnerSuiteEnv(name, kind, url, vars, 'upi-payment-status'),
  SANGAM_PARTNER_TIMEOUT_MS: '2000',
  SANGAM_RECONCILE_SCHEDULE: '30',
  SANGAM_RECONCILE_POLL_MS: '50',
  SANGAM_REVERSAL_WATCH_SCHEDULE: '1,2,4',
});
const rzpEnv = (emu: RazorpayxEmulator) =>
  watchEnv('rzp', 'razorpayx', emu.url, { KEY_ID: emu.settings.keyId, KEY_SECRET: emu.settings.keySecret, ACCOUNT_NUMBER: emu.settings.accountNumber, WEBHOOK_SECRET: RZP_WEBHOOK_SECRET });

async function walletOf(t: TestApp, key: string) {
  const r = await t.call('GET', '/api/v1/account/wallet', { key });
  return { balance: Math.round(r.body.data.balance * 100), held: Math.round(r.body.data.held * 100) };
}

const txnRow = (t: TestApp, id: string) =>
  t.store.db.selectFrom('transactions').select(['status', 'result', 'flagged', 'watch_next_at', 'watch_checks', 'partner_ref']).where('id', '=', id).executeTakeFirstOrThrow();

describe('reversal watch: a reversal made while Sangam is down is posted after the restart', () => {
  let emu: RazorpayxEmulator;
  let cf: CashfreePayoutsEmulator;
  let port: number;
  before(async () => {
    port = await freePort();
    emu = await startRazorpayxEmulator({
      keySecret: 'rzp_key_secret_for_watch',
      webhookSecret: RZP_WEBHOOK_SECRET,
      webhookUrl: `http://127.0.0.1:${port}/partners/rzp/webhooks`,
      pendingMs: 50,
      latencyMs: 0,
      webhookAttempts: 2,
      webhookRetryBaseMs: 50,
    });
    cf = await startCashfreePayoutsEmulator({ webhookUrl: `http://127.0.0.1:${port}/partners/cashfree/webhooks`, pendingMs: 50, latencyMs: 0, webhookAttempts: 2, webhookRetryBaseMs: 50 });
  });
  after(async () => {
    await emu.close();
    await cf.close();
  });

  const cases: Array<{ name: string; env: () => Record<string, string>; reverse: (txnId: string) => Promise<void>; attempts: () => unknown[]; delivered: () => number }> = [
    {
      name: 'RazorpayX processed → reversed',
      env: () => rzpEnv(emu),
      reverse: async (txnId) => {
        const payout = emu.payouts().find((p) => p.payout.reference_id === txnId)!.payout;
        const r = await fetch(`${emu.url}/_sim/payouts/${payout.id}/settle`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ status: 'reversed', reason: 'beneficiary_bank_offline' }),
        });
        assert.equal(r.status, 200, await r.text());
      },
      attempts: () => emu.webhookLog().filter((w) => w.event === 'payout.reversed'),
      delivered: () => emu.webhookLog().filter((w) => w.event === 'payout.reversed' && (w.status_code ?? 0) < 300 && (w.status_code ?? 0) >= 200).length,
    },
    {
      name: 'Cashfree SUCCESS → REVERSED',
      env: () => watchEnv('cashfree', 'cashfree-payouts', cf.url, { CLIENT_ID: cf.settings.clientId, CLIENT_SECRET: cf.settings.clientSecret }),
      reverse: async (txnId) => {
        const r = await fetch(`${cf.origin}/_sim/transfers/${txnId}/settle`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ status: 'REVERSED', status_code: 'INVALID_ACCOUNT_FAIL' }),
        });
        assert.equal(r.status, 200, await r.text());
      },
      attempts: () => cf.webhookLog().filter((w) => w.type === 'TRANSFER_REVERSED'),
      delivered: () => cf.webhookLog().filter((w) => w.type === 'TRANSFER_REVERSED' && (w.http_status ?? 0) < 300 && (w.http_status ?? 0) >= 200).length,
    },
  ];

  for (const c of cases) {
    it(`${c.name}: every webhook missed while down; the watch finds it after the restart; refunded once`, async () => {
      let t: PartnerApp | TestApp = await startPartnerApp(c.env(), { port });
      const liveKey = t.liveKey;
      try {
        const start = await walletOf(t, liveKey);
        const body = { ...VALID.upi(), vpa: 'watch.me@ybl', amount: 43.12 };
        const r = await t.call('POST', PATHS.upi, { key: liveKey, body });
        assert.equal(r.status, 200, r.text);
        const txnId = r.body.data.txn_id as string;
        const app = t;
        await eventually(async () => (await txnRow(app, txnId)).status === 'success', 30_000);
        assert.ok((await txnRow(t, txnId)).watch_next_at, 'a success its partner can undo is watched');
        assert.deepEqual(await walletOf(t, liveKey), { balance: start.balance - 4312 - FEE_PAISE, held: 0 });

        await t.stop(); // Sangam is down: nothing answers on its port
        await c.reverse(txnId);
        await eventually(async () => c.attempts().length >= 2, 30_000); // the partner gave up

        assert.equal(c.delivered(), 0, 'no reversal webhook got through');

        t = await startApp(c.env(), t.location, false);
        await t.app.listen({ port, host: '127.0.0.1' });
        const back = t;
        const row = await eventually(async () => {
          const x = await txnRow(back, txnId);
          return x.result.reversed_at ? x : false;
        }, 60_000);
        assert.equal(row.status, 'success', 'a final state never changes; the reversal is shown beside it');
        assert.equal(row.watch_next_at, null, 'a reversed success is no longer watched');
        assert.deepEqual(await walletOf(t, liveKey), start, 'the debit and the fee came back, once');
        const revs = await t.store.db.selectFrom('ledger_entries').select('posting_id').where('posting_id', '=', `rev_${txnId}`).execute();
        assert.ok(revs.length > 0);
        await assertLedgerHolds(t.store.db);
      } finally {
        await t.close();
      }
    });
  }
});

describe('settlement decides on the locked row', () => {
  let emu: RazorpayxEmulator;
  let t: PartnerApp;
  let port: number;
  before(async () => {
    port = await freePort();
    emu = await startRazorpayxEmulator({ keySecret: 'rzp_key_secret_for_watch', webhookSecret: RZP_WEBHOOK_SECRET, pendingMs: 50, latencyMs: 0 });
    // The payouts stay with RazorpayX until the test settles them: no webhook URL, no reconcile soon.
    t = await startPartnerApp(rzpEnv(emu), { port });
  });
  after(async () => {
    await t.close();
    await emu.close();
  });

  /** A live UPI payment left pending (a `held` payout), with the payout id Sangam recorded. */
  const pending = async (amount: number) => {
    const r = await t.call('POST', PATHS.upi, { key: t.liveKey, body: { ...VALID.upi(), vpa: `held.${amount}@ybl`, amount } });
    assert.equal(r.body.data.status, 'pending', r.text);
    const txnId = r.body.data.txn_id as string;
    return { txnId, payoutId: (await txnRow(t, txnId)).partner_ref! };
  };

  /**
   * Runs `inside` in a database transaction that has settled `txnId` as success and not yet committed
   * (the request path's phase 3 in flight), then `racer` beside it; commits once the racer waits on the
   * row (PostgreSQL) or at once (the embedded store runs one transaction at a time).
   */
  async function race<T>(txnId: string, racer: () => Promise<T>): Promise<T> {
    const { db } = t.store;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let settledInside!: () => void;
    const inside = new Promise<void>((r) => (settledInside = r));
    const phase3 = db.transaction().execute(async (trx) => {
      await t.services.transactions.lockMany(trx, [txnId]);
      await t.services.settlement.settleMany(trx, [{ txnId, operation: 'upi-payment-status', final: { status: 'success', message: 'Paid', fields: { utr: '123412341234' } }, partner: 'rzp' }]);
      settledInside();
      await held;
    });
    await inside;
    const racing = racer();
    if (t.config.databaseUrl) {
      await eventually(async () => {
        const w = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`.execute(db);
        return w.rows[0]!.n > 0;
      }, 30_000);
    }
    release();
    await phase3;
    return racing;
  }

  const report = (txnId: string, payoutId: string, reversal?: PartnerReport['reversal']): PartnerReport => ({
    txnId,
    partnerRef: payoutId,
    outcome: { status: 'success', message: 'Paid', fields: { utr: '123412341234' } },
    ...(reversal ? { reversal } : {}),
  });

  it('a reversal webhook racing with the request path’s settlement is posted once', async () => {
    const before = await walletOf(t, t.liveKey);
    const { txnId, payoutId } = await pending(21);
    const result = await race(txnId, () =>
      t.services.settlement.apply(report(txnId, payoutId, { reason: 'Beneficiary bank offline', at: new Date() }), 'rzp', `evt_race_${txnId}`),
    );
    assert.equal(result, 'reversed');
    const row = await txnRow(t, txnId);
    assert.equal(row.status, 'success');
    assert.ok(row.result.reversed_at);
    assert.equal(row.flagged, null);
    assert.deepEqual(await walletOf(t, t.liveKey), before, 'paid, then returned once');
    // The same reversal again (a redelivery under a new id, or an enquiry) returns nothing twice.
    assert.equal(await t.services.settlement.apply(report(txnId, payoutId, { reason: 'again', at: new Date() }), 'rzp', null), 'already_final');
    assert.deepEqual(await walletOf(t, t.liveKey), before);
    await assertLedgerHolds(t.store.db);
  });

  it('a callback repeating the final outcome while it is being settled is not a conflict', async () => {
    const { txnId, payoutId } = await pending(22);
    const result = await race(txnId, () => t.services.settlement.apply(report(txnId, payoutId), 'rzp', `evt_same_${txnId}`));
    assert.equal(result, 'already_final');
    assert.equal((await txnRow(t, txnId)).flagged, null, 'no false conflict flag');
  });

  it('the request path and partner callbacks settle the same wallet concurrently without deadlock', async () => {
    const before = await walletOf(t, t.liveKey);
    const rounds = 12;
    const pairs = await Promise.all(Array.from({ length: rounds }, (_, i) => Promise.all([pending(30 + i), pending(60 + i)])));
    // Each round: the request path's phase 3 (group-committed: one database transaction) settles A as
    // failed (its hold goes back to the wallet) and records B as still pending, while a callback fails
    // B (its wallet too). Before the lock order, each held what the other waited for.
    const phase3 = (txnId: string, outcome: Outcome) => submitOutcome(t, { txnId, requestId: `req_${txnId}`, partner: 'rzp', outcome, before: null });
    const results = await Promise.allSettled(
      pairs.flatMap(([a, b]) => [
        phase3(a.txnId, { status: 'failed', message: 'Declined', fields: {} }),
        phase3(b.txnId, { status: 'pending', message: 'Still with the bank', fields: {} }),
        t.services.settlement.apply({ txnId: b.txnId, partnerRef: b.payoutId, outcome: { status: 'failed', message: 'Declined', fields: {} } }, 'rzp', null),
      ]),
    );
    const failed = results.filter((r) => r.status === 'rejected');
    assert.deepEqual(failed.map((r) => String((r as PromiseRejectedResult).reason)), [], 'no deadlock, no error');
    assert.deepEqual(await walletOf(t, t.liveKey), before, 'every hold released exactly once');
    await assertLedgerHolds(t.store.db);
  });
});
