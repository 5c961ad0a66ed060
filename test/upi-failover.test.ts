// Failover between the two UPI partners, end to end: Sangam with `rzp` (kind razorpayx) and `cashfree`
// (kind cashfree-payouts) both serving upi-payment-status, each against its emulator in-process, in
// both route orders. The rule under test (providers/router.ts): a payment moves to the second partner
// ONLY when the first failed before any outcome (it refused, or was never reached); once a request may
// have reached the first partner's bank (a read timeout, a 5xx after acceptance, Sangam itself killed
// mid-call) the payment stays pending with that partner, a client retry sends nothing anywhere,
// reconciliation settles it there, and the second partner never sees it. Both emulators' /_sim
// listings are the witnesses; the wallet and the ledger check prove the money moved once.
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { openStore } from '../src/db/client.js';
import { startCashfreePayoutsEmulator, type CashfreePayoutsEmulator } from '../partner-sim/cashfree-payouts/index.js';
import { startRazorpayxEmulator, type RazorpayxEmulator } from '../partner-sim/razorpayx/index.js';
import { eventually, PATHS, sleep, VALID } from './harness.js';
import { assertLedgerHolds, acceptedTxnId, freePort, liveReads, liveStore, startPartnerApp, upiPartnerVars, type PartnerApp } from './live-harness.js';

const SERVER = fileURLToPath(new URL('../src/server.js', import.meta.url));
const RZP_WEBHOOK_SECRET = 'rzp_webhook_secret_for_failover';
const CF_SECRET = 'cfsk_ma_test_failover_secret';
const FEE_PAISE = 100; // the default price of upi-payment-status
const FULL_BALANCE = 10_000_000_000;

type Partner = 'rzp' | 'cashfree';
const ORDERS: Array<{ first: Partner; second: Partner }> = [
  { first: 'rzp', second: 'cashfree' },
  { first: 'cashfree', second: 'rzp' },
];

let rzp: RazorpayxEmulator;
let cf: CashfreePayoutsEmulator;

before(async () => {
  rzp = await startRazorpayxEmulator({ webhookSecret: RZP_WEBHOOK_SECRET, pendingMs: 150, latencyMs: 0, webhookAttempts: 1 });
  cf = await startCashfreePayoutsEmulator({ clientSecret: CF_SECRET, pendingMs: 150, latencyMs: 0, rateLimitPerMinute: 0, webhookAttempts: 1 });
});
after(async () => {
  await rzp.close();
  await cf.close();
});

/** Both partners' variables, routed `first>second`; webhooks come back to `base`. */
function partnerEnv(order: { first: Partner; second: Partner }, base: string, over: Record<string, string> = {}): Record<string, string> {
  return {
    ...upiPartnerVars(rzp, cf),
    SANGAM_PARTNER_ROUTES: `upi-payment-status=${order.first}>${order.second}`,
    SANGAM_PUBLIC_URL: base,
    SANGAM_RECONCILE_SCHEDULE: '3,1',
    SANGAM_RECONCILE_POLL_MS: '100',
    SANGAM_BREAKER_MIN_CALLS: '10000',
    ...over,
  };
}

/** Sets one emulator's faults; the *_next counters count payout creations only. */
function faults(p: Partner, f: Record<string, unknown>): void {
  if (p === 'rzp') rzp.setFaults({ scope: 'create_payout', ...f });
  else cf.setFaults({ scope: 'create_transfer', ...f });
}

/** The fault set an emulator holds now (its /_sim/faults), to see a `*_next` counter consumed. */
const faultsNow = async (p: Partner) => (await (await fetch(p === 'rzp' ? `${rzp.url}/_sim/faults` : `${cf.origin}/_sim/faults`)).json()) as Record<string, number>;

/** What each emulator's /_sim listing holds for one transaction: payouts/transfers made, create requests seen. */
async function atPartners(txnId: string) {
  const r = (await (await fetch(`${rzp.url}/_sim/payouts`)).json()) as { payouts: Array<{ reference_id: string | null }>; idempotency: Record<string, { requests: number }> };
  const c = (await (await fetch(`${cf.origin}/_sim/transfers`)).json()) as { transfers: Array<{ transfer_id: string; requests: number }> };
  const mine = c.transfers.filter((x) => x.transfer_id === txnId);
  return {
    rzp: { made: r.payouts.filter((p) => p.reference_id === txnId).length, requests: r.idempotency[txnId]?.requests ?? 0 },
    cashfree: { made: mine.length, requests: mine.reduce((n, x) => n + x.requests, 0) },
  };
}

