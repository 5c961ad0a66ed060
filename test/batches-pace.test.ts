// Batch rows keep to the account's rate limit (issue #37: under a 2/s, burst-5 limit, 200 rows of one
// batch used to run within 8 s, because a chunk took its tokens on credit), the batch's counts follow
// its rows as they run, and background steps give the thread back to interactive work between slices
// (cooperative.ts), so one tenant's CPU-heavy rows never hold another tenant's requests for long.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { turn } from '../src/cooperative.js';
import { eventually, startApp, uuid, type TestApp } from './harness.js';

const names = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ reference_id: `bp-${i + 1}-${uuid().slice(0, 8)}`, consent: true, name_1: 'Priya Sharma', name_2: 'PRIYA SHARMA' }));

describe('batch rows keep to the account rate limit', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp({ SANGAM_BATCH_POLL_MS: '50' });
    await t.store.db.updateTable('accounts').set({ rate_limit_per_sec: 2, rate_limit_burst: 5 }).where('id', '=', t.accountId).execute();
  });
  after(() => t.close());

  it('12 rows at 2 a second with bursts of 5: never faster than the limit, and the counts follow the rows', async () => {
    const rows = names(12);
    const r = await t.call('POST', '/api/v1/batches', { body: { operation: 'name-match', items: rows } });
    assert.equal(r.status, 200, r.text);
    const seen = new Set<number>();
    await eventually(async () => {
      const g = await t.call('GET', `/api/v1/batches/${r.body.data.id}`);
      if (g.status === 429) return false; // the key's own limit is 2 a second too
      const b = g.body.data;
      seen.add(b.counts.success);
      return b.status === 'completed';
    }, 60_000);
    assert.ok([...seen].some((n) => n > 0 && n < 12), `the counts moved while the rows ran: ${[...seen].join(', ')}`);
    // The limiter's guarantee, not a timing: 5 rows at once, then 7 more at 2 a second take at least 3.5 s.
    const made = await t.store.db.selectFrom('transactions').select('created_at').where('reference_id', 'in', rows.map((x) => x.reference_id)).execute();
    const times = made.map((m) => m.created_at.getTime()).sort((a, b) => a - b);
    assert.equal(times.length, 12);
    assert.ok(times.at(-1)! - times[0]! >= 3_000, `the rows ran over ${times.at(-1)! - times[0]!} ms`);
  });
});

describe('a server stopped while a batch waits for its pace', () => {
  it('leaves the batch running with its rows queued, and the next server runs every row (CONTRACT §12)', async () => {
    const env = { SANGAM_BATCH_POLL_MS: '50' };
    const t = await startApp(env);
    await t.store.db.updateTable('accounts').set({ rate_limit_per_sec: 1, rate_limit_burst: 1 }).where('id', '=', t.accountId).execute();
    // on_error=stop: one row at a time, so the worker paces with no row in flight.
    const r = await t.call('POST', '/api/v1/batches', { body: { operation: 'name-match', items: names(4), on_error: 'stop' } });
    assert.equal(r.status, 200, r.text);
    const id = r.body.data.id as string;
    const items = (db: TestApp['store']['db']) => db.selectFrom('batch_items').select('status').where('batch_id', '=', id).orderBy('row_no').execute();
    await eventually(async () => (await items(t.store.db)).some((i) => i.status === 'success'));
    // Another batch of the account takes every token as it comes (a replica beside this one): the
    // worker is still waiting for its pace when the server stops.
    const limits = { perSec: 1, burst: 1 };
    const drain = setInterval(() => void t.services.rateLimiter.bucket(`batch:${t.accountId}:sandbox:1:1`, limits, 1), 10);
    try {
      await t.stop();
    } finally {
      clearInterval(drain);
    }
    const u = await startApp(env, t.location, false);
    try {
      const batch = await u.store.db.selectFrom('batches').select('status').where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal(batch.status, 'running', 'not ended by the stop');
      assert.ok(!(await items(u.store.db)).some((i) => i.status === 'cancelled'), 'no row cancelled by the stop');
      await eventually(async () => (await u.store.db.selectFrom('batches').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status === 'completed', 30_000);
      assert.deepEqual((await items(u.store.db)).map((i) => i.status), ['success', 'success', 'success', 'success']);
    } finally {
      await u.close();
    }
  });
});

describe('cooperative turns', () => {
  it('background steps that hold the thread let a waiting timer run before they are all done', async () => {
    const busy = (ms: number) => {
      const end = performance.now() + ms;
      while (performance.now() < end);
    };
    const order: string[] = [];
    let timerRan = false;
    setTimeout(() => {
      timerRan = true;
      order.push('timer');
    }, 0);
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        await turn();
        busy(3);
        order.push(`step ${i}`);
      }),
    );
    assert.ok(timerRan);
    assert.ok(order.indexOf('timer') < order.length - 1, `the timer ran between the steps: ${order.join(', ')}`);
  });
});
