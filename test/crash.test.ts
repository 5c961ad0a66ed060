// The server is killed (SIGKILL) in the middle of live traffic and restarted, in the manner of Jepsen's
// bank workload: clients retry every payment with its own idempotency key until they get an answer.
// Afterwards no pending is lost, no payment is debited twice, the total is conserved and the ledger
// check is clean.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { openStore } from '../src/db/client.js';
import { sleep } from './harness.js';
import { assertLedgerHolds, freePort, liveStore, startSim } from './live-harness.js';

const SERVER = fileURLToPath(new URL('../src/server.js', import.meta.url));
const VPAS = ['success@sandbox', 'shop@okaxis', 'pending@sandbox', 'pendingfail@sandbox', 'failure@sandbox'];

describe('crash in the middle of live traffic', () => {
  it('SIGKILL and restart: nothing lost, nothing doubled, the ledger balances', async (tc) => {
    const START = 50_000_00;
    const { loc, key } = await liveStore('Jepsen Bank', START);
    const sim = await startSim({ latencyMs: 15, pendingMs: 300 });

    const port = await freePort();
    let base = `http://127.0.0.1:${port}`;
    const env = {
      ...process.env,
      DATABASE_URL: loc.databaseUrl ?? '',
      SANGAM_DATA_DIR: loc.dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      SANGAM_PUBLIC_URL: base,
      SANGAM_PARTNER_URL: sim.url,
      SANGAM_PARTNER_SECRET: sim.secret,
      SANGAM_PARTNER_TIMEOUT_MS: '1000',
      SANGAM_RECONCILE_SCHEDULE: '0.5,0.5',
      SANGAM_RECONCILE_POLL_MS: '100',
      SANGAM_RECONCILE_LEASE_S: '3', // an enquiry the killed server held is taken again within the test's wait
      SANGAM_IDEMPOTENCY_LOCK_MS: '3000',
      SANGAM_RATE_LIMIT_PER_SEC: '100000',
      SANGAM_RATE_LIMIT_BURST: '100000',
    };
    let server: ChildProcess | undefined;
    // On failure too: no child may outlive the test, or the test process never exits.
    tc.after(async () => {
      if (server?.exitCode === null) server.kill('SIGKILL');
      await sim.stop();
    });
    // Each start on a fresh port, and ready only when OUR child says it listens: a test running beside
    // this one may have taken the old port, and its server would answer /health in our stead.
    const start = async () => {
      const p = await freePort();
      base = `http://127.0.0.1:${p}`;
      Object.assign(env, { PORT: String(p), SANGAM_PUBLIC_URL: base });
      const child = fork(SERVER, [], { env, stdio: 'ignore' });
      server = child;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('server did not start')), 60_000);
        child.once('message', (m) => m === 'ready' && (clearTimeout(timer), resolve()));
        child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`server exited with ${code} before it was ready`))));
      });
    };
    await start();

    const answers = new Map<string, { amount: number; status: string }>();
    let retries = 0;
    // Clients retry until answered, but not forever: a server that never comes back fails the test
    // instead of leaving retry loops that keep the test process alive.
    const giveUpAt = Date.now() + 240_000;
    const lastAnswer = new Map<string, string>();
    const pay = async (i: number) => {
      const body = { reference_id: `jepsen-${i}`, consent: true, vpa: VPAS[i % VPAS.length], amount: 1 + (i % 40), idempotency_key: randomUUID() };
      while (Date.now() < giveUpAt) {
        try {
          const r = await fetch(`${base}/api/v1/upi-payment/upi-payment-status`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify(body),
            signal: AbortSignal.timeout(5000),
          });
          if (r.status === 200) {
            answers.set(body.reference_id, { amount: body.amount, status: ((await r.json()) as { data: { status: string } }).data.status });
            return;
          }
          lastAnswer.set(body.reference_id, `${r.status} ${(await r.text()).slice(0, 300)}`);
        } catch {
          // connection refused or reset: the server is down; try again with the same key
        }
        retries++;
        await sleep(50);
      }
    };
    const N = 120;
    let next = 0;
    const worker = async () => {
      while (next < N) await pay(next++);
    };
    const traffic = Promise.all(Array.from({ length: 8 }, worker));
    await sleep(700);
    server!.kill('SIGKILL');
    await new Promise((r) => server!.once('exit', r));
    await sleep(300);
    await start();
    await traffic;
    assert.equal(answers.size, N, `unanswered: ${JSON.stringify([...lastAnswer].filter(([ref]) => !answers.has(ref)))}`);
    assert.ok(retries > 0, 'the crash interrupted some requests');

    // Every pending reaches its final state (callbacks, or status enquiries after the crash).
    const finals = new Map<string, string>();
    const deadline = Date.now() + 90_000; // a bound, not a wait: the loop ends as soon as every pending is final
    while (finals.size < N && Date.now() < deadline) {
      for (const ref of answers.keys()) {
        if (finals.has(ref)) continue;
        const r = await fetch(`${base}/api/v1/transactions/${ref}`, { headers: { authorization: `Bearer ${key}` } });
        const s = ((await r.json()) as { data: { status: string } }).data.status;
        if (s !== 'pending') finals.set(ref, s);
      }
      await sleep(200);
    }
    assert.equal(finals.size, N, 'no pending is lost');
    const wallet = ((await (await fetch(`${base}/api/v1/account/wallet`, { headers: { authorization: `Bearer ${key}` } })).json()) as { data: { balance: number; held: number } }).data;
    server!.kill('SIGTERM');
    await new Promise((r) => server!.once('exit', r));
    await sim.stop();

    const check = await openStore({ databaseUrl: loc.databaseUrl, dataDir: loc.dataDir });
    try {
      const perRef = await check.db.selectFrom('transactions').select(['reference_id']).where('environment', '=', 'live').execute();
      const counts = new Map<string, number>();
      for (const r of perRef) counts.set(r.reference_id, (counts.get(r.reference_id) ?? 0) + 1);
      for (const [ref, n] of counts) assert.ok(n === 1, `${ref} has ${n} transactions`);
      let expected = 0;
      for (const [ref, s] of finals) if (s === 'success') expected += Math.round(answers.get(ref)!.amount * 100) + 100;
      assert.equal(wallet.held, 0);
      assert.ok(wallet.balance >= 0);
      assert.equal(START - Math.round(wallet.balance * 100), expected, 'the total is conserved');
      await assertLedgerHolds(check.db);
    } finally {
      await check.close();
      await loc.drop();
    }
  });
});