/** Every payout creation request a partner has seen, all transactions together. */
async function requestsAt(p: Partner): Promise<number> {
  if (p === 'rzp') {
    const r = (await (await fetch(`${rzp.url}/_sim/payouts`)).json()) as { idempotency: Record<string, { requests: number }> };
    return Object.values(r.idempotency).reduce((n, k) => n + k.requests, 0);
  }
  const c = (await (await fetch(`${cf.origin}/_sim/transfers`)).json()) as { transfers: Array<{ requests: number }> };
  return c.transfers.reduce((n, x) => n + x.requests, 0);
}

/** Exactly one payout in all, at `p`; nothing at the other. */
async function paidOnlyAt(p: Partner, txnId: string, otherRequests = 0) {
  const seen = await atPartners(txnId);
  const other: Partner = p === 'rzp' ? 'cashfree' : 'rzp';
  assert.equal(seen[p].made, 1, `one payout at ${p}: ${JSON.stringify(seen)}`);
  assert.deepEqual(seen[other], { made: 0, requests: otherRequests }, `nothing at ${other}: ${JSON.stringify(seen)}`);
}

/** Sends both emulators' webhooks to `base`. */
function webhooksTo(base: string): void {
  rzp.setWebhook({ url: `${base}/partners/rzp/webhooks` });
  cf.setWebhookUrl(`${base}/partners/cashfree/webhooks`);
}

/** The transaction ids a partner has been asked to pay, from its /_sim listing. */
async function txnIdsAt(p: Partner): Promise<Set<string>> {
  if (p === 'rzp') return new Set(Object.keys(((await (await fetch(`${rzp.url}/_sim/payouts`)).json()) as { idempotency: Record<string, unknown> }).idempotency));
  return new Set(((await (await fetch(`${cf.origin}/_sim/transfers`)).json()) as { transfers: Array<{ transfer_id: string }> }).transfers.map((x) => x.transfer_id));
}

async function startUpiApp(order: { first: Partner; second: Partner }, over: Record<string, string> = {}): Promise<PartnerApp> {
  const port = await freePort();
  return startPartnerApp({ ...partnerEnv(order, `http://127.0.0.1:${port}`, over), SANGAM_PARTNER_TIMEOUT_MS: '600', ...over }, { port });
}

