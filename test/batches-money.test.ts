// Money first (issue #37), on the store the suite runs on, against the partner simulator: every way a
// live batch row can end without spending gives back exactly its share of the batch's hold (cancelled
// at once, stopped by on_error=stop after a failure, refused when it runs), so the wallet's balance plus
// held moves by exactly what ran and `sangam ledger check` holds after each; and a reference_id names
// one transaction (CONTRACT §5): reused with a new idempotency key it is 409/114 and moves no money,
// two requests taking one reference at once execute one, and a batch row reusing one fails alone.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { eventually } from './harness.js';
import { startLive, type LiveApp } from './live-harness.js';

const FEE = 100; // upi-payment-status's default fee, in paise
const payout = (vpa: string, amount: number) => ({ reference_id: `bm-${randomUUID().slice(0, 12)}`, consent: true, vpa, amount, idempotency_key: randomUUID() });
const debit = (p: { amount: number }) => Math.round(p.amount * 100) + FEE;
const paise = (w: { balance: number; held: number }) => Math.round(w.balance * 100) + Math.round(w.held * 100);

/** The batch once it has ended with every row final. */
async function ended(t: LiveApp, id: string) {
  return eventually(async () => {
    const r = await t.call('GET', `/api/v1/batches/${id}`, { key: t.liveKey });
    return ['completed', 'cancelled', 'failed'].includes(r.body.data.status) && r.body.data.counts.pending === 0 && r.body.data;
  }, 60_000);
}

/** The rows' statuses by reference, read through the API. */
async function statuses(t: LiveApp, id: string): Promise<Map<string, string>> {
  const r = await t.call('GET', `/api/v1/batches/${id}/items?limit=1000`, { key: t.liveKey });
  return new Map((r.body.data.items as Array<{ reference_id: string; status: string }>).map((i) => [i.reference_id, i.status]));
}

/** What the rows that succeeded cost: a failed payout is free (its hold is voided), anything not run costs nothing. */
async function spentBy(t: LiveApp, id: string, rows: Array<{ reference_id: string; amount: number }>): Promise<number> {
  const by = await statuses(t, id);
  return rows.filter((p) => by.get(p.reference_id) === 'success').reduce((s, p) => s + debit(p), 0);
}

const submit = (t: LiveApp, body: Record<string, unknown>) => t.call('POST', '/api/v1/batches', { key: t.liveKey, body });

describe('live batches give back what their rows never spend', () => {
  it('cancelled at once: the rows not run give back their share; balance + held moves by exactly what ran', async () => {
    // A slow partner pace, so that the cancel finds most rows waiting for it.
    const t = await startLive({ SANGAM_BATCH_POLL_MS: '50', SANGAM_BATCH_LIVE_ROWS_PER_SEC: '5' }, 1_000);
    try {
      const start = paise(await t.wallet());
      const rows = Array.from({ length: 300 }, () => payout('success@sandbox', 1));
      const r = await submit(t, { operation: 'upi-payment-status', items: rows });
      assert.equal(r.status, 200, r.text);
      assert.equal(paise(await t.wallet()), start, 'the hold is part of held: balance + held is unchanged at submission');
      const c = await t.call('POST', `/api/v1/batches/${r.body.data.id}/cancel`, { key: t.liveKey });
      assert.equal(c.status, 200, c.text);
      const done = await ended(t, r.body.data.id);
      assert.equal(done.status, 'cancelled');
      assert.ok(done.counts.cancelled > 250, `most rows were not run (${JSON.stringify(done.counts)})`);
      const spent = await spentBy(t, r.body.data.id, rows);
      assert.equal(spent, done.counts.success * debit(rows[0]!));
      const after = await t.wallet();
      assert.equal(after.held, 0, 'nothing stays held');
      assert.equal(paise(after), start - spent, 'the wallet moved by exactly what ran');
      await t.assertLedger();
    } finally {
      await t.close();
    }
  });

  it('on_error=stop after a failed first row: the failure is free, the rows after it give back their share', async () => {
    const t = await startLive({ SANGAM_BATCH_POLL_MS: '50', SANGAM_BATCH_LIVE_ROWS_PER_SEC: '1000' }, 1_000);
    try {
      const start = paise(await t.wallet());
      const rows = [payout('failure@sandbox', 70), payout('success@sandbox', 70), payout('success@sandbox', 70), payout('success@sandbox', 70)];
      const r = await submit(t, { operation: 'upi-payment-status', items: rows, on_error: 'stop' });
      assert.equal(r.status, 200, r.text);
      const done = await ended(t, r.body.data.id);
      assert.equal(done.status, 'failed');
      assert.deepEqual([done.counts.failed, done.counts.cancelled, done.counts.success], [1, 3, 0]);
      const after = await t.wallet();
      assert.equal(after.held, 0);
      assert.equal(paise(after), start, 'nothing was spent: ₹0 lower, not ₹213');
      await t.assertLedger();
    } finally {
      await t.close();
    }
  });

  it('a row refused when it runs (its consent does not cover the operation) gives back its share', async () => {
    const t = await startLive({ SANGAM_BATCH_POLL_MS: '50', SANGAM_BATCH_LIVE_ROWS_PER_SEC: '1000' }, 1_000);
    try {
      const consent = await t.call('POST', '/api/v1/consents', {
        key: t.liveKey,
        body: {
          subject: { mobile: '9876543210' },
          purpose: { code: 'recharge', text: 'Recharge my phone' },
          operations: ['recharge-commission'],
          notice: { version: 'v1', language: 'en', text: 'We will recharge your phone.' },
        },
      });
      assert.equal(consent.status, 200, consent.text);
      const start = paise(await t.wallet());
      const refused = { ...payout('success@sandbox', 90), consent_id: consent.body.data.id };
      const paid = payout('success@sandbox', 5);
      const r = await submit(t, { operation: 'upi-payment-status', items: [refused, paid] });
      assert.equal(r.status, 200, r.text);
      const done = await ended(t, r.body.data.id);
      assert.deepEqual([done.counts.failed, done.counts.success], [1, 1]);
      const items = (await t.call('GET', `/api/v1/batches/${r.body.data.id}/items`, { key: t.liveKey })).body.data.items;
      assert.equal(items[0].http_status, 422);
      assert.equal(items[0].result.Errorcode, 104, 'the row failed its consent check (422)');
      const after = await t.wallet();
      assert.equal(after.held, 0);
      assert.equal(paise(after), start - debit(paid), 'only the row that ran was paid for: ₹91 came back');
      await t.assertLedger();
    } finally {
      await t.close();
    }
  });
});

