// A live call's outcome written alone (issue #42): phase 3 of a call on a quiet server goes in one
// statement with no transaction around it (live-runner.ts `alone`). What it writes must be what the
// group commit's transaction writes for the same outcome, and a row that a callback changed while the
// partner call was out must be left to the transaction's path, with nothing of the lone attempt kept.
// Phase 3 is driven through the service's own group commit on transactions the HTTP surface made
// pending, against the real store and the reference simulator.
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { sql } from 'kysely';
import type { FinalOutcome, Outcome } from '../src/providers/connector.js';
import { eventually, PATHS, VALID } from './harness.js';
import { startLive, startSim, submitOutcome, type LiveApp, type Sim } from './live-harness.js';

describe('a live outcome written alone', () => {
  let t: LiveApp;
  let sim: Sim;
  before(async () => {
    // The simulator's own callbacks come long after these tests: phase 3 is theirs to drive.
    sim = await startSim({ pendingMs: 600_000 });
    t = await startLive({ SANGAM_WEBHOOK_ALLOW_PRIVATE: '1', SANGAM_RECONCILE_SCHEDULE: '600' }, 10_000, sim);
    const hook = await t.call('POST', '/api/v1/webhook-endpoints', { key: t.liveKey, body: { url: 'https://127.0.0.1:9/hooks' } });
    assert.equal(hook.status, 200, JSON.stringify(hook.body));
  });
  after(async () => {
    await t.close();
    await sim.stop();
  });
  afterEach(() => t.assertLedger());

  /** A live UPI payment left pending at the partner, and its row and result as now stored. */
  async function pendingPayment(amount: number) {
    const r = await t.call('POST', PATHS.upi, { key: t.liveKey, body: { ...VALID.upi(), vpa: 'pending@sandbox', amount } });
    assert.equal(r.body.statuscode, 'TUP');
    const txnId = r.body.data.txn_id as string;
    const stored = await sql<{ id: string; account_id: string; environment: 'live'; operation: string; reference_id: string; status: 'pending'; created_at: Date; result: string }>`
      SELECT id, account_id, environment, operation, reference_id, status, created_at, result::text AS result FROM transactions WHERE id = ${txnId}`.execute(t.store.db);
    const { result, ...row } = stored.rows[0]!;
    return { txnId, before: { row: { ...row, result: JSON.parse(result) as Record<string, unknown> }, stored: result } };
  }

  /** Phase 3 of `txnId` through the service's group commit: alone when `before` is given, else in its transaction. */
  const phase3 = (txnId: string, outcome: Outcome, before: Awaited<ReturnType<typeof pendingPayment>>['before'] | null) =>
    submitOutcome(t, { txnId, requestId: `req_p3_${txnId}`, partner: 'primary', outcome, before });

  /** Everything phase 3 wrote about `txnId`, with ids and times left out so two transactions compare. */
  async function written(txnId: string) {
    const { db } = t.store;
    const tx = await db.selectFrom('transactions').select(['status', 'result', 'partner', 'partner_ref', 'next_check_at', 'due_at', 'verified_at']).where('id', '=', txnId).executeTakeFirstOrThrow();
    const { reference_id: _r, txn_id: _t, verified_at: _v, ...result } = tx.result as Record<string, unknown>;
    const legs = await db.selectFrom('ledger_entries').select(['ledger_account', 'amount_paise', 'kind']).where('posting_id', '=', txnId).orderBy('ledger_account').execute();
    const hold = await db.selectFrom('holds').select(['status', 'amount_paise']).where('txn_id', '=', txnId).executeTakeFirstOrThrow();
    const events = await db.selectFrom('webhook_events').select(['type', 'payload']).where('txn_id', '=', txnId).execute();
    const history = await db.selectFrom('partner_events').select(['kind', 'status', 'partner']).where('txn_id', '=', txnId).orderBy('id').execute();
    const audit = await db.selectFrom('audit_logs').select(['http_status', 'statuscode', 'ok']).where('request_id', '=', `req_p3_${txnId}`).execute();
    return {
      status: tx.status,
      result,
      partner: tx.partner,
      pendingLeft: { next_check: tx.next_check_at !== null, due: tx.due_at !== null },
      verified: tx.verified_at !== null,
      legs: legs.map((l) => [l.ledger_account.replace(t.accountId, 'ACCOUNT'), Number(l.amount_paise), l.kind]),
      hold: { status: hold.status, amount_paise: Number(hold.amount_paise) },
      events: events.map((e) => {
        const { data, type } = JSON.parse(e.payload) as { type: string; data: Record<string, unknown> };
        return { type: e.type, payloadType: type, status: data.status, utr: data.utr, operation: data.operation };
      }),
      history: history.map((h) => `${h.kind}:${h.status ?? ''}:${h.partner ?? ''}`),
      audit,
    };
  }

  for (const final of [
    { status: 'success', message: 'Paid', fields: { utr: '424242424242' } },
    { status: 'failed', message: 'Declined by the bank', fields: {} },
  ] as FinalOutcome[]) {
    it(`writes what the transaction's path writes: ${final.status}`, async () => {
      const start = await t.wallet();
      const alone = await pendingPayment(120);
      const inTransaction = await pendingPayment(120);
      const a = await phase3(alone.txnId, final, alone.before);
      const b = await phase3(inTransaction.txnId, final, null);
      assert.equal(a.row.status, final.status);
      const strip = (body: string) => {
        const { data, ...env } = JSON.parse(body) as { data: Record<string, unknown> };
        const { reference_id: _r, txn_id: _t, verified_at: _v, request_id: _q, ...rest } = data;
        return { ...env, data: rest };
      };
      assert.deepEqual(strip(a.body), strip(b.body), 'the same answer');
      const wa = await written(alone.txnId);
      assert.deepEqual(wa, await written(inTransaction.txnId), 'the same rows');
      assert.equal(wa.status, final.status);
      assert.equal(wa.events.length, 1, 'one webhook event');
      assert.equal(wa.audit.length, 1, 'one audit row');
      assert.deepEqual(wa.legs.length > 0, final.status === 'success', 'posted only when paid');
      const end = await t.wallet();
      assert.equal(end.held, start.held, 'both holds resolved');
      assert.equal(Math.round((start.balance - end.balance) * 100), final.status === 'success' ? 2 * 12_100 : 0);
    });
  }

  it('a pending answer merged alone is the transaction path’s too', async () => {
    const alone = await pendingPayment(80);
    const inTransaction = await pendingPayment(80);
    const pending: Outcome = { status: 'pending', message: 'Still with the bank', fields: {}, partnerRef: undefined };
    await phase3(alone.txnId, pending, alone.before);
    await phase3(inTransaction.txnId, pending, null);
    assert.deepEqual(await written(alone.txnId), await written(inTransaction.txnId));
    assert.equal((await written(alone.txnId)).status, 'pending');
  });

  it('an operation that keeps a note for a later end: a final outcome written alone takes the note with it', async () => {
    const body = { ...VALID.bank(), name: 'Priya Sharma' };
    const r = await t.call('POST', PATHS.bank, { key: t.liveKey, body });
    assert.equal(r.body.data.status, 'success');
    assert.equal(typeof r.body.data.name_match?.score, 'number', 'compared in the answer');
    const tx = await t.store.db.selectFrom('transactions').select('id').where('reference_id', '=', body.reference_id).executeTakeFirstOrThrow();
    const notes = await t.store.db.selectFrom('pending_notes').select('txn_id').where('txn_id', '=', tx.id).execute();
    assert.deepEqual(notes, [], 'no note outlives its pending');
  });

  it('a row a callback settled while the partner call was out is left to the transaction’s path; the lone attempt writes nothing', async () => {
    const start = await t.wallet();
    const { txnId, before } = await pendingPayment(150);
    // The callback fails it first (its hold goes back), as if it had come before the partner's answer.
    const applied = await t.services.settlement.apply({ txnId, partnerRef: null, outcome: { status: 'failed', message: 'Declined by the bank', fields: {} } }, 'primary', null);
    assert.equal(applied, 'settled');
    const answer = await phase3(txnId, { status: 'success', message: 'Paid', fields: { utr: '515151515151' } }, before);
    assert.equal(answer.row.status, 'failed', 'the answer is the row as the callback left it');
    const w = await written(txnId);
    assert.equal(w.status, 'failed');
    assert.equal(w.hold.status, 'voided');
    assert.deepEqual(w.legs, [], 'never posted');
    assert.equal(w.audit.length, 1, 'one audit row for the request');
    // The partner's first answer (pending, from the HTTP call), then phase 3's, once.
    assert.deepEqual(w.history.filter((h) => h.startsWith('answer:')), ['answer:pending:primary', 'answer:success:primary']);
    assert.equal(w.events.length, 1, 'one event: the callback’s');
    assert.equal(w.events[0]!.status, 'failed');
    assert.deepEqual(await t.wallet(), start, 'nothing paid');
    // The partner's answer contradicts the end that stands: a person is asked to look (Needs attention).
    const { flagged } = await t.store.db.selectFrom('transactions').select('flagged').where('id', '=', txnId).executeTakeFirstOrThrow();
    assert.match(flagged ?? '', /partner primary answered success after the transaction was made final \(failed\)/);
  });

  it('a partner that answers "nothing was executed" after its own end came: nothing is freed, the end is answered and flagged', async () => {
    // A partner in front of which the payout is held until the end has landed, then refused with the
    // simulator's "503, safe to retry" (which alone would fail it and free its key and reference).
    let arrived!: () => void;
    let release!: () => void;
    const seen = new Promise<void>((r) => (arrived = r));
    const go = new Promise<void>((r) => (release = r));
    const partner = http.createServer((req, res) => {
      req.resume();
      arrived();
      void go.then(() => res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'service unavailable', retryable: true })));
    });
    await new Promise<void>((r) => partner.listen(0, '127.0.0.1', r));
    const u = await startLive({ SANGAM_PARTNER_URL: `http://127.0.0.1:${(partner.address() as { port: number }).port}` }, 10_000, sim);
    try {
      const body = { ...VALID.upi(), amount: 10 };
      const call = u.call('POST', PATHS.upi, { key: u.liveKey, body });
      await seen;
      const row = await eventually(() => u.store.db.selectFrom('transactions').select('id').where('reference_id', '=', body.reference_id).executeTakeFirst());
      const end = { txnId: row.id, partnerRef: null, outcome: { status: 'success' as const, message: 'Paid', fields: { utr: '717171717171' } } };
      assert.equal(await u.services.settlement.apply(end, 'primary', null), 'settled');
      release();
      const r = await call;
      assert.equal(r.status, 200, r.text);
      assert.deepEqual([r.body.data.status, r.body.data.utr], ['success', '717171717171'], 'the end, answered');
      const { flagged } = await u.store.db.selectFrom('transactions').select('flagged').where('id', '=', row.id).executeTakeFirstOrThrow();
      assert.match(flagged ?? '', /the partner answered that nothing was executed .* after it had ended the transaction/);
      // Neither the key nor the reference was freed: a retry replays, another request with the reference is refused.
      const retry = await u.call('POST', PATHS.upi, { key: u.liveKey, body });
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal(retry.body.data.status, 'success');
      const other = await u.call('POST', PATHS.upi, { key: u.liveKey, body: { ...body, idempotency_key: crypto.randomUUID() } });
      assert.deepEqual([other.status, other.body.data.Errorcode], [409, 114]);
      await u.assertLedger();
    } finally {
      await u.close();
      await new Promise((r) => partner.close(r));
    }
  });
});
