// Group commit (db/group-commit.ts, operations/recorder.ts): concurrent requests share transactions,
// each is answered only once its own rows are stored, duplicates inside one batch execute once, and
// one failing item does not fail the others of its batch.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Gate, GroupCommit } from '../src/db/group-commit.js';
import { PATHS, startApp, VALID, type TestApp } from './harness.js';

describe('GroupCommit', () => {
  it('writes concurrent submissions in fewer batches, answering each caller its own result', async () => {
    const batches: number[][] = [];
    const gc = new GroupCommit<number, number>(async (items) => {
      batches.push(items);
      await new Promise((r) => setTimeout(r, 5));
      return items.map((i) => i * 10);
    });
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => gc.submit(i)));
    assert.deepEqual(results, Array.from({ length: 50 }, (_, i) => i * 10));
    assert.ok(batches.length < 50, `expected batching, got ${batches.length} batches`);
    assert.deepEqual(batches.flat().sort((a, b) => a - b), Array.from({ length: 50 }, (_, i) => i));
  });

  it('a failing item fails only its own caller: the batch is retried one item at a time', async () => {
    const gc = new GroupCommit<number, number>(async (items) => {
      await new Promise((r) => setTimeout(r, 1));
      if (items.includes(7)) throw new Error('item 7 is bad');
      return items;
    });
    const settled = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => gc.submit(i)));
    settled.forEach((s, i) => {
      if (i === 7) assert.equal(s.status, 'rejected');
      else assert.deepEqual(s, { status: 'fulfilled', value: i });
    });
  });

  it('items behind a closed gate wait while others are written; once it opens they go in one batch, after interactive ones', async () => {
    const batches: number[][] = [];
    let wrote: () => void = () => {};
    const gc = new GroupCommit<number, number>(async (items) => {
      batches.push(items);
      wrote();
      return items;
    });
    const written = (n: number) => new Promise<void>((r) => (wrote = () => batches.length >= n && r()));
    const gate = new Gate();
    const held = [1, 2, 3].map((i) => gc.submit(i, gate));
    // An interactive item and an ungated background one are written while the gate is closed.
    const first = written(1);
    const others = [gc.submit(10), gc.submit(20, 'background')];
    await first;
    assert.deepEqual(await Promise.all(others), [10, 20]);
    assert.deepEqual(batches, [[10, 20]]);
    // Once the gate opens, everything behind it is written together, an interactive item first.
    const second = written(2);
    const late = gc.submit(30);
    gate.open();
    await second;
    assert.deepEqual(await Promise.all([...held, late]), [1, 2, 3, 30]);
    assert.deepEqual(batches[1], [30, 1, 2, 3]);
    // An open gate holds nothing back.
    assert.equal(await gc.submit(4, gate), 4);
  });
});

describe('sandbox records under group commit', () => {
  let t: TestApp;
  // The pendings here are settled by the tests themselves: on a loaded machine the finalizer must not get there first.
  before(async () => (t = await startApp({ SANGAM_SANDBOX_PENDING_MS: '600000' })));
  after(() => t.close());

  it('a burst of distinct and duplicate requests: every distinct one recorded once, duplicates replay it, every call audited', async () => {
    const distinct = Array.from({ length: 30 }, () => VALID.upi());
    const dup = VALID.upi();
    const calls = [...distinct.map((body) => t.call('POST', PATHS.upi, { body })), ...Array.from({ length: 10 }, () => t.call('POST', PATHS.upi, { body: dup }))];
    const all = await Promise.all(calls);
    for (const r of all.slice(0, 30)) {
      assert.equal(r.status, 200);
      assert.equal(r.headers['idempotent-replayed'], undefined);
    }
    const dups = all.slice(30);
    const txnIds = new Set(dups.filter((r) => r.status === 200).map((r) => r.body.data.txn_id));
    assert.equal(txnIds.size, 1, 'every duplicate answered from one execution');
    assert.equal(dups.filter((r) => r.status === 200 && r.headers['idempotent-replayed'] === undefined).length, 1);
    for (const r of dups.filter((r) => r.status !== 200)) assert.equal(r.body.data.Errorcode, 106);

    const refs = [...distinct, dup].map((b) => b.reference_id);
    const rows = await t.store.db.selectFrom('transactions').select('reference_id').where('reference_id', 'in', refs).execute();
    assert.equal(rows.length, 31);
    const keys = await t.store.db.selectFrom('idempotency_keys').select(['key', 'status']).where('key', 'in', [...distinct, dup].map((b) => b.idempotency_key)).execute();
    assert.equal(keys.length, 31);
    assert.ok(keys.every((k) => k.status === 'done'));
    const ids = all.map((r) => String(r.headers['x-request-id']));
    const audited = await t.store.db.selectFrom('audit_logs').select('request_id').where('request_id', 'in', ids).execute();
    assert.equal(audited.length, 40);
  });

  it('settling several transactions of one account at once writes one event each, delivered once to each endpoint', async () => {
    const { createEndpoint } = await import('../src/webhooks/store.js');
    const scope = { accountId: t.accountId, environment: 'sandbox' as const };
    await createEndpoint(t.store.db, scope, 'https://hooks.example.com/a', null);
    await createEndpoint(t.store.db, scope, 'https://hooks.example.com/b', ['transaction.success']);
    const bodies = Array.from({ length: 3 }, () => ({ ...VALID.upi(), vpa: 'pending@sandbox' }));
    for (const body of bodies) assert.equal((await t.call('POST', PATHS.upi, { body })).status, 200);
    const rows = await t.store.db.selectFrom('transactions').select('id').where('reference_id', 'in', bodies.map((b) => b.reference_id)).execute();
    const final = { status: 'success' as const, message: 'done', fields: {} };
    const settled = await t.store.db.transaction().execute((trx) => t.services.transactions.settleMany(trx, rows.map((r) => ({ id: r.id, final }))));
    assert.equal(settled.size, 3);
    const events = await t.store.db.selectFrom('webhook_events').select('id').where('txn_id', 'in', rows.map((r) => r.id)).execute();
    assert.equal(events.length, 3);
    const deliveries = await t.store.db.selectFrom('webhook_deliveries').select(['event_id', 'endpoint_id']).where('event_id', 'in', events.map((e) => e.id)).execute();
    assert.equal(deliveries.length, 6, 'two endpoints × three events, none twice');
    assert.equal(new Set(deliveries.map((d) => `${d.event_id}/${d.endpoint_id}`)).size, 6);
  });
});