const resetEmulators = async () => {
  rzp.setFaults({});
  cf.setFaults({});
  await fetch(`${rzp.url}/_sim/balance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ balance: FULL_BALANCE }) });
};

for (const order of ORDERS) {
  const { first, second } = order;

  describe(`UPI failover, route ${first}>${second}`, () => {
    let t: PartnerApp;
    before(async () => {
      t = await startUpiApp(order);
      webhooksTo(t.base);
    });
    after(() => t.close());
    afterEach(async () => {
      await resetEmulators();
      await assertLedgerHolds(t.store.db);
    });

    const pay = (body: Record<string, unknown>) => t.call('POST', PATHS.upi, { key: t.liveKey, body });
    const reads = liveReads(() => t);
    const { txOf, wallet } = reads;
    const final = (ref: string) => reads.final(ref, 12_000);
    const holder = async (txnId: string) => (await t.store.db.selectFrom('transactions').select('partner').where('id', '=', txnId).executeTakeFirstOrThrow()).partner;

    // ---- before any outcome: the second partner makes the payout --------------------------------

    const refusals: Array<[string, () => Promise<unknown> | void]> = [
      ['429 (throttled)', () => faults(first, { throttle_next: 1 })],
      first === 'rzp'
        ? ['400 (business account too low)', () => fetch(`${rzp.url}/_sim/balance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"balance":100}' })]
        : ['403 (apis_not_enabled)', () => faults(first, { apis_not_enabled: true })],
    ];
    for (const [name, refuse] of refusals) {
      it(`${first} refuses with a ${name}: the payout is made at ${second}, one in all, debited once`, async () => {
        await refuse();
        const before = await wallet();
        const body = { ...VALID.upi(), vpa: 'moved.on@ybl', amount: 21.5 };
        const txnId = acceptedTxnId(await pay(body));
        await resetEmulators(); // the refusal was one-off: nothing may now reach the first partner by itself
        const done = await final(body.reference_id);
        assert.equal(done.body.data.status, 'success');
        assert.equal(await holder(txnId), second);
        // the first partner saw (at most) the refused request, and made nothing
        const refused = (await atPartners(txnId))[first].requests;
        assert.ok(refused <= 1);
        await paidOnlyAt(second, txnId, refused);
        assert.deepEqual(await wallet(), { balance: before.balance - 2150 - FEE_PAISE, held: 0 });
      });
    }

    const cutOff: Array<[string, Record<string, string>]> = [
      ['refuses our credentials (401)', { [first === 'rzp' ? 'SANGAM_PARTNER_RZP_KEY_SECRET' : 'SANGAM_PARTNER_CASHFREE_CLIENT_SECRET']: 'wrong' }],
      ['is unreachable', {}],
    ];
    for (const [name, over] of cutOff) {
      it(`${first} ${name}: the payout is made at ${second}, one in all, debited once`, async () => {
        const dead = `http://127.0.0.1:${await freePort()}${first === 'cashfree' ? '/payout' : ''}`;
        const env = name === 'is unreachable' ? { [first === 'rzp' ? 'SANGAM_PARTNER_RZP_URL' : 'SANGAM_PARTNER_CASHFREE_URL']: dead } : over;
        // Its own app (other settings), which the emulators call back for now.
        const other = await startUpiApp(order, env);
        webhooksTo(other.base);
        try {
          const body = { ...VALID.upi(), vpa: 'moved.on@ybl', amount: 33 };
          const r = await other.call('POST', PATHS.upi, { key: other.liveKey, body });
          assert.equal(r.status, 200, r.text);
          const txnId = r.body.data.txn_id as string;
          const done = await eventually(async () => {
            const x = await other.call('GET', `/api/v1/transactions/${body.reference_id}`, { key: other.liveKey });
            return x.body.data.status !== 'pending' && x;
          }, 12_000);
          assert.equal(done.body.data.status, 'success');
          await paidOnlyAt(second, txnId, (await atPartners(txnId))[first].requests);
          const w = (await other.call('GET', '/api/v1/account/wallet', { key: other.liveKey })).body.data;
          assert.deepEqual({ balance: Math.round(w.balance * 100), held: Math.round(w.held * 100) }, { balance: 10_000 * 100 - 3300 - FEE_PAISE, held: 0 });
          await assertLedgerHolds(other.store.db);
        } finally {
          webhooksTo(t.base);
          await other.close();
        }
      });
    }

    // ---- after the request may have reached the bank: never failed over --------------------------

    for (const [name, fault, hangMs] of [
      ['a read timeout after sending', { timeout_next: 1, timeout_ms: 2000 }, 2000],
      ['a 5xx after acceptance', { error_after_accept_next: 1, error_status: 500 }, 0],
    ] as const) {
      it(`${first} gives ${name}: pending with ${first}, the retry sends nothing, reconciled at ${first}, never sent to ${second}`, async () => {
        faults(first, { ...fault, drop_webhooks: true });
        const before = await wallet();
        const body = { ...VALID.upi(), vpa: 'only.once@ybl', amount: 61 };
        const txnId = acceptedTxnId(await pay(body));
        assert.equal(await holder(txnId), first);
        const sent = await atPartners(txnId);
        assert.deepEqual(sent[second], { made: 0, requests: 0 });

        const again = await pay(body);
        assert.equal(again.status, 200);
        assert.equal(again.headers['idempotent-replayed'], 'true');
        assert.equal(again.body.data.txn_id, txnId);
        assert.deepEqual(await atPartners(txnId), sent, 'the client retry sent nothing anywhere');

        const done = await final(body.reference_id);
        assert.equal(done.body.data.status, 'success');
        assert.equal(await holder(txnId), first);
        assert.deepEqual(await t.store.db.selectFrom('partner_callbacks').select('webhook_id').where('txn_id', '=', txnId).execute(), []); // reconciliation, not a webhook
        await sleep(hangMs); // the hung first request lands as a repeat, not a second payout
        await paidOnlyAt(first, txnId);
        assert.deepEqual(await wallet(), { balance: before.balance - 6100 - FEE_PAISE, held: 0 });
      });
    }
  });
}

// ---- Sangam killed between sending the payout and storing the answer -----------------------------

