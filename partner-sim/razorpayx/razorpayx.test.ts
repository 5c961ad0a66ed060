// The RazorpayX emulator over real HTTP on loopback: Basic auth, the documented validation, idempotency,
// the status lifecycle steered by magic VPAs, signed webhooks (verified with node:crypto as a receiver
// would), and every fault switch. No database: the emulator is in-memory.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { type Received, startCli, waitFor, emulatorWithReceiver, type Receiver } from '../common/testing.js';
import { startRazorpayxEmulator, type RazorpayxEmulator } from './index.js';

const WEBHOOK_SECRET = 'test_webhook_secret';

const verify = (r: Received, secret = WEBHOOK_SECRET) => createHmac('sha256', secret).update(r.raw).digest('hex') === r.headers['x-razorpay-signature'];

describe('RazorpayX emulator', () => {
  let emu: RazorpayxEmulator;
  let hook: Receiver;
  let auth: string;

  emulatorWithReceiver('/partners/razorpayx/webhooks', (url) => startRazorpayxEmulator({ latencyMs: 0, pendingMs: 40, webhookSecret: WEBHOOK_SECRET, webhookUrl: url, webhookRetryBaseMs: 20, webhookAttempts: 3 }), async (e, h) => {
    emu = e;
    hook = h;
    auth = `Basic ${Buffer.from(`${emu.settings.keyId}:${emu.settings.keySecret}`).toString('base64')}`;
  });

  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
    const res = await fetch(emu.url + path, {
      method,
      headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  }
  const admin = (method: string, path: string, body?: unknown) => call(method, path, body, {});

  async function fundAccount(address: string): Promise<string> {
    const c = await call('POST', '/v1/contacts', { name: 'Gaurav Kumar', type: 'employee', reference_id: address });
    const fa = await call('POST', '/v1/fund_accounts', { contact_id: c.body.id, account_type: 'vpa', vpa: { address } });
    assert.ok(fa.status === 200 || fa.status === 201, JSON.stringify(fa.body));
    return fa.body.id as string;
  }
  const payoutBody = (fa: string, extra: Record<string, unknown> = {}) => ({
    account_number: emu.settings.accountNumber,
    fund_account_id: fa,
    amount: 1000,
    currency: 'INR',
    mode: 'UPI',
    purpose: 'payout',
    ...extra,
  });
  const pay = (body: unknown, key: string = randomUUID()) => call('POST', '/v1/payouts', body, { 'x-payout-idempotency': key });
  const eventsOf = (id: string) => hook.got.filter((g) => g.body.payload.payout.entity.id === id);

  describe('authentication', () => {
    it('answers 401 in the documented error shape without or with wrong credentials', async () => {
      const basic = (s: string) => Buffer.from(s).toString('base64');
      for (const authorization of [undefined, `Basic ${basic(`${emu.settings.keyId}:wrong`)}`, `Basic ${basic(`rzp_test_other:${emu.settings.keySecret}`)}`, `basic ${basic(`${emu.settings.keyId}:${emu.settings.keySecret}`)}`]) {
        const res = await fetch(`${emu.url}/v1/payouts/pout_00000000000001`, { headers: authorization ? { authorization } : {} });
        assert.equal(res.status, 401, String(authorization));
        const { error } = (await res.json()) as any;
        assert.equal(error.code, 'BAD_REQUEST_ERROR');
        assert.deepEqual(Object.keys(error).sort(), ['code', 'description', 'metadata', 'reason', 'source', 'step']);
      }
    });
  });

  describe('contacts and fund accounts', () => {
    it('creates a contact, returns the same one for identical details, and rejects bad fields naming them', async () => {
      const body = { name: 'Gaurav Kumar', email: 'gaurav.kumar@example.com', contact: '9000090000', type: 'employee', reference_id: 'Acme Contact ID 12345', notes: { k: 'v' } };
      const first = await call('POST', '/v1/contacts', body);
      assert.equal(first.status, 201);
      assert.match(first.body.id, /^cont_[0-9A-Za-z]{14}$/);
      assert.equal(first.body.entity, 'contact');
      assert.equal(first.body.active, true);
      const again = await call('POST', '/v1/contacts', body);
      assert.equal(again.status, 200);
      assert.equal(again.body.id, first.body.id);
      const other = await call('POST', '/v1/contacts', { ...body, reference_id: 'another' });
      assert.notEqual(other.body.id, first.body.id);

      for (const [bad, field] of [
        [{ email: 'x@y.z' }, 'name'],
        [{ name: 'Gaurav Kumar-' }, 'name'],
        [{ name: 'Gaurav', type: 'friend' }, 'type'],
        [{ name: 'Gaurav', colour: 'blue' }, 'colour'],
        [{ name: 'Gaurav', reference_id: 'x'.repeat(41) }, 'reference_id'],
      ] as const) {
        const res = await call('POST', '/v1/contacts', bad);
        assert.equal(res.status, 400, JSON.stringify(bad));
        assert.equal(res.body.error.field, field);
        assert.equal(res.body.error.reason, 'input_validation_failed');
      }
      assert.equal((await call('POST', '/v1/contacts', { name: 'Gaurav', type: 'friend' })).body.error.description, 'Invalid type: friend');
    });

    it('creates a VPA fund account split into username and handle, deduplicated per contact and address', async () => {
      const c = await call('POST', '/v1/contacts', { name: 'Asha Rao' });
      const body = { contact_id: c.body.id, account_type: 'vpa', vpa: { address: 'gaurav.kumar@exampleupi' } };
      const fa = await call('POST', '/v1/fund_accounts', body);
      assert.equal(fa.status, 201);
      assert.match(fa.body.id, /^fa_/);
      assert.deepEqual(fa.body.vpa, { username: 'gaurav.kumar', handle: 'exampleupi', address: 'gaurav.kumar@exampleupi' });
      assert.equal((await call('POST', '/v1/fund_accounts', body)).body.id, fa.body.id);
      assert.equal((await call('GET', `/v1/fund_accounts/${fa.body.id}`)).body.contact_id, c.body.id);

      const unknown = await call('POST', '/v1/fund_accounts', { ...body, contact_id: 'cont_00000000000000' });
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body.error.description, 'The id provided does not exist');
      for (const address of ['a@', 'no-at-sign', 'two@@handles', 'sp ace@ybl']) {
        const res = await call('POST', '/v1/fund_accounts', { ...body, vpa: { address } });
        assert.equal(res.status, 400, address);
        assert.equal(res.body.error.field, 'vpa.address');
      }
      assert.equal((await call('POST', '/v1/fund_accounts', { ...body, account_type: 'bank_account' })).status, 400);
    });
  });

  describe('create payout: validation and idempotency', () => {
    it('rejects each documented rule with a 400 naming the field, and creates nothing', async () => {
      const fa = await fundAccount('valid.rules@ybl');
      const before = (await admin('GET', '/_sim/payouts')).body.count;
      for (const [extra, field] of [
        [{ amount: 99 }, 'amount'],
        [{ amount: 100.5 }, 'amount'],
        [{ amount: '1000' }, 'amount'],
        [{ currency: 'USD' }, 'currency'],
        [{ mode: 'upi' }, 'mode'],
        [{ mode: 'IMPS' }, 'mode'],
        [{ purpose: 'gift' }, 'purpose'],
        [{ account_number: '1111222233334444' }, 'account_number'],
        [{ fund_account_id: 'fa_00000000000000' }, 'fund_account_id'],
        [{ narration: 'x'.repeat(31) }, 'narration'],
        [{ narration: 'no-dashes' }, 'narration'],
        [{ queue_if_low_balance: 'yes' }, 'queue_if_low_balance'],
        [{ notes: Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, 'v'])) }, 'notes'],
      ] as const) {
        const res = await pay(payoutBody(fa, extra));
        assert.equal(res.status, 400, JSON.stringify(extra));
        assert.equal(res.body.error.code, 'BAD_REQUEST_ERROR');
        assert.equal(res.body.error.field, field, JSON.stringify(extra));
      }
      assert.equal((await admin('GET', '/_sim/payouts')).body.count, before);
    });

    it('requires X-Payout-Idempotency with the documented error, and checks its format', async () => {
      const fa = await fundAccount('needs.key@ybl');
      const missing = await call('POST', '/v1/payouts', payoutBody(fa));
      assert.equal(missing.status, 400);
      assert.deepEqual(missing.body, {
        error: {
          code: 'BAD_REQUEST_ERROR',
          description: 'Idempotency key is missing. Include idempotency header and key in the request.',
          source: 'business',
          step: null,
          reason: 'null',
          metadata: {},
          field: 'X-Payout-Idempotency',
        },
      });
      for (const key of ['abc', 'x'.repeat(37), 'bad/key']) {
        const res = await pay(payoutBody(fa), key);
        assert.equal(res.status, 400, key);
        assert.equal(res.body.error.field, 'X-Payout-Idempotency');
      }
    });

    it('replays the first response for the same key and body, refuses a different body, and pays once', async () => {
      const fa = await fundAccount('same.key@ybl');
      const key = randomUUID();
      const first = await pay(payoutBody(fa, { reference_id: 'txn_1' }), key);
      assert.equal(first.status, 200);
      assert.equal(first.body.status, 'processing');
      await waitFor(async () => (await call('GET', `/v1/payouts/${first.body.id}`)).body.status === 'processed');
      const replay = await pay(payoutBody(fa, { reference_id: 'txn_1' }), key);
      assert.equal(replay.status, 200);
      assert.deepEqual(replay.body, first.body, 'the saved first response, not the current state');
      const conflict = await pay(payoutBody(fa, { reference_id: 'txn_1', amount: 2000 }), key);
      assert.equal(conflict.status, 400);
      assert.equal(conflict.body.error.code, 'BAD_REQUEST_ERROR');
      assert.equal(conflict.body.error.field, 'X-Payout-Idempotency');
      const ledger = (await admin('GET', '/_sim/payouts')).body;
      assert.deepEqual(ledger.idempotency[key], { requests: 3, payouts: 1 });
      assert.equal(ledger.payouts.filter((p: any) => p.reference_id === 'txn_1').length, 1);
    });

    it('saves nothing for a rejected request: a corrected retry under the same key goes through', async () => {
      const fa = await fundAccount('corrected@ybl');
      const key = randomUUID();
      assert.equal((await pay(payoutBody(fa, { amount: 50 }), key)).status, 400);
      const ok = await pay(payoutBody(fa), key);
      assert.equal(ok.status, 200);
      assert.equal(ok.body.amount, 1000);
    });
  });

  describe('lifecycle and webhooks', () => {
    it('processes an ordinary VPA: processing at create, processed with a UTR later; signed initiated + processed events', async () => {
      const fa = await fundAccount('gaurav.kumar@exampleupi');
      const p = await pay(payoutBody(fa, { notes: { order: 'A1' } }));
      assert.equal(p.body.status, 'processing');
      assert.equal(p.body.utr, null);
      assert.match(p.body.id, /^pout_[0-9A-Za-z]{14}$/);
      assert.equal(p.body.debit_account_number, emu.settings.accountNumber);
      const done = await waitFor(async () => {
        const r = await call('GET', `/v1/payouts/${p.body.id}`);
        return r.body.status === 'processed' && r.body;
      });
      assert.match(done.utr, /^\d{12}$/);
      assert.deepEqual(done.status_details, { reason: 'payout_processed', source: 'beneficiary_bank', description: 'Payout is processed and the money has been credited into the beneficiary account.' });
      assert.equal(done.failure_reason, null);

      const events = await waitFor(() => eventsOf(p.body.id).length >= 2 && eventsOf(p.body.id));
      assert.deepEqual(events.map((e) => e.body.event), ['payout.initiated', 'payout.processed']);
      for (const e of events) {
        assert.ok(verify(e), 'hex HMAC-SHA256 of the raw body under the webhook secret');
        assert.match(String(e.headers['x-razorpay-event-id']), /^[0-9A-Za-z]{14}$/);
        assert.equal(e.body.entity, 'event');
        assert.equal(e.body.account_id, emu.settings.accountId);
        assert.deepEqual(e.body.contains, ['payout']);
        assert.equal(typeof e.body.created_at, 'number');
        assert.equal(e.body.payload.payout.entity.fund_account.vpa.address, 'gaurav.kumar@exampleupi');
      }
      assert.notEqual(events[0]!.headers['x-razorpay-event-id'], events[1]!.headers['x-razorpay-event-id']);
      assert.equal(events[1]!.body.payload.payout.entity.utr, done.utr);
      assert.deepEqual(events[1]!.body.payload.payout.entity.notes, { order: 'A1' });
    });

    it('steers outcomes by VPA: failure@, invalid@, reverse@, rejected@', async () => {
      const cases = [
        ['failure.1@ybl', 'processing', ['payout.initiated', 'payout.failed'], 'failed', 'beneficiary_bank_rejected'],
        ['invalid@ybl', 'failed', ['payout.failed'], 'failed', 'beneficiary_vpa_invalid'],
        ['reverse@ybl', 'processing', ['payout.initiated', 'payout.processed', 'payout.reversed'], 'reversed', 'beneficiary_bank_offline'],
        ['rejected@ybl', 'pending', ['payout.pending', 'payout.rejected'], 'rejected', 'payout_rejected'],
      ] as const;
      await Promise.all(
        cases.map(async ([vpa, atCreate, events, final, reason]) => {
          const p = await pay(payoutBody(await fundAccount(vpa)));
          assert.equal(p.body.status, atCreate, vpa);
          const got = await waitFor(() => eventsOf(p.body.id).length >= events.length && eventsOf(p.body.id));
          assert.deepEqual(got.map((e) => e.body.event), events, vpa);
          const now = (await call('GET', `/v1/payouts/${p.body.id}`)).body;
          assert.equal(now.status, final, vpa);
          assert.equal(now.status_details.reason, reason, vpa);
          if (final === 'failed' || final === 'reversed') assert.equal(now.failure_reason, now.status_details.description);
        }),
      );
    });

    it('holds pending@ in processing until /_sim settles it; queued@ stays queued and can be cancelled', async () => {
      const held = await pay(payoutBody(await fundAccount('pending@ybl')));
      await new Promise((r) => setTimeout(r, 150));
      const still = (await call('GET', `/v1/payouts/${held.body.id}`)).body;
      assert.equal(still.status, 'processing');
      assert.equal(still.status_details.reason, 'beneficiary_bank_confirmation_pending');
      assert.equal((await call('POST', `/v1/payouts/${held.body.id}/cancel`)).status, 400, 'only queued payouts can be cancelled');
      const settled = await admin('POST', `/_sim/payouts/${held.body.id}/settle`, { status: 'processed' });
      assert.equal(settled.status, 200);
      assert.match(settled.body.utr, /^\d{12}$/);
      assert.equal((await admin('POST', `/_sim/payouts/${held.body.id}/settle`, { status: 'rejected' })).status, 409);

      const queued = await pay(payoutBody(await fundAccount('queued@ybl')));
      assert.equal(queued.body.status, 'queued');
      assert.equal(queued.body.status_details.reason, 'beneficiary_bank_down');
      const cancelled = await call('POST', `/v1/payouts/${queued.body.id}/cancel`);
      assert.equal(cancelled.status, 200);
      assert.equal(cancelled.body.status, 'cancelled');
      const events = await waitFor(() => eventsOf(queued.body.id).length >= 2 && eventsOf(queued.body.id));
      assert.deepEqual(events.map((e) => e.body.event), ['payout.queued', 'payout.updated']);
    });

    it('queues or refuses on low balance as queue_if_low_balance says, and releases the queue when funded', async () => {
      const fa = await fundAccount('balance@ybl');
      const saved = (await admin('GET', '/_sim/balance')).body.balance;
      await admin('POST', '/_sim/balance', { balance: 500 });
      const refused = await pay(payoutBody(fa));
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error.reason, 'insufficient_funds');
      const queued = await pay(payoutBody(fa, { queue_if_low_balance: true }));
      assert.equal(queued.body.status, 'queued');
      assert.equal(queued.body.status_details.reason, 'low_balance');
      const funded = await admin('POST', '/_sim/balance', { balance: saved });
      assert.deepEqual(funded.body.released, [queued.body.id]);
      await waitFor(async () => (await call('GET', `/v1/payouts/${queued.body.id}`)).body.status === 'processed');
    });

    it('accepts the composite form and answers with the fund account and contact nested', async () => {
      const body = {
        account_number: emu.settings.accountNumber,
        amount: 1000,
        currency: 'INR',
        mode: 'UPI',
        purpose: 'refund',
        fund_account: { account_type: 'vpa', vpa: { address: 'composite@okaxis' }, contact: { name: 'Gaurav Kumar', email: 'g@example.com', type: 'customer' } },
      };
      const a = await pay(body);
      assert.equal(a.status, 200, JSON.stringify(a.body));
      assert.equal(a.body.fund_account.vpa.address, 'composite@okaxis');
      assert.equal(a.body.fund_account.contact.name, 'Gaurav Kumar');
      assert.equal(a.body.fund_account_id, a.body.fund_account.id);
      const b = await pay(body);
      assert.notEqual(b.body.id, a.body.id, 'a new key is a new payout');
      assert.equal(b.body.fund_account.id, a.body.fund_account.id, 'contact and fund account are deduplicated');
      const bad = await pay({ ...body, fund_account: { ...body.fund_account, contact: {} } });
      assert.equal(bad.body.error.field, 'fund_account.contact.name');
    });

    it('lists payouts for the account, newest first, with filters and count', async () => {
      const fa = await fundAccount('listed@ybl');
      const ids = [(await pay(payoutBody(fa))).body.id, (await pay(payoutBody(fa))).body.id];
      const list = await call('GET', `/v1/payouts?account_number=${emu.settings.accountNumber}&fund_account_id=${fa}`);
      assert.equal(list.body.entity, 'collection');
      assert.deepEqual(list.body.items.map((p: any) => p.id), ids.reverse());
      assert.equal((await call('GET', `/v1/payouts?account_number=${emu.settings.accountNumber}&fund_account_id=${fa}&count=1`)).body.count, 1);
      assert.equal((await call('GET', '/v1/payouts')).status, 400);
      const unknown = await call('GET', '/v1/payouts/pout_00000000000000');
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body.error.description, 'The id provided does not exist');
      assert.equal((await call('GET', '/v1/nothing')).status, 404);
    });
  });

  describe('faults', () => {
    it('error_next answers a documented 5xx before doing anything; the retry under the same key pays once', async () => {
      await admin('POST', '/_sim/faults', { error_next: 1, error_status: 503, scope: 'create_payout' });
      const fa = await fundAccount('err.next@ybl'); // scope create_payout: contacts and fund accounts are spared
      const key = randomUUID();
      const failed = await pay(payoutBody(fa), key);
      assert.equal(failed.status, 503);
      assert.equal(failed.body.error.code, 'SERVER_ERROR');
      assert.equal((await admin('GET', '/_sim/payouts')).body.idempotency[key], undefined, 'nothing happened');
      assert.equal((await pay(payoutBody(fa), key)).status, 200);
      assert.deepEqual((await admin('GET', '/_sim/payouts')).body.idempotency[key], { requests: 1, payouts: 1 });
    });

    it('error_after_accept_next creates the payout, answers 5xx, and the same key then returns that payout', async () => {
      const fa = await fundAccount('after.accept@ybl');
      await admin('POST', '/_sim/faults', { error_after_accept_next: 1, error_status: 504 });
      const key = randomUUID();
      const failed = await pay(payoutBody(fa), key);
      assert.equal(failed.status, 504);
      assert.equal(failed.body.error.code, 'GATEWAY_ERROR');
      const ledger = (await admin('GET', '/_sim/payouts')).body;
      const made = ledger.payouts.filter((p: any) => p.idempotency_key === key);
      assert.equal(made.length, 1, 'the payout exists although the client saw an error');
      const retry = await pay(payoutBody(fa), key);
      assert.equal(retry.status, 200);
      assert.equal(retry.body.id, made[0].id);
      assert.deepEqual((await admin('GET', '/_sim/payouts')).body.idempotency[key], { requests: 2, payouts: 1 });
    });

    it('timeout_next hangs for timeout_ms; throttle_next answers 429; scope any counts every call', async () => {
      await admin('POST', '/_sim/faults', { timeout_next: 1, timeout_ms: 150 });
      const t0 = Date.now();
      assert.equal((await call('POST', '/v1/contacts', { name: 'Slow Contact' })).status, 201);
      assert.ok(Date.now() - t0 >= 140, 'hung for timeout_ms');
      await admin('POST', '/_sim/faults', { throttle_next: 1 });
      assert.equal((await call('POST', '/v1/contacts', { name: 'Throttled' })).status, 429);
      assert.equal((await call('POST', '/v1/contacts', { name: 'Throttled' })).status, 201);
      assert.equal((await admin('POST', '/_sim/faults', { nonsense: 1 })).status, 400);
      assert.equal((await admin('POST', '/_sim/faults', { error_status: 418 })).status, 400);
    });

    it('duplicate_webhooks redelivers each event with the same event id; bad_signature signs with another secret', async () => {
      await admin('POST', '/_sim/faults', { duplicate_webhooks: true, bad_signature: true });
      const p = await pay(payoutBody(await fundAccount('dupes@ybl')));
      const got = await waitFor(() => eventsOf(p.body.id).length >= 4 && eventsOf(p.body.id));
      assert.deepEqual(got.map((e) => e.body.event), ['payout.initiated', 'payout.initiated', 'payout.processed', 'payout.processed']);
      assert.equal(got[0]!.headers['x-razorpay-event-id'], got[1]!.headers['x-razorpay-event-id']);
      assert.equal(got[0]!.raw, got[1]!.raw);
      assert.ok(got.every((e) => !verify(e)));
    });

    it('out_of_order delivers the final event first; webhook_delay_ms delays delivery', async () => {
      await admin('POST', '/_sim/faults', { out_of_order: true, webhook_delay_ms: 100 });
      const t0 = Date.now();
      const p = await pay(payoutBody(await fundAccount('shuffled@ybl')));
      const got = await waitFor(() => eventsOf(p.body.id).length >= 2 && eventsOf(p.body.id));
      assert.deepEqual(got.map((e) => e.body.event), ['payout.processed', 'payout.initiated']);
      assert.equal(got[1]!.body.payload.payout.entity.status, 'processing', 'the stale event carries the old state');
      assert.ok(Date.now() - t0 >= 140, 'pendingMs plus the delay');
      assert.ok(got.every((e) => verify(e)));
    });

    it('drop_webhooks sends nothing; a receiver answering non-2xx gets retries with the same event id', async () => {
      await admin('POST', '/_sim/faults', { drop_webhooks: true });
      const dropped = await pay(payoutBody(await fundAccount('dropped@ybl')));
      await waitFor(async () => (await call('GET', `/v1/payouts/${dropped.body.id}`)).body.status === 'processed');
      const log = (await admin('GET', '/_sim/webhooks')).body.deliveries.filter((d: any) => d.payout_id === dropped.body.id);
      assert.deepEqual(log.map((d: any) => d.outcome), ['dropped', 'dropped']);
      assert.equal(eventsOf(dropped.body.id).length, 0);

      emu.setFaults({});
      hook.status.code = 400;
      const refused = await pay(payoutBody(await fundAccount('refused@ybl')));
      const tries = await waitFor(() => {
        const e = eventsOf(refused.body.id).filter((x) => x.body.event === 'payout.initiated');
        return e.length >= 3 && e;
      });
      assert.equal(new Set(tries.map((e) => e.headers['x-razorpay-event-id'])).size, 1);
      const attempts = (await admin('GET', '/_sim/webhooks')).body.deliveries.filter((d: any) => d.payout_id === refused.body.id && d.event === 'payout.initiated');
      assert.deepEqual(attempts.map((d: any) => [d.attempt, d.outcome, d.status_code]).slice(0, 3), [[1, 'rejected', 400], [2, 'rejected', 400], [3, 'rejected', 400]]);
    });

    it('POST /_sim/webhook changes the target and the secret', async () => {
      await admin('POST', '/_sim/webhook', { secret: 'rotated_secret' });
      const p = await pay(payoutBody(await fundAccount('rotated@ybl')));
      const [e] = await waitFor(() => eventsOf(p.body.id).length >= 1 && eventsOf(p.body.id));
      assert.ok(verify(e!, 'rotated_secret'));
      await admin('POST', '/_sim/webhook', { secret: WEBHOOK_SECRET });
      assert.equal((await admin('POST', '/_sim/webhook', { url: 'not a url' })).status, 400);
    });
  });
});

describe('sangam partner-sim --kind razorpayx', () => {
  it('starts the emulator and prints its settings and the SANGAM_PARTNER_RAZORPAYX_* variables', async () => {
    const { child, printed: out } = await startCli(['--kind', 'razorpayx', '--port', '0', '--key-id', 'rzp_test_cli', '--key-secret', 'cli_secret', '--latency-ms', '0']);
    try {
      assert.equal(out.kind, 'razorpayx');
      assert.equal(out.key_id, 'rzp_test_cli');
      assert.equal(out.env.SANGAM_PARTNER_RAZORPAYX_URL, out.url);
      assert.equal(out.env.SANGAM_PARTNER_RAZORPAYX_ACCOUNT_NUMBER, out.account_number);
      const res = await fetch(`${out.url}/v1/contacts`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from('rzp_test_cli:cli_secret').toString('base64')}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'From The CLI' }),
      });
      assert.equal(res.status, 201);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
