// A pending operation is stored with its due time; it reaches its final state even if the process
// that created it stops before then (the finalizer of the next process settles it).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, freshStoreLocation, PATHS, sleep, startApp, VALID } from './harness.js';

describe('pending operations survive a restart', () => {
  it('pending → process stops → new process → final', async () => {
    const location = await freshStoreLocation();
    const first = await startApp({ SANGAM_SANDBOX_PENDING_MS: '400' }, location);
    const body = { ...VALID.upi(), vpa: 'pending@sandbox' };
    const r = await first.call('POST', PATHS.upi, { body });
    assert.equal(r.body.data.status, 'pending');
    const { key } = first;
    await first.stop();
    await sleep(500); // due while no process is running

    const second = await startApp({}, location, false);
    try {
      const settled = await eventually(async () => {
        const s = await second.call('GET', `/api/v1/transactions/${body.reference_id}`, { key });
        return s.body.data.status !== 'pending' && s;
      });
      assert.equal(settled.body.data.status, 'success');
      assert.equal(settled.body.data.txn_id, r.body.data.txn_id);
    } finally {
      await second.close();
    }
  });

  it('a settled pending never changes again, even if settled twice', async () => {
    // The test settles the pending itself: on a loaded machine the finalizer must not get there first.
    const t = await startApp({ SANGAM_SANDBOX_PENDING_MS: '600000' });
    try {
      const body = { ...VALID.recharge(), mobile: '9876540002' };
      await t.call('POST', PATHS.recharge, { body });
      const row = await t.store.db.selectFrom('transactions').select(['id', 'final_result']).where('reference_id', '=', body.reference_id).executeTakeFirstOrThrow();
      const final = row.final_result as never;
      const results = await Promise.all([1, 2, 3].map(() => t.store.db.transaction().execute((trx) => t.services.transactions.settle(trx, row.id, final))));
      assert.equal(results.filter(Boolean).length, 1);
      const again = await t.store.db.transaction().execute((trx) =>
        t.services.transactions.settle(trx, row.id, { status: 'failed', message: 'late conflicting answer', fields: {} }),
      );
      assert.equal(again, undefined, "a second settle changes nothing");
      const s = await t.call('GET', `/api/v1/transactions/${body.reference_id}`);
      assert.equal(s.body.data.status, 'success');
    } finally {
      await t.close();
    }
  });
});
