// The live money path end to end: a real partner simulator process, real signed callbacks, the wallet
// and the ledger. The ledger check runs after every test.
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { Webhook } from 'standardwebhooks';
import { createAccount, createKey } from '../src/accounts/store.js';
import { addEntry } from '../src/access/allowlist.js';
import { approve } from '../src/access/approvals.js';
import { OPERATION_SLUGS } from '../src/operations/registry.js';
import type { FinalOutcome } from '../src/providers/connector.js';
import { commissionPaise, MOBILE_OPERATORS } from '../src/catalog/operators.js';
import { topUp } from '../src/ledger/ledger.js';
import { requestHash } from '../src/idempotency/store.js';
import { ConsentExpiry } from '../src/consents/expiry.js';
import { eventually, PATHS, uuid, VALID } from './harness.js';
import { startLive, startSim, type LiveApp, type Sim } from './live-harness.js';

// The ifsc package's own validate (no I/O: its network helpers are never called).
const { validate: validateIfsc } = createRequire(import.meta.url)('ifsc') as { validate(code: string): boolean };

const tx = (t: LiveApp, ref: string) => t.call('GET', `/api/v1/transactions/${ref}`, { key: t.liveKey });
const settled = (t: LiveApp, ref: string) =>
  eventually(async () => {
    const r = await tx(t, ref);
    return r.body.data.status !== 'pending' && r;
  }, 20_000);