describe('a reference_id names one transaction (CONTRACT §5)', () => {
  it('reused with a fresh idempotency key: 409/114 naming the transaction, nothing executed, nothing debited', async () => {
    const t = await startLive({}, 1_000);
    try {
      const first = payout('success@sandbox', 10);
      const a = await t.call('POST', '/api/v1/upi-payment/upi-payment-status', { key: t.liveKey, body: first });
      assert.equal(a.status, 200, a.text);
      const txnId = a.body.data.txn_id;
      const paid = await t.wallet();
      const again = await t.call('POST', '/api/v1/upi-payment/upi-payment-status', { key: t.liveKey, body: { ...first, amount: 20, idempotency_key: randomUUID() } });
      assert.equal(again.status, 409, again.text);
      assert.equal(again.body.data.Errorcode, 114);
      assert.equal(again.body.data.txn_id, txnId);
      assert.equal(again.body.data.errors[0].field, 'reference_id');
      assert.deepEqual(await t.wallet(), paid, 'no money moved');
      // The idempotency rules answer first: the same key and payload is a replay, not a 409.
      const replay = await t.call('POST', '/api/v1/upi-payment/upi-payment-status', { key: t.liveKey, body: first });
      assert.equal(replay.status, 200);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      // Another operation cannot take the reference either.
      const dth = await t.call('POST', '/api/v1/dth/dth-recharge', { key: t.liveKey, body: { reference_id: first.reference_id, consent: true, subscriber_id: '1234567890', operator: 'TS', amount: 100 } });
      assert.equal(dth.status, 409, dth.text);
      assert.equal(dth.body.data.Errorcode, 114);
      const tx = await t.call('GET', `/api/v1/transactions/${first.reference_id}`, { key: t.liveKey });
      assert.equal(tx.body.data.txn_id, txnId, 'the reference still names the first transaction');
      assert.equal(tx.body.data.amount, 10);
      await t.assertLedger();
    } finally {
      await t.close();
    }
  });

  it('two requests with one reference and different keys at once: one executes, the other is 409/114', async () => {
    const t = await startLive({}, 1_000);
    try {
      const start = paise(await t.wallet());
      const ref = `race-${randomUUID().slice(0, 8)}`;
      const body = () => ({ reference_id: ref, consent: true, vpa: 'success@sandbox', amount: 10, idempotency_key: randomUUID() });
      const answers = await Promise.all(Array.from({ length: 6 }, () => t.call('POST', '/api/v1/upi-payment/upi-payment-status', { key: t.liveKey, body: body() })));
      const ok = answers.filter((a) => a.status === 200);
      const taken = answers.filter((a) => a.status === 409 && a.body.data.Errorcode === 114);
      assert.equal(ok.length, 1, answers.map((a) => a.text).join('\n'));
      assert.equal(taken.length, 5);
      for (const a of taken) assert.equal(a.body.data.txn_id, ok[0]!.body.data.txn_id);
      const rows = await t.store.db.selectFrom('transactions').select('id').where('reference_id', '=', ref).execute();
      assert.equal(rows.length, 1, 'one transaction');
      // The losers' keys were claimed and let go: no key is bound to a transaction that does not exist.
      const orphans = await t.store.db
        .selectFrom('idempotency_keys as k')
        .leftJoin('transactions as tx', 'tx.id', 'k.txn_id')
        .select('k.key')
        .where('k.txn_id', 'is not', null)
        .where('tx.id', 'is', null)
        .execute();
      assert.deepEqual(orphans, []);
      assert.equal(paise(await t.wallet()), start - 1_100, 'one debit');
      await t.assertLedger();
    } finally {
      await t.close();
    }
  });

  it('a batch row reusing a reference fails alone (409/114) and gives back its share', async () => {
    const t = await startLive({ SANGAM_BATCH_POLL_MS: '50', SANGAM_BATCH_LIVE_ROWS_PER_SEC: '1000' }, 1_000);
    try {
      const used = payout('success@sandbox', 10);
      assert.equal((await t.call('POST', '/api/v1/upi-payment/upi-payment-status', { key: t.liveKey, body: used })).status, 200);
      const start = paise(await t.wallet());
      const fresh = payout('success@sandbox', 5);
      const r = await submit(t, { operation: 'upi-payment-status', items: [{ ...used, idempotency_key: randomUUID(), amount: 30 }, fresh] });
      assert.equal(r.status, 200, r.text);
      const done = await ended(t, r.body.data.id);
      assert.deepEqual([done.counts.failed, done.counts.success], [1, 1]);
      const items = (await t.call('GET', `/api/v1/batches/${r.body.data.id}/items`, { key: t.liveKey })).body.data.items;
      assert.equal(items[0].http_status, 409);
      assert.equal(items[0].result.Errorcode, 114);
      assert.equal(paise(await t.wallet()), start - debit(fresh));
      await t.assertLedger();
    } finally {
      await t.close();
    }
  });
});