describe('UPI failover: a crash mid-call never moves the payment to the other partner', () => {
  afterEach(resetEmulators);

  for (const order of ORDERS) {
    const { first, second } = order;
    it(`route ${first}>${second}: SIGKILL while ${first} holds the request; after restart the retry sends nothing, reconciled at ${first}, nothing at ${second}`, async (tc) => {
      const START = 5_000_00;
      const { loc, key } = await liveStore('Crash Payer', START);

      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      webhooksTo(base);
      const env = {
        ...process.env,
        // The first status enquiry is due after the kill: one leased by the killed process would be
        // held for the lease time.
        ...partnerEnv(order, base, { SANGAM_RECONCILE_SCHEDULE: '3,1' }),
        DATABASE_URL: loc.databaseUrl ?? '',
        SANGAM_DATA_DIR: loc.dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        // long enough that Sangam is still waiting for the partner when it is killed
        SANGAM_PARTNER_TIMEOUT_MS: '10000',
        SANGAM_IDEMPOTENCY_LOCK_MS: '1000',
        SANGAM_RATE_LIMIT_PER_SEC: '100000',
        SANGAM_RATE_LIMIT_BURST: '100000',
      };
      let server: ChildProcess | undefined;
      tc.after(() => void (server?.exitCode === null && server.kill('SIGKILL')));
      const start = async (more: Record<string, string> = {}) => {
        const child = fork(SERVER, [], { env: { ...env, ...more, LOG_LEVEL: process.env.DEBUG_CHILD ? 'info' : 'silent' }, stdio: process.env.DEBUG_CHILD ? 'inherit' : 'ignore' });
        server = child;
        // Ready only when OUR child says it listens: another test's server could answer /health here.
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('server did not start')), 60_000);
          child.once('message', (m) => m === 'ready' && (clearTimeout(timer), resolve()));
          child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`server exited with ${code} before it was ready`))));
        });
      };
      const api = (method: string, path: string, body?: unknown) =>
        fetch(`${base}${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
          signal: AbortSignal.timeout(15_000),
        });

      try {
        await start();
        // The first partner holds the payout request for a second, then executes it; no webhooks, so
        // only reconciliation can settle it.
        const landedBefore = await requestsAt(first);
        const knownBefore = await txnIdsAt(first);
        faults(first, { timeout_next: 1, timeout_ms: 1000, drop_webhooks: true });
        const body = { reference_id: `crash-${first}-${randomUUID().slice(0, 8)}`, consent: true, vpa: 'crash.once@ybl', amount: 44, idempotency_key: randomUUID() };
        const inFlight = api('POST', PATHS.upi, body).then(
          () => 'answered',
          () => 'cut off',
        );
        await eventually(async () => (await faultsNow(first)).timeout_next === 0, 30_000); // the request reached the partner
        server!.kill('SIGKILL');
        await new Promise((r) => server!.once('exit', r));
        assert.equal(await inFlight, 'cut off');
        // The partner executes the request whose answer Sangam never stored: the money may have moved.
        await eventually(async () => (await requestsAt(first)) === landedBefore + 1, 30_000);
        // Restarted with its reconciler's first look 2 s away, so that what the client's retry does
        // (or does not) send can be told apart from reconciliation.
        await start({ SANGAM_RECONCILE_POLL_MS: '2000' });

        // The client retries with the same key until answered: the transaction as it stands (pending, or
        // already settled if the reconciler looked first on a slow machine), nothing sent.
        const retried = await eventually(async () => {
          const r = await api('POST', PATHS.upi, body);
          if (r.status !== 200) return void (await r.body?.cancel());
          return (await r.json()) as { data: { status: string } };
        }, 30_000, 100);
        assert.ok(['pending', 'success'].includes(retried.data.status), JSON.stringify(retried));
        // The payment's transaction id, as the first partner was given it (the one new id there).
        const fresh = [...(await txnIdsAt(first))].filter((id) => !knownBefore.has(id));
        assert.equal(fresh.length, 1);
        const txnId = fresh[0]!;
        assert.match(txnId, /^txn_/);
        // Only the first request ever reached a partner.
        const seen = await atPartners(txnId);
        assert.deepEqual(seen, { [first]: { made: 1, requests: 1 }, [second]: { made: 0, requests: 0 } }, 'the retry sent nothing anywhere');

        const done = await eventually(async () => {
          const r = (await (await api('GET', `/api/v1/transactions/${body.reference_id}`)).json()) as { data: { status: string; utr: string | null } };
          return r.data.status !== 'pending' && r;
        }, 20_000, 100);
        assert.equal(done.data.status, 'success');
        await paidOnlyAt(first, txnId);
        const w = ((await (await api('GET', '/api/v1/account/wallet')).json()) as { data: { balance: number; held: number } }).data;
        assert.deepEqual({ balance: Math.round(w.balance * 100), held: Math.round(w.held * 100) }, { balance: START - 4400 - FEE_PAISE, held: 0 });
      } finally {
        if (server?.exitCode === null) {
          server.kill('SIGTERM');
          await new Promise((r) => server!.once('exit', r));
        }
      }

      const check = await openStore({ databaseUrl: loc.databaseUrl, dataDir: loc.dataDir });
      try {
        const rows = await check.db.selectFrom('transactions').select(['id', 'partner', 'status']).where('reference_id', 'like', 'crash-%').execute();
        assert.equal(rows.length, 1, 'one transaction for the payment');
        assert.deepEqual({ partner: rows[0]!.partner, status: rows[0]!.status }, { partner: first, status: 'success' });
        await assertLedgerHolds(check.db);
      } finally {
        await check.close();
        await loc.drop();
      }
    });
  }
});