describe('live money path', () => {
  let t: LiveApp;
  let sim: Sim;
  before(async () => {
    // A pending lasts long enough for the wallet to be read while it holds, on a busy machine too.
    sim = await startSim({ pendingMs: 3000 });
    t = await startLive({}, 10_000, sim);
  });
  after(async () => {
    await t.close();
    await sim.stop();
  });
  afterEach(() => t.assertLedger());

  const live = (path: string, body: unknown, extra: { headers?: Record<string, string> } = {}) => t.call('POST', path, { key: t.liveKey, body, ...extra });

  it('UPI success debits amount + fee, exactly', async () => {
    const before = await t.wallet();
    const r = await live(PATHS.upi, { ...VALID.upi(), amount: 100.5 });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.statuscode, 'TXN');
    assert.equal(r.body.data.status, 'success');
    assert.match(r.body.data.utr, /^\d{12}$/);
    const after = await t.wallet();
    assert.equal(Math.round((before.balance - after.balance) * 100), 10050 + 100);
    assert.equal(after.held, 0);
  });

  it('UPI failure costs nothing', async () => {
    const before = await t.wallet();
    const r = await live(PATHS.upi, { ...VALID.upi(), vpa: 'failure@sandbox' });
    assert.equal(r.status, 200);
    assert.equal(r.body.statuscode, 'ERR');
    assert.equal(r.body.data.status, 'failed');
    assert.deepEqual(await t.wallet(), before);
  });

  for (const [vpa, final] of [['pending@sandbox', 'success'], ['pendingfail@sandbox', 'failed']] as const) {
    it(`UPI ${vpa}: pending holds the funds, the signed callback ${final === 'success' ? 'posts' : 'voids'} them`, async () => {
      const before = await t.wallet();
      const body = { ...VALID.upi(), vpa, amount: 250 };
      const r = await live(PATHS.upi, body);
      assert.equal(r.body.statuscode, 'TUP');
      assert.equal(r.body.data.verified_at, null);
      const during = await t.wallet();
      assert.equal(during.held, 251);
      assert.equal(Math.round((before.balance - during.balance) * 100), 25100);
      const s = await settled(t, body.reference_id);
      assert.equal(s.body.data.status, final);
      const after = await t.wallet();
      assert.equal(after.held, 0);
      assert.equal(Math.round((before.balance - after.balance) * 100), final === 'success' ? 25100 : 0);
    });
  }

  it('recharge: the client pays the amount less commission (JIO 2% of 199 = 3.98)', async () => {
    const before = await t.wallet();
    const r = await live(PATHS.recharge, VALID.recharge());
    assert.equal(r.body.data.status, 'success', r.text);
    assert.equal(r.body.data.commission, 3.98);
    assert.match(r.body.data.utr, /^JIO\d{10}$/);
    assert.equal(Math.round((before.balance - (await t.wallet()).balance) * 100), 19900 - 398);
  });

  it('recharge pending → callback → success; DTH pending → success; DTH failure costs nothing', async () => {
    const before = await t.wallet();
    const rc = { ...VALID.recharge(), mobile: '9876540002' };
    const dth = { ...VALID.dth(), subscriber_id: '3000010002' };
    assert.equal((await live(PATHS.recharge, rc)).body.data.status, 'pending');
    assert.equal((await live(PATHS.dth, dth)).body.data.status, 'pending');
    assert.equal((await live(PATHS.dth, { ...VALID.dth(), subscriber_id: '3000010001' })).body.data.status, 'failed');
    assert.equal((await settled(t, rc.reference_id)).body.data.status, 'success');
    const d = await settled(t, dth.reference_id);
    assert.equal(d.body.data.status, 'success');
    assert.equal(d.body.data.commission, 8.75);
    const spent = Math.round((before.balance - (await t.wallet()).balance) * 100);
    assert.equal(spent, 19900 - 398 + (35000 - 875));
  });

  it('verification operations debit their fee, also when the check finds nothing', async () => {
    const before = await t.wallet();
    const sig = await live(PATHS.signature, VALID.signature());
    assert.equal(sig.body.data.status, 'success', sig.text);
    assert.ok(sig.body.data.name_match_score >= 0);
    const bank = await live(PATHS.bank, VALID.bank());
    assert.equal(bank.body.data.account.account_number, 'XXXXXXXX3210');
    const none = await live(PATHS.bank, { ...VALID.bank(), mobile: '9000000000' });
    assert.equal(none.body.data.status, 'failed');
    const fees = 300 + 200 + 200;
    assert.equal(Math.round((before.balance - (await t.wallet()).balance) * 100), fees);
  });

  it('mobile-to-bank: an IFSC not in the directory is 422 naming ifsc before the partner or a fee; answers carry real codes', async () => {
    const before = await t.wallet();
    const calls = Object.keys(await t.sim.calls()).length;
    const bad = await live(PATHS.bank, { ...VALID.bank(), account_number: '919876543210', ifsc: 'QQQQ0123456' });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.data.Errorcode, 104);
    assert.deepEqual(bad.body.data.errors.map((e: { field: string }) => e.field), ['ifsc']);
    assert.deepEqual(await t.wallet(), before);
    assert.equal(Object.keys(await t.sim.calls()).length, calls);
    const r = await live(PATHS.bank, { ...VALID.bank(), account_number: '919876543210', ifsc: 'SBIN0000001' });
    assert.equal(r.body.data.status, 'success', r.text);
    const { ifsc, bank_name: bankName, branch } = r.body.data.account;
    assert.ok(validateIfsc(ifsc), ifsc);
    assert.equal(bankName, 'HDFC Bank');
    assert.equal(branch, null);
    assert.deepEqual([r.body.data.account_number_match, r.body.data.ifsc_match, r.body.data.account_match], [true, false, false]);
    const same = await live(PATHS.bank, { ...VALID.bank(), ifsc });
    assert.equal(same.body.data.ifsc_match, true);
    assert.equal(Math.round((before.balance - (await t.wallet()).balance) * 100), 200 + 200);
  });

  it('document locker: initialize → the user allows at the partner → download (photo once, never stored)', async () => {
    const init = await live(PATHS.init, VALID.init());
    assert.equal(init.body.statuscode, 'TUP', init.text);
    const { doclocker__client__id: id, authorization_url: url } = init.body.data;
    assert.match(url, /\/consent\//);
    const early = await live(PATHS.aadhaar, { ...VALID.aadhaar(), doclocker__client__id: id });
    assert.equal(early.body.data.status, 'failed');
    assert.match(early.body.data.message, /consent pending/i);
    assert.equal((await fetch(`${url}/allow`, { method: 'POST' })).status, 200);
    assert.equal((await settled(t, init.body.data.reference_id)).body.data.status, 'success');
    const body = { ...VALID.aadhaar(), doclocker__client__id: id };
    const ok = await live(PATHS.aadhaar, body);
    assert.equal(ok.body.data.status, 'success', ok.text);
    assert.equal(ok.body.data.Aadhaar_Xml_Data.Masked_Aadhaar, 'XXXXXXXX2346');
    assert.ok(ok.body.data.Aadhaar_Xml_Data.Profile_Image.length > 100);
    const replay = await live(PATHS.aadhaar, body);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.body.data.Aadhaar_Xml_Data.Profile_Image, undefined);
    const stored = await t.store.db.selectFrom('transactions').select('result').where('reference_id', '=', body.reference_id).executeTakeFirstOrThrow();
    assert.ok(!JSON.stringify(stored.result).includes('Profile_Image'));

    // The statement matches each debit to its request, and says why a failed download was charged.
    const rows = (await t.call('GET', '/api/v1/account/statement?limit=50', { key: t.liveKey })).body.data.items as Array<Record<string, unknown>>;
    const txnOf = async (ref: string) => (await t.store.db.selectFrom('transactions').select('id').where('reference_id', '=', ref).executeTakeFirstOrThrow()).id;
    const charged = rows.find((r) => r.reference_id === early.body.data.reference_id);
    assert.deepEqual(
      { txn_id: charged?.txn_id, operation: charged?.operation, status: charged?.status, amount: charged?.amount },
      { txn_id: await txnOf(early.body.data.reference_id), operation: 'doclocker-download-aadhaar', status: 'failed', amount: -5 },
    );
    assert.match(String(charged?.reason), /completed doclocker-download-aadhaar check that answered failed \(.*consent pending/i);
    const paid = rows.find((r) => r.reference_id === body.reference_id);
    assert.deepEqual({ txn_id: paid?.txn_id, status: paid?.status, reason: paid?.reason }, { txn_id: await txnOf(body.reference_id), status: 'success', reason: 'doclocker-download-aadhaar success' });
  });

  it('a sandbox key on the same account never touches the wallet or the partner', async () => {
    const before = await t.wallet();
    const calls = Object.keys(await t.sim.calls()).length;
    const r = await t.call('POST', PATHS.upi, { body: VALID.upi() });
    assert.equal(r.body.data.status, 'success');
    assert.deepEqual(await t.wallet(), before);
    assert.equal(Object.keys(await t.sim.calls()).length, calls);
  });

  it('the statement lists the top-up and the debits with a running total', async () => {
    const r = await t.call('GET', '/api/v1/account/statement?limit=500', { key: t.liveKey });
    assert.equal(r.status, 200);
    const items = r.body.data.items as Array<{ kind: string; amount: number; balance_after: number }>;
    assert.equal(items.at(-1)!.kind, 'topup');
    const w = await t.wallet();
    assert.equal(Math.round(items[0]!.balance_after * 100), Math.round((w.balance + w.held) * 100));
    const page = await t.call('GET', '/api/v1/account/statement?limit=2', { key: t.liveKey });
    const next = await t.call('GET', `/api/v1/account/statement?limit=2&cursor=${page.body.data.next_cursor}`, { key: t.liveKey });
    assert.ok(next.body.data.items[0].id < page.body.data.items[1].id);
  });
});

