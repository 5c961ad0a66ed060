// CONTRACT §5 through HTTP: replays, mismatches, and concurrent duplicates that execute once.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PATHS, startApp, uuid, VALID, type TestApp } from './harness.js';

describe('idempotency', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  const count = async (referenceId: string) =>
    (await t.store.db.selectFrom('transactions').select('id').where('reference_id', '=', referenceId).execute()).length;

  it('same key, same payload: the first response is replayed byte for byte, marked, executed once', async () => {
    const body = VALID.upi();
    const first = await t.call('POST', PATHS.upi, { body });
    assert.equal(first.headers['idempotent-replayed'], undefined);
    const again = await t.call('POST', PATHS.upi, { body: { ...body } });
    assert.equal(again.status, first.status);
    assert.equal(again.text, first.text);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(await count(body.reference_id), 1);
  });

  it('the replay does not depend on key order or on GET vs POST', async () => {
    const body = VALID.upi();
    const first = await t.call('POST', PATHS.upi, { body });
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await t.call('GET', PATHS.upi, { body: reordered });
    assert.equal(again.text, first.text);
  });

  it('same key, different payload: 422 / 107, nothing executed', async () => {
    const body = VALID.upi();
    await t.call('POST', PATHS.upi, { body });
    const r = await t.call('POST', PATHS.upi, { body: { ...body, amount: 999 } });
    assert.equal(r.status, 422);
    assert.equal(r.body.data.Errorcode, 107);
    assert.equal(await count(body.reference_id), 1);
  });

  it('a business failure is replayed too', async () => {
    const body = { ...VALID.upi(), vpa: 'failure@sandbox' };
    const first = await t.call('POST', PATHS.upi, { body });
    const again = await t.call('POST', PATHS.upi, { body });
    assert.equal(first.body.data.status, 'failed');
    assert.equal(again.text, first.text);
  });

  it('a validation failure is not stored: the key stays usable', async () => {
    const body = VALID.upi();
    const bad = await t.call('POST', PATHS.upi, { body: { ...body, amount: -1 } });
    assert.equal(bad.status, 422);
    const good = await t.call('POST', PATHS.upi, { body });
    assert.equal(good.status, 200);
    assert.equal(good.headers['idempotent-replayed'], undefined);
  });

  it('keys are scoped per operation and per account', async () => {
    const key = uuid();
    const upi = await t.call('POST', PATHS.upi, { body: { ...VALID.upi(), idempotency_key: key } });
    const rc = await t.call('POST', PATHS.recharge, { body: { ...VALID.recharge(), idempotency_key: key } });
    assert.equal(upi.status, 200);
    assert.equal(rc.status, 200);
    assert.equal(rc.headers['idempotent-replayed'], undefined);
  });

  it('a recharge without a key executes once per reference (then 409/114); with a key, replayed', async () => {
    const body = VALID.recharge();
    const first = await t.call('POST', PATHS.recharge, { body });
    const second = await t.call('POST', PATHS.recharge, { body });
    assert.equal(second.status, 409, second.text);
    assert.equal(second.body.data.Errorcode, 114);
    assert.equal(second.body.data.txn_id, first.body.data.txn_id);
    assert.equal(await count(body.reference_id), 1);
    const keyed = { ...VALID.recharge(), idempotency_key: 'order-778' };
    await t.call('POST', PATHS.recharge, { body: keyed });
    const r = await t.call('POST', PATHS.recharge, { body: keyed });
    assert.equal(r.headers['idempotent-replayed'], 'true');
    assert.equal(await count(keyed.reference_id), 1);
  });

  it('verification operations are keyed by reference_id', async () => {
    const body = VALID.signature();
    const first = await t.call('POST', PATHS.signature, { body });
    const again = await t.call('POST', PATHS.signature, { body });
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.text, first.text);
    const other = await t.call('POST', PATHS.signature, { body: { ...body, name: 'Someone Else' } });
    assert.equal(other.status, 422);
    assert.equal(other.body.data.Errorcode, 107);
  });

  it('a replayed Aadhaar download gets its photo back', async () => {
    const body = VALID.aadhaar();
    const first = await t.call('POST', PATHS.aadhaar, { body });
    const again = await t.call('POST', PATHS.aadhaar, { body });
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.body, first.body);
  });

  it('20 concurrent identical requests: one execution; the rest replay or get 409 / 106', async () => {
    const body = { ...VALID.upi(), vpa: 'pending@sandbox' };
    const all = await Promise.all(Array.from({ length: 20 }, () => t.call('POST', PATHS.upi, { body })));
    const fresh = all.filter((r) => r.status === 200 && r.headers['idempotent-replayed'] === undefined);
    const replays = all.filter((r) => r.status === 200 && r.headers['idempotent-replayed'] === 'true');
    const conflicts = all.filter((r) => r.status === 409);
    assert.equal(fresh.length, 1);
    assert.equal(fresh.length + replays.length + conflicts.length, 20);
    for (const c of conflicts) assert.equal(c.body.data.Errorcode, 106);
    for (const r of replays) assert.equal(r.body.data.txn_id, fresh[0]!.body.data.txn_id);
    assert.equal(await count(body.reference_id), 1);
  });

  it('a claim left by a crashed request is taken over once its lock expires', async () => {
    const body = VALID.upi();
    const { requestHash } = await import('../src/idempotency/store.js');
    const { idempotency_key, ...payload } = body;
    await t.store.db
      .insertInto('idempotency_keys')
      .values({ account_id: t.accountId, environment: 'sandbox', operation: 'upi-payment-status', key: idempotency_key, request_hash: requestHash(payload), status: 'in_flight', locked_until: new Date(Date.now() + 60_000) })
      .execute();
    const busy = await t.call('POST', PATHS.upi, { body });
    assert.equal(busy.status, 409);
    await t.store.db.updateTable('idempotency_keys').set({ locked_until: new Date(Date.now() - 1) }).where('key', '=', idempotency_key).execute();
    const taken = await t.call('POST', PATHS.upi, { body });
    assert.equal(taken.status, 200);
    assert.equal(await count(body.reference_id), 1);
  });
});

describe('idempotency retention', () => {
  it('purges completed keys older than the retention, and only those', async () => {
    const t = await startApp();
    try {
      const old = VALID.upi();
      const fresh = VALID.upi();
      await t.call('POST', PATHS.upi, { body: old });
      await t.call('POST', PATHS.upi, { body: fresh });
      await t.store.db.updateTable('idempotency_keys').set({ created_at: new Date(Date.now() - 25 * 3_600_000) } as never).where('key', '=', old.idempotency_key).execute();
      assert.equal(await t.services.idempotency.purge(24 * 3_600_000), 1);
      const again = await t.call('POST', PATHS.upi, { body: fresh });
      assert.equal(again.headers['idempotent-replayed'], 'true');
    } finally {
      await t.close();
    }
  });
});
