// Live batches against the partner simulator: a batch beyond the balance is refused whole (402/105);
// otherwise its total leaves the balance at submission and each row's hold takes its share over, a
// failed row's share coming back; and a server killed (SIGKILL) in the middle of a batch resumes it after
// restart with every row run exactly once (the partner saw each once, the wallet agrees, the ledger
// balances).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { openStore } from '../src/db/client.js';
import { checkLedger } from '../src/ledger/check.js';
import { eventually, freshStoreLocation } from './harness.js';
import { liveStore, ServerProcess, startLive, startSim } from './live-harness.js';

const FEE = 100; // upi-payment-status's default fee, in paise
const payments = (n: number, vpa: (i: number) => string = (i) => (i % 7 === 3 ? 'failure@sandbox' : 'success@sandbox')) =>
  Array.from({ length: n }, (_, i) => ({ reference_id: `lb-${randomUUID().slice(0, 8)}-${i + 1}`, consent: true, vpa: vpa(i), amount: 10 + (i % 5), idempotency_key: randomUUID() }));
const debit = (p: { amount: number }) => p.amount * 100 + FEE;

describe('live batches', () => {
  it('beyond the balance: 402/105 at once, nothing created; within it: held at submission, released row by row', async () => {
    const t = await startLive({ SANGAM_BATCH_POLL_MS: '50', SANGAM_BATCH_ROWS_IN_FLIGHT: '2' }, 100);
    try {
      const before = await t.wallet();
      const tooMuch = await t.call('POST', '/api/v1/batches', { key: t.liveKey, body: { operation: 'upi-payment-status', items: payments(10) } }); // ~₹130 of ₹100
      assert.equal(tooMuch.status, 402, tooMuch.text);
      assert.equal(tooMuch.body.data.Errorcode, 105);
      assert.deepEqual(await t.wallet(), before);
      const batches = await t.store.db.selectFrom('batches').select('id').execute();
      assert.equal(batches.length, 0, 'nothing was created');

      const rows = payments(6); // row 4 fails
      const total = rows.reduce((s, p) => s + debit(p), 0);
      const r = await t.call('POST', '/api/v1/batches', { key: t.liveKey, body: { operation: 'upi-payment-status', items: rows } });
      assert.equal(r.status, 200, r.text);
      // The whole total left the balance at once (a success's hold takes its share over; posting it
      // leaves the balance as it is).
      const held = await t.wallet();
      assert.equal(Math.round(held.balance * 100), 10_000 - total);
      const done = await eventually(async () => {
        const g = await t.call('GET', `/api/v1/batches/${r.body.data.id}`, { key: t.liveKey });
        return g.body.data.status === 'completed' && g.body.data;
      }, 30_000);
      assert.equal(done.counts.success, 5);
      assert.equal(done.counts.failed, 1);
      const after = await t.wallet();
      assert.equal(after.held, 0);
      assert.equal(Math.round(after.balance * 100), 10_000 - total + debit(rows[3]!), 'the failed row’s share came back');
      await t.assertLedger();
      const tx = await t.call('GET', `/api/v1/transactions/${rows[0]!.reference_id}`, { key: t.liveKey });
      assert.equal(tx.body.data.status, 'success');
      assert.equal(tx.body.data.environment, 'live');
    } finally {
      await t.close();
    }
  });

  it('kill -9 in the middle of a batch: it resumes after restart, each row run exactly once', async (tc) => {
    const START = 10_000_00;
    const { loc, key } = await liveStore('Batch Bank', START);
    const sim = await startSim({ latencyMs: 30, pendingMs: 300 });
    const server = new ServerProcess({
      DATABASE_URL: loc.databaseUrl ?? '',
      SANGAM_DATA_DIR: loc.dataDir,
      SANGAM_PARTNER_URL: sim.url,
      SANGAM_PARTNER_SECRET: sim.secret,
      SANGAM_PARTNER_TIMEOUT_MS: '2000',
      SANGAM_RECONCILE_SCHEDULE: '0.5,0.5',
      SANGAM_RECONCILE_POLL_MS: '100',
      SANGAM_RECONCILE_LEASE_S: '2',
      SANGAM_IDEMPOTENCY_LOCK_MS: '2000',
      SANGAM_BATCH_POLL_MS: '100',
      SANGAM_BATCH_LEASE_S: '2', // a batch the killed server held is taken again soon after the restart
      SANGAM_BATCH_ROWS_IN_FLIGHT: '4',
      SANGAM_RATE_LIMIT_PER_SEC: '100000',
      SANGAM_RATE_LIMIT_BURST: '100000',
      SANGAM_BATCH_LIVE_ROWS_PER_SEC: '10000',
    });
    tc.after(async () => {
      await server.kill();
      await sim.stop();
    });
    const api = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(`${server.base}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return (await r.json()) as { data: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    await server.start();
    const rows = payments(80, (i) => (i % 9 === 4 ? 'pending@sandbox' : i % 11 === 6 ? 'failure@sandbox' : 'success@sandbox'));
    const submitted = await api('POST', '/api/v1/batches', { operation: 'upi-payment-status', items: rows });
    const id = submitted.data.id as string;
    await eventually(async () => ((await api('GET', `/api/v1/batches/${id}`)).data.counts.success as number) >= 12, 30_000, 20);
    await server.kill();
    await server.start();
    const done = await eventually(async () => {
      const g = await api('GET', `/api/v1/batches/${id}`);
      return g.data.status === 'completed' && g.data;
    }, 120_000, 100);
    assert.equal(done.counts.total, 80);
    assert.equal(done.counts.pending, 0);
    const wallet = (await api('GET', '/api/v1/account/wallet')).data as { balance: number; held: number };
    await server.stop();

    const check = await openStore({ databaseUrl: loc.databaseUrl, dataDir: loc.dataDir });
    try {
      const txs = await check.db.selectFrom('transactions').select(['id', 'reference_id', 'status']).where('environment', '=', 'live').execute();
      const perRef = new Map<string, number>();
      for (const tx of txs) perRef.set(tx.reference_id, (perRef.get(tx.reference_id) ?? 0) + 1);
      assert.equal(perRef.size, 80, 'every row ran');
      for (const [ref, n] of perRef) assert.equal(n, 1, `${ref} has ${n} transactions`);
      const calls = await sim.calls();
      for (const tx of txs) assert.ok((calls[tx.id] ?? 0) <= 1, `${tx.reference_id} reached the partner ${calls[tx.id]} times`);
      const items = await check.db.selectFrom('batch_items').select(['reference_id', 'status']).where('batch_id', '=', id).execute();
      const byRef = new Map(txs.map((tx) => [tx.reference_id, tx.status]));
      for (const item of items) assert.equal(item.status, byRef.get(item.reference_id!), `row ${item.reference_id}: the batch and the transaction agree`);
      const finals = (status: string) => items.filter((i) => i.status === status).length;
      assert.deepEqual([done.counts.success, done.counts.failed], [finals('success'), finals('failed')], "the batch's counts, across the kill, are its rows'");
      const spent = rows.filter((p) => byRef.get(p.reference_id) === 'success').reduce((s, p) => s + debit(p), 0);
      assert.equal(wallet.held, 0);
      assert.equal(START - Math.round(wallet.balance * 100), spent, 'the wallet paid for the successes only, once each');
      const ledger = await checkLedger(check.db);
      assert.ok(ledger.ok, ledger.breaches.join('\n'));
    } finally {
      await check.close();
      await loc.drop();
    }
  });
});