describe('live: idempotency and concurrency', () => {
  let t: LiveApp;
  before(async () => (t = await startLive({}, 1000)));
  after(() => t.close());
  afterEach(() => t.assertLedger());

  it('a replay returns the first answer and debits nothing more; a changed payload is 422/107', async () => {
    const body = { ...VALID.upi(), amount: 10 };
    const first = await t.call('POST', PATHS.upi, { key: t.liveKey, body });
    const balance = (await t.wallet()).balance;
    const again = await t.call('POST', PATHS.upi, { key: t.liveKey, body });
    assert.equal(again.text, first.text);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal((await t.wallet()).balance, balance);
    const changed = await t.call('POST', PATHS.upi, { key: t.liveKey, body: { ...body, amount: 11 } });
    assert.equal(changed.status, 422);
    assert.equal(changed.body.data.Errorcode, 107);
  });

  it('a key left bound to a transaction never written (a crash between a lost reference race and its unbinding) is as if absent', async () => {
    // The state a kill -9 leaves between a one-statement recording and the unbinding of a key whose
    // reference a concurrent call took (operations/recorder.ts): claimed, bound to nothing that exists.
    const leftBound = (environment: 'live' | 'sandbox', body: Record<string, unknown>, done: boolean) => {
      const { idempotency_key: key, ...payload } = body;
      return t.store.db
        .insertInto('idempotency_keys')
        .values({
          account_id: t.accountId,
          environment,
          operation: 'upi-payment-status',
          key: String(key),
          request_hash: requestHash(payload),
          status: done ? 'done' : 'in_flight',
          response_status: done ? 200 : null,
          response_body: done ? '{"statuscode":"TXN","ok":true,"message":"never happened","data":{}}' : null,
          locked_until: new Date(Date.now() + 60_000), // still locked: no waiting for a holder that never was
          txn_id: `txn_never_${environment}`,
        })
        .execute();
    };
    const live = { ...VALID.upi(), amount: 7 };
    await leftBound('live', live, false);
    const before = (await t.wallet()).balance;
    const r = await t.call('POST', PATHS.upi, { key: t.liveKey, body: live });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.data.status, 'success');
    assert.equal((await t.sim.calls())[r.body.data.txn_id], 1, 'sent once');
    assert.ok((await t.wallet()).balance < before, 'paid');
    // A sandbox key stored done with an answer, for a transaction that never was: never replayed.
    const sandbox = VALID.upi();
    await leftBound('sandbox', sandbox, true);
    const s = await t.call('POST', PATHS.upi, { key: t.key, body: sandbox });
    assert.equal(s.status, 200, s.text);
    assert.equal(s.headers['idempotent-replayed'], undefined);
    assert.notEqual(s.body.message, 'never happened');
  });

  it('20 concurrent identical requests with one key give one debit and one partner call', async () => {
    const body = { ...VALID.upi(), amount: 5 };
    const before = (await t.wallet()).balance;
    const all = await Promise.all(Array.from({ length: 20 }, () => t.call('POST', PATHS.upi, { key: t.liveKey, body })));
    assert.ok(all.every((r) => r.status === 200 || r.status === 409), all.map((r) => r.status).join());
    assert.equal(Math.round((before - (await t.wallet()).balance) * 100), 500 + 100);
    const fresh = all.filter((r) => r.status === 200 && r.headers['idempotent-replayed'] === undefined);
    assert.equal(fresh.length, 1);
    assert.equal((await t.sim.calls())[fresh[0]!.body.data.txn_id], 1);
  });

  it('50 concurrent payments that overdraw: no negative balance, successes sum exactly to the decrease', async () => {
    const a = await createAccount(t.store.db, 'Hot Wallet');
    const k = await createKey(t.store.db, a.id, 'live');
    await addEntry(t.store.db, a.id, 'live', '127.0.0.1');
    await approve(t.store.db, a.id, OPERATION_SLUGS);
    await topUp(t.store.db, a.id, 100_000, null); // ₹1000
    const all = await Promise.all(Array.from({ length: 50 }, () => t.call('POST', PATHS.upi, { key: k.key, body: { ...VALID.upi(), amount: 30 } })));
    const ok = all.filter((r) => r.status === 200 && r.body.data.status === 'success');
    const broke = all.filter((r) => r.status === 402);
    assert.equal(ok.length + broke.length, 50, all.map((r) => r.status).join());
    for (const r of broke) assert.equal(r.body.data.Errorcode, 105);
    assert.equal(ok.length, Math.floor(100_000 / 3100));
    const w = await t.wallet(k.key);
    assert.ok(w.balance >= 0);
    assert.equal(Math.round((1000 - w.balance) * 100), ok.length * 3100);
  });

  it('insufficient funds is 402/105 and holds nothing; the key can be retried after a top-up', async () => {
    const a = await createAccount(t.store.db, 'Poor');
    const k = await createKey(t.store.db, a.id, 'live');
    await addEntry(t.store.db, a.id, 'live', '127.0.0.1');
    await approve(t.store.db, a.id, OPERATION_SLUGS);
    await topUp(t.store.db, a.id, 1000, null);
    const body = { ...VALID.upi(), amount: 50 };
    const r = await t.call('POST', PATHS.upi, { key: k.key, body });
    assert.equal(r.status, 402);
    assert.equal(r.body.data.Errorcode, 105);
    assert.match(r.body.message, /₹10\.00 available, ₹\d+\.\d\d needed/);
    assert.deepEqual(await t.wallet(k.key), { balance: 10, held: 0 });
    // Nothing of the refused call was written: no transaction under its reference.
    assert.equal(await t.store.db.selectFrom('transactions').select('id').where('reference_id', '=', body.reference_id).executeTakeFirst(), undefined);
    await topUp(t.store.db, a.id, 10_000, null);
    const retry = await t.call('POST', PATHS.upi, { key: k.key, body });
    assert.equal(retry.status, 200);
    assert.equal(retry.body.data.status, 'success');
  });
});

describe('live: partner callbacks in', () => {
  let t: LiveApp;
  before(async () => (t = await startLive()));
  after(() => t.close());
  afterEach(() => t.assertLedger());

  const post = (body: string, headers: Record<string, string>) =>
    fetch(`${t.base}/partners/primary/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const signed = (secret: string, payload: unknown, id = `msg_${uuid()}`, at = new Date()) => {
    const body = JSON.stringify(payload);
    return { body, headers: { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign(id, at, body) } };
  };
  const pendingPayment = async () => {
    await t.sim.faults({ drop_callbacks: true });
    const body = { ...VALID.upi(), vpa: 'pending@sandbox', amount: 40 };
    const r = await t.call('POST', PATHS.upi, { key: t.liveKey, body });
    assert.equal(r.body.data.status, 'pending');
    const txnId = r.body.data.txn_id as string;
    refs.set(txnId, await pendingRef(txnId));
    return txnId;
  };
  // The partner's own id is the one its answer gave (an event is matched by it, CONTRACT §9).
  const refs = new Map<string, string | null>();
  const pendingRef = async (txnId: string) =>
    (await t.store.db.selectFrom('transactions').select('partner_ref').where('id', '=', txnId).executeTakeFirstOrThrow()).partner_ref;
  const final = (txnId: string, status = 'SUCCESS') => ({
    type: 'transaction.update',
    data: { client_ref: txnId, status, partner_ref: refs.get(txnId) ?? '', message: 'done', reference: '123456789012' },
  });

  it('a forged signature is refused (401) and changes nothing', async () => {
    const txn = await pendingPayment();
    const forged = signed(`whsec_${Buffer.from('not-the-partner-secret-000').toString('base64')}`, final(txn));
    const r = await post(forged.body, forged.headers);
    assert.equal(r.status, 401);
    assert.equal((await t.store.db.selectFrom('transactions').select('status').where('id', '=', txn).executeTakeFirstOrThrow()).status, 'pending');
  });

  it('a tampered body is refused', async () => {
    const txn = await pendingPayment();
    const s = signed(t.sim.secret, final(txn));
    const r = await post(s.body.replace('SUCCESS', 'FAILURE'), s.headers);
    assert.equal(r.status, 401);
  });

  it('a stale timestamp (over 5 minutes) is refused', async () => {
    const txn = await pendingPayment();
    const s = signed(t.sim.secret, final(txn), undefined, new Date(Date.now() - 6 * 60_000));
    assert.equal((await post(s.body, s.headers)).status, 401);
  });

  it('a duplicate webhook-id is dropped; the money moves once', async () => {
    const txn = await pendingPayment();
    const before = await t.wallet();
    const s = signed(t.sim.secret, final(txn));
    const one = await (await post(s.body, s.headers)).json();
    const two = await (await post(s.body, s.headers)).json();
    assert.equal((one as { result: string }).result, 'settled');
    assert.equal((two as { result: string }).result, 'duplicate');
    const after = await t.wallet();
    assert.equal(after.held, before.held - 41);
    assert.equal(after.balance, before.balance);
  });

  it('a signed event whose partner id belongs to another transaction is refused (409) and flagged; nothing moves', async () => {
    const a = await pendingPayment();
    const b = await pendingPayment();
    const before = await t.wallet();
    const forB = final(a, 'FAILURE');
    forB.data.partner_ref = refs.get(b)!;
    const s = signed(t.sim.secret, forB);
    const r = await post(s.body, s.headers);
    assert.equal(r.status, 409);
    assert.equal(((await r.json()) as { result: string }).result, 'mismatch');
    assert.equal((await post(s.body, s.headers)).status, 409, 'a redelivery is refused the same way');
    const row = await t.store.db.selectFrom('transactions').select(['status', 'flagged']).where('id', '=', a).executeTakeFirstOrThrow();
    assert.equal(row.status, 'pending');
    assert.match(String(row.flagged), /refused/);
    assert.deepEqual(await t.wallet(), before, 'no hold released');
  });

  it('a conflicting late callback never changes a final state; it is flagged', async () => {
    const txn = await pendingPayment();
    const ok = signed(t.sim.secret, final(txn, 'SUCCESS'));
    await post(ok.body, ok.headers);
    const late = signed(t.sim.secret, final(txn, 'FAILURE'));
    const r = (await (await post(late.body, late.headers)).json()) as { result: string };
    assert.equal(r.result, 'conflict');
    const row = await t.store.db.selectFrom('transactions').select(['status', 'flagged']).where('id', '=', txn).executeTakeFirstOrThrow();
    assert.equal(row.status, 'success');
    assert.match(String(row.flagged), /reported failed after the transaction was final \(success\)/);
  });

  it('the simulator misbehaving (duplicates, out-of-order stale PENDING, late) still settles once', async () => {
    await t.sim.faults({ duplicate_callbacks: true, out_of_order: true, callback_delay_ms: 200 });
    const body = { ...VALID.upi(), vpa: 'pendingfail@sandbox', amount: 7 };
    const r = await t.call('POST', PATHS.upi, { key: t.liveKey, body });
    const txn = r.body.data.txn_id as string;
    assert.equal((await settled(t, body.reference_id)).body.data.status, 'failed');
    // Duplicated deliveries share a webhook-id and are dropped before they are recorded; the stale
    // PENDING has its own id and is recorded as not final.
    const seen = await eventually(async () => {
      const rows = await t.store.db.selectFrom('partner_callbacks').select('outcome').where('txn_id', '=', txn).execute();
      return rows.length >= 2 && rows.map((x) => x.outcome).sort();
    });
    assert.deepEqual(seen, ['not_final', 'settled']);
    assert.equal((await tx(t, body.reference_id)).body.data.status, 'failed');
    const h = await t.store.db.selectFrom('holds').select('status').where('txn_id', '=', txn).executeTakeFirstOrThrow();
    assert.equal(h.status, 'voided');
    await t.sim.faults({});
  });

  it('callbacks signed with the wrong secret by the simulator itself are refused', async () => {
    await t.sim.faults({ bad_signature: true });
    const body = { ...VALID.upi(), vpa: 'pending@sandbox', amount: 3 };
    await t.call('POST', PATHS.upi, { key: t.liveKey, body });
    await new Promise((r) => setTimeout(r, 800));
    assert.equal((await tx(t, body.reference_id)).body.data.status, 'pending');
    await t.sim.faults({});
  });
});

describe('live: partner failures before any outcome', () => {
  let t: LiveApp;
  // The breaker stays shut: these tests time the partner out on purpose, one call at a time.
  before(async () => (t = await startLive({ SANGAM_PARTNER_TIMEOUT_MS: '1000', SANGAM_BREAKER_MIN_CALLS: '10000' })));
  after(() => t.close());
  afterEach(() => t.assertLedger());

  it('a 5xx from the partner is 502/113 and debits nothing; the same key then succeeds', async () => {
    await t.sim.faults({ error_next: 1 });
    const before = await t.wallet();
    const body = VALID.upi();
    const r = await t.call('POST', PATHS.upi, { key: t.liveKey, body });
    assert.equal(r.status, 502);
    assert.equal(r.body.data.Errorcode, 113);
    assert.deepEqual(await t.wallet(), before);
    const retry = await t.call('POST', PATHS.upi, { key: t.liveKey, body });
    assert.equal(retry.status, 200);
    assert.equal(retry.body.data.status, 'success');
  });

  it('no answer after the request was sent leaves the payment pending with its hold (the money may have moved)', async () => {
    // The stall is far past the 1 s deadline: on a loaded machine a late timer must not let the answer win.
    await t.sim.faults({ timeout_next: 1, timeout_ms: 6000 });
    const body = { ...VALID.upi(), amount: 20 };
    const r = await t.call('POST', PATHS.upi, { key: t.liveKey, body });
    assert.equal(r.status, 200);
    assert.equal(r.body.statuscode, 'TUP');
    assert.equal((await t.wallet()).held >= 21, true);
    await t.sim.faults({});
  });

  /**
   * A live call whose partner's end (`end`, as a callback or an enquiry brings it) reaches its
   * transaction first: the partner's answer stalls past the deadline meanwhile. Answers the call's
   * answer and the transaction as then stored.
   */
  async function endsFirst(path: string, body: { reference_id: string }, end: FinalOutcome) {
    await t.sim.faults({ timeout_next: 1, timeout_ms: 6000 });
    const call = t.call('POST', path, { key: t.liveKey, body });
    const row = await eventually(() => t.store.db.selectFrom('transactions').select('id').where('reference_id', '=', body.reference_id).executeTakeFirst());
    assert.equal(await t.services.settlement.apply({ txnId: row.id, partnerRef: null, outcome: end }, 'primary', null), 'settled');
    const answer = await call;
    await t.sim.faults({});
    assert.equal(answer.body.data.status, end.status, answer.text);
    const stored = await t.call('GET', `/api/v1/transactions/${body.reference_id}`, { key: t.liveKey });
    return { answer: answer.body.data, stored: stored.body.data };
  }

  it('a recharge its partner ends first keeps the operator and circle Sangam looked up, and its commission (CONTRACT §3, §10)', async () => {
    const { operator: _, ...body } = { ...VALID.recharge(), amount: 10 };
    const found = (await t.call('GET', `/api/v1/mobile-recharge/operator-lookup?mobile=${body.mobile}`, { key: t.liveKey })).body.data;
    const expected = { operator: found.operator, circle: found.circle, commission: commissionPaise(MOBILE_OPERATORS, found.operator, 1000) / 100 };
    // The simulator's callback carries no amounts (PartnerCallback): the commission is Sangam's own.
    const { answer, stored } = await endsFirst(PATHS.recharge, body, { status: 'success', message: 'Recharged', fields: { utr: 'OP123456' } });
    for (const data of [answer, stored]) assert.deepEqual({ operator: data.operator, circle: data.circle, commission: data.commission }, expected);
  });

  it('a payout its partner ends first still answers and keeps its name match (CONTRACT §11)', async () => {
    // The holder's name is known from a verification of the VPA, so the next partner call is the payout.
    const verified = await t.call('POST', '/api/v1/upi-payment/vpa-verification', { key: t.liveKey, body: { reference_id: `vpav-${uuid()}`, consent: true, vpa: 'kavya.nair@okaxis' } });
    assert.equal(verified.body.data.vpa_status, 'valid', verified.text);
    const body = { ...VALID.upi(), vpa: 'kavya.nair@okaxis', beneficiary_name: 'Kavya Nair', amount: 10 };
    const { answer, stored } = await endsFirst(PATHS.upi, body, { status: 'success', message: 'Paid', fields: { utr: '616161616161' } });
    assert.equal(answer.name_match?.decision, 'approve');
    assert.deepEqual(stored.name_match, answer.name_match);
    assert.equal(stored.utr, '616161616161', 'the end stands');
  });

  it('verifications their partner ends first keep the bank and the VPA (CONTRACT §14; a payout finds the verification by its VPA)', async () => {
    const account = { reference_id: `acv-${uuid()}`, consent: true, account_number: '919876543210', ifsc: 'HDFC0000001' };
    const a = await endsFirst('/api/v1/bank-account/account-verification', account, { status: 'success', message: 'Verified', fields: { account_status: 'valid', name_at_bank: 'Priya Sharma', method: 'pennyless' } });
    for (const data of [a.answer, a.stored]) assert.equal(data.bank?.ifsc, 'HDFC0000001');
    const vpa = { reference_id: `vpav-${uuid()}`, consent: true, vpa: 'meera.iyer@okaxis' };
    const v = await endsFirst('/api/v1/upi-payment/vpa-verification', vpa, { status: 'success', message: 'Verified', fields: { vpa_status: 'valid', name_at_bank: 'Meera Iyer' } });
    for (const data of [v.answer, v.stored]) assert.equal(data.vpa, 'meera.iyer@okaxis');
  });

  it('a consent withdrawn while a call made under it is with its partner: that call is erased once final (CONTRACT §13)', async () => {
    const consent = await t.call('POST', '/api/v1/consents', {
      key: t.liveKey,
      body: { subject: { reference: 'cust-7' }, purpose: { code: 'payout', text: 'To pay you' }, operations: ['upi-payment-status'], notice: { version: '1', language: 'en', text: 'We pay you.' } },
    });
    assert.equal(consent.status, 200, consent.text);
    const id = consent.body.data.id as string;
    await t.sim.faults({ timeout_next: 1, timeout_ms: 6000 });
    const body = { ...VALID.upi(), amount: 10, consent_id: id };
    const call = t.call('POST', PATHS.upi, { key: t.liveKey, body });
    await eventually(() => t.store.db.selectFrom('transactions').select('id').where('reference_id', '=', body.reference_id).executeTakeFirst());
    // The use is on record with the recovery point: the withdrawal finds the call, still pending.
    const withdrawn = await t.call('POST', `/api/v1/consents/${id}/withdraw`, { key: t.liveKey });
    assert.deepEqual(withdrawn.body.data.effect.references_pending, [body.reference_id], withdrawn.text);
    const r = await call;
    await t.sim.faults({});
    assert.equal(r.body.data.status, 'pending', r.text);
    // Once the payout is final, the worker's retry of the consent's end erases it.
    const row = await t.store.db.selectFrom('transactions').select('id').where('reference_id', '=', body.reference_id).executeTakeFirstOrThrow();
    await t.services.settlement.apply({ txnId: row.id, partnerRef: null, outcome: { status: 'success', message: 'Paid', fields: { utr: '818181818181' } } }, 'primary', null);
    await new ConsentExpiry(t.services.consents.end, 60_000, t.app.log).tick(new Date(Date.now() + 120_000));
    const done = await t.call('GET', `/api/v1/transactions/${body.reference_id}`, { key: t.liveKey });
    assert.ok(done.body.data.erased_at, done.text);
    assert.equal(done.body.data.utr, '818181818181', 'the money facts stay');
  });

  it('a partner that is down is 502/113 and debits nothing', async () => {
    const before = await t.wallet();
    await t.sim.stop();
    const body = VALID.recharge();
    const r = await t.call('POST', PATHS.recharge, { key: t.liveKey, body });
    assert.equal(r.status, 502);
    assert.equal(r.body.data.Errorcode, 113);
    assert.deepEqual(await t.wallet(), before);
    const failed = await t.store.db.selectFrom('transactions').select(['status', 'result']).where('environment', '=', 'live').where('reference_id', '=', body.reference_id).execute();
    assert.deepEqual(failed.map((f) => f.status), ['failed']);
    assert.equal(failed[0]!.result.commission, 0, 'a failed recharge earns no commission (it is shown from the recovery point on)');
  });
});

describe('ledger check', () => {
  it('passes on a consistent store and reports each breach, exiting non-zero', async () => {
    const t = await startLive({}, 500);
    try {
      await t.call('POST', PATHS.upi, { key: t.liveKey, body: { ...VALID.upi(), amount: 10 } });
      const { runCommand } = await import('../src/admin/run.js');
      const ok = await runCommand(t.store.db, ['ledger', 'check']);
      assert.equal(ok.code, 0, JSON.stringify(ok.output));
      assert.equal(ok.output.ok, true);
      // Money appears from nowhere: the wallet no longer matches its entries.
      await t.store.db.updateTable('wallets').set({ balance_paise: 999_999 }).where('account_id', '=', t.accountId).execute();
      // A posting that does not balance.
      await t.store.db.insertInto('ledger_entries').values({ posting_id: 'forged', ledger_account: 'platform:fees', amount_paise: 100, kind: 'debit', memo: null }).execute();
      const bad = await runCommand(t.store.db, ['ledger', 'check']);
      assert.equal(bad.code, 1);
      const breaches = (bad.output.breaches as string[]).join('\n');
      assert.match(breaches, /posting forged sums to 100/);
      assert.match(breaches, new RegExp(`wallet ${t.accountId}: balance 999999`));
    } finally {
      await t.close();
    }
  });
});
