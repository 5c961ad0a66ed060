// The shared connector conformance suite (after the shared security suite for routes, security.test.ts):
// one list of scenarios every partner's end-to-end test runs against its emulator, so a new partner is
// judged by the same scenarios as the others. Each partner supplies an adapter — how to make the call,
// which request its emulator answers how, how to make it misbehave, how to forge its webhook — and runs
// `conformance(adapter)` inside its own describe block (whose before/after start the app and emulator
// and whose afterEach checks the ledger). Every scenario ends with an exact wallet check. A scenario
// that cannot apply to a partner (no pending state, no webhooks) is declared with the reason and shows
// as skipped, never silently absent. CONFORMANCE_SUITES lists which file runs it for which kind;
// connector-conformance.test.ts fails when a kind in the registry has none.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, type TestApp } from './harness.js';
import { assertLedgerHolds, liveReads } from './live-harness.js';

/** Partner kind (providers/registry.ts) → the test file that runs the conformance scenarios for it. */
export const CONFORMANCE_SUITES: Record<string, string> = {
  razorpayx: 'razorpayx.test.ts',
  'cashfree-payouts': 'cashfree-payouts.test.ts',
  'setu-recharge': 'setu-recharge.test.ts',
  'setu-dth': 'setu-dth.test.ts',
  'cashfree-verification': 'cashfree-verification.test.ts',
  'surepass-signature': 'surepass-signature.test.ts',
};

/** Kinds that do not run the scenarios, and why; a kind must be in one list or the other. */
export const CONFORMANCE_EXEMPT: Record<string, string> = {
  sangam: 'the simulator of CONTRACT §8 speaks no upstream protocol; live.test.ts, crash.test.ts and pending-durable.test.ts drive the same cases through it',
  digilocker: 'an OAuth consent flow, not one call: success, denied consent (the refusal) and an unverifiable document are digilocker-live.test.ts; it has no pending state, 5xx path to reconcile or webhook',
};

export type Scenario = 'success' | 'refusal' | 'pendingReconciled' | 'unknownAnswer' | 'lost' | 'forgedWebhook' | 'duplicateEvent' | 'wrongCredentials';

/** What the emulator is asked to answer. */
export type Steer =
  /** A success (final at once, or by the partner's webhook). */
  | 'success'
  /** A business failure: the partner declines; nothing is paid. */
  | 'refusal'
  /** Pending at the partner until the test settles it (`settle`). */
  | 'held';

export type Misbehaviour =
  /** The partner does the work, then answers 5xx; its webhooks are dropped (only an enquiry can settle it). */
  | 'error-after-work'
  /** The partner answers 5xx before doing anything; webhooks dropped. */
  | 'error-before-work'
  /** Every webhook is delivered twice. */
  | 'duplicate-webhooks';

export interface ConformanceAdapter {
  /** The partner kind, in test titles. */
  kind: string;
  /** The running live app (a getter: the partner's describe block starts it in `before`). */
  app(): TestApp;
  /** The operation's path. */
  path: string;
  /** A fresh request body (a fresh reference) that the emulator answers as `steer` says. */
  body(steer: Steer): Record<string, unknown>;
  /** What a success of `body` takes from the wallet, in paise (the amount less any commission, plus the fee). */
  debit(body: Record<string, unknown>): number;
  /** What a refusal takes: nothing for a payment or a recharge; the fee for a completed check. */
  refusalCharge(body: Record<string, unknown>): number;
  /** How many of this transaction the partner holds (payouts, transfers, recharges, penny drops); absent where the partner keys nothing by our transaction (a comparison). */
  madeAt?(txnId: string): number | Promise<number>;
  /** How many create requests for it reached the partner, where the emulator counts them. */
  creates?(txnId: string): Promise<number>;
  /** The emulator's fault set for each misbehaviour it offers (its own /_sim/faults knobs). */
  faults: Partial<Record<Misbehaviour, object>>;
  /** Replaces the emulator's fault set; {} behaves again. */
  setFaults(f: object): void;
  /** Settles a `held` transaction at the partner as a success. */
  settle?(txnId: string): Promise<void>;
  /** Sends webhooks about a pending transaction that the partner did not sign (or sent to the wrong secret URL); answers their HTTP statuses. */
  forge?(txnId: string): Promise<number[]>;
  /** Truthy once the emulator has delivered each webhook of this transaction twice, answered 2xx, and Sangam recorded each event once. */
  duplicatesDelivered?(txnId: string): Promise<unknown>;
  /**
   * A second app whose partner variables hold a wrong credential (plus `env`, the scenario's own knobs),
   * what the 502 says, and the credential (never shown).
   */
  wrongCredentials?: { start(env: Record<string, string>): Promise<TestApp>; message: RegExp; secret: string };
  /** Everything the emulator holds (it must not grow when the partner refuses our credentials). */
  total?(): number;
  /** What a refusal's message says (the partner's reason, in our words). */
  refusalMessage: RegExp;
  /**
   * How the partner answers a 5xx before any work: pending then failed by a DOCUMENTED not-found on a
   * documented lookup; a 502 at once (the partner documents that answer as "nothing executed"); or pending
   * with its hold until a person decides (the partner documents no answer that says "nothing executed").
   */
  lost: 'pending-then-failed' | 'refused-at-once' | 'pending-until-decided';
  /**
   * The "unknown answer" rule: makes the partner's status lookup answer what it does not document (the
   * gateway's 404 for a route, as if the lookup were not there), or puts it back. Absent when the partner
   * documents no lookup at all — then every enquiry is unknown and `decide` ends the transaction.
   */
  lookupUnknown?(on: boolean): Promise<void>;
  /** A person settles a pending transaction (the console's Needs attention, maker-checker): test/person-decides.ts. */
  decide?(txnId: string, action: 'success' | 'failed'): Promise<void>;
  /**
   * What a person records for a transaction the partner did make but never answered: success, or
   * failed where the operation's success carries what the partner read, which a person cannot supply
   * (src/contract/partner-read.ts; a verification still pays its fee).
   */
  decidesMade?: 'success' | 'failed';
  /** Scenarios that cannot apply to this partner, and why. */
  notApplicable?: Partial<Record<Scenario, string>>;
  /** Partner-specific checks of a success, beside the common ones (what the partner recorded, its reference). */
  afterSuccess?(txnId: string, done: { body: any }, body: Record<string, unknown>): Promise<void>;
}

const TITLES: Record<Scenario, string> = {
  success: 'success: final success, the partner holds it once, debited once',
  refusal: 'refusal: a business failure, nothing paid, charged only what a completed check costs',
  pendingReconciled: 'a 5xx after the partner did the work: pending, the client’s retry sends nothing, reconciled by enquiry; charged once',
  unknownAnswer:
    'an answer that is not a documented outcome (a 5xx after the work, then the gateway’s 404 for the lookup route): pending with its hold, never re-sent, failed or failed over, until a documented answer or a person decides',
  lost: 'no answer and nothing at the partner (a 5xx before any work): failed, nothing paid or charged, never sent again',
  forgedWebhook: 'a forged webhook is refused with a 4xx and changes nothing',
  duplicateEvent: 'duplicate webhook deliveries are applied once',
  wrongCredentials: 'a credential the partner refuses: a 502 that says so and shows no secret; nothing made, nothing debited',
};

/**
 * Shown (as a skip) for a kind whose adapter cannot yet make its lookup answer what the partner does not
 * document (its emulator has no switch for the gateway's 404) nor end a transaction by a person.
 */
const NO_UNKNOWN_KNOB = 'the adapter offers neither lookupUnknown (its emulator has no switch for an undocumented lookup answer yet) nor decide';

/** Runs every scenario for one partner; call it inside the partner's describe block. */
export function conformance(a: ConformanceAdapter): void {
  const { txOf, wallet, final } = liveReads(() => a.app());
  const call = (body: Record<string, unknown>) => a.app().call('POST', a.path, { key: a.app().liveKey, body });
  const ctx: Ctx = { a, call, txOf, wallet, final };
  for (const s of Object.keys(TITLES) as Scenario[]) {
    const why = a.notApplicable?.[s] ?? (s === 'unknownAnswer' && !a.lookupUnknown && !a.decide ? NO_UNKNOWN_KNOB : undefined);
    const title = `conformance (${a.kind}): ${TITLES[s]}`;
    if (why) it(title, { skip: `not applicable: ${why}` }, () => {});
    else
      it(title, async () => {
        try {
          await SCENARIOS[s](ctx);
        } finally {
          a.setFaults({});
        }
      });
  }
}

interface Ctx {
  a: ConformanceAdapter;
  call(body: Record<string, unknown>): Promise<{ status: number; text: string; body: any; headers: Record<string, unknown> }>;
  txOf: ReturnType<typeof liveReads>['txOf'];
  wallet: ReturnType<typeof liveReads>['wallet'];
  final: ReturnType<typeof liveReads>['final'];
}

const minus = (w: { balance: number }, paise: number) => ({ balance: w.balance - paise, held: 0 });

/** Starts a scenario: the emulator misbehaving as asked, the wallet before, and the call's answer. */
async function begin(c: Ctx, steer: Steer, m?: Misbehaviour) {
  if (m) {
    const f = c.a.faults[m];
    assert.ok(f, `the ${c.a.kind} adapter offers no ${m} faults`);
    c.a.setFaults(f);
  }
  const before = await c.wallet();
  const body = c.a.body(steer);
  const r = await c.call(body);
  return { before, body, r, ref: body.reference_id as string };
}

/** Our transaction id behind an answer: data.txn_id where the operation answers one, else the stored row's. */
async function txnIdOf(a: ConformanceAdapter, r: { body: any }, ref: string): Promise<string> {
  if (typeof r.body.data?.txn_id === 'string') return r.body.data.txn_id;
  const row = await a.app().store.db.selectFrom('transactions').select('id').where('reference_id', '=', ref).executeTakeFirstOrThrow();
  return row.id;
}

/**
 * The transaction stays pending with its hold while the reconciler asks about it (twice at least): not
 * failed, not sent to another partner, its hold in the wallet.
 */
async function stillPending(c: Ctx, txnId: string, body: Record<string, unknown>): Promise<void> {
  const db = c.a.app().store.db;
  const row = () => db.selectFrom('transactions').select(['status', 'partner', 'checks']).where('id', '=', txnId).executeTakeFirstOrThrow();
  const first = await row();
  await eventually(async () => (await row()).checks >= 2, 20_000);
  const now = await row();
  assert.equal(now.status, 'pending');
  assert.equal(now.partner, first.partner, 'never failed over');
  assert.equal((await c.txOf(body.reference_id as string)).body.data.status, 'pending');
  assert.ok((await c.wallet()).held >= c.a.debit(body), 'the hold is kept');
}

const SCENARIOS: Record<Scenario, (c: Ctx) => Promise<void>> = {
  async success(c) {
    const { a, final, wallet } = c;
    const { before, body, r } = await begin(c, 'success');
    assert.equal(r.status, 200, r.text);
    assert.ok(['TXN', 'TUP'].includes(r.body.statuscode), r.text);
    const txnId = await txnIdOf(a, r, body.reference_id as string);
    const done = await final(body.reference_id as string);
    assert.equal(done.body.statuscode, 'TXN', done.text);
    assert.equal(done.body.data.status, 'success');
    if (a.madeAt) assert.equal(await a.madeAt(txnId), 1);
    await a.afterSuccess?.(txnId, done, body);
    assert.deepEqual(await wallet(), minus(before, a.debit(body)));
  },

  async refusal(c) {
    const { a, final, wallet } = c;
    const { before, body, r } = await begin(c, 'refusal');
    assert.equal(r.status, 200, r.text);
    const done = await final(body.reference_id as string);
    assert.equal(done.body.statuscode, 'ERR', done.text);
    assert.equal(done.body.data.status, 'failed');
    assert.match(done.body.data.message, a.refusalMessage);
    if ('commission' in done.body.data) assert.equal(done.body.data.commission, 0, 'a refusal earns no commission');
    assert.deepEqual(await wallet(), minus(before, a.refusalCharge(body)));
  },

  async pendingReconciled(c) {
    const { a, call, final, wallet } = c;
    const { before, body, r } = await begin(c, 'success', 'error-after-work');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.statuscode, 'TUP', r.text);
    assert.equal(r.body.data.verified_at, null);
    const txnId = await txnIdOf(a, r, body.reference_id as string);
    const created = (await a.creates?.(txnId)) ?? null;
    const again = await call(body);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.body.data.reference_id, body.reference_id);
    if (created !== null) assert.equal(await a.creates!(txnId), created, 'the client’s retry sent nothing');
    const done = await final(body.reference_id as string, 15_000);
    assert.equal(done.body.data.status, 'success', done.text);
    assert.equal(await a.madeAt!(txnId), 1);
    if (created !== null) assert.equal(await a.creates!(txnId), 1, 'reconciliation looked it up; it never sent the create again');
    assert.deepEqual(await wallet(), minus(before, a.debit(body)));
  },

  async unknownAnswer(c) {
    const { a, call, final, wallet } = c;
    const { before, body, r } = await begin(c, 'success', 'error-after-work');
    await a.lookupUnknown?.(true);
    try {
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.statuscode, 'TUP', r.text);
      const txnId = await txnIdOf(a, r, body.reference_id as string);
      const created = (await a.creates?.(txnId)) ?? null;
      const again = await call(body);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      await stillPending(c, txnId, body);
      assert.equal(await a.madeAt!(txnId), 1, 'the partner holds it once');
      if (created !== null) assert.equal(await a.creates!(txnId), created, 'nothing was sent again');
      // Then a documented answer (the lookup back), or — where the partner documents none — a person.
      if (a.lookupUnknown) await a.lookupUnknown(false);
      else await a.decide!(txnId, a.decidesMade ?? 'success');
    } finally {
      await a.lookupUnknown?.(false);
    }
    const ends = a.lookupUnknown ? 'success' : (a.decidesMade ?? 'success');
    const done = await final(body.reference_id as string, 15_000);
    assert.equal(done.body.data.status, ends, done.text);
    assert.deepEqual(await wallet(), minus(before, ends === 'success' ? a.debit(body) : a.refusalCharge(body)));
  },

  async lost(c) {
    const { a, call, final, wallet } = c;
    const { before, body, r } = await begin(c, 'success', 'error-before-work');
    if (a.lost === 'refused-at-once') {
      assert.ok(r.status === 502 || r.status === 504, r.text);
      assert.equal(r.body.data.Errorcode, 113);
      assert.match(r.body.data.Message, /nothing was (executed or )?debited/);
    } else if (a.lost === 'pending-until-decided') {
      assert.equal(r.body.statuscode, 'TUP', r.text);
      const txnId = await txnIdOf(a, r, body.reference_id as string);
      await stillPending(c, txnId, body);
      if (a.madeAt) assert.equal(await a.madeAt(txnId), 0, 'no status enquiry created it');
      await a.decide!(txnId, 'failed');
      assert.equal((await final(body.reference_id as string)).body.data.status, 'failed');
      // A failure a person records costs what a failure costs (the fee of a completed check, else nothing).
      assert.deepEqual(await wallet(), minus(before, a.refusalCharge(body)));
      return;
    } else {
      assert.equal(r.body.statuscode, 'TUP', r.text);
      const txnId = await txnIdOf(a, r, body.reference_id as string);
      const again = await call(body);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.body.data.reference_id, body.reference_id);
      const done = await final(body.reference_id as string, 20_000);
      assert.equal(done.body.data.status, 'failed', done.text);
      assert.match(done.body.data.message, /never reached the partner network/);
      if (a.madeAt) assert.equal(await a.madeAt(txnId), 0, 'no status enquiry created it');
    }
    assert.deepEqual(await wallet(), minus(before, 0));
  },

  async forgedWebhook(c) {
    const { a, final, txOf, wallet } = c;
    const { body, r } = await begin(c, 'held');
    assert.equal(r.body.statuscode, 'TUP', r.text);
    const txnId = await txnIdOf(a, r, body.reference_id as string);
    const held = await wallet();
    try {
      for (const status of await a.forge!(txnId)) assert.ok(status >= 400 && status < 500, `a forged webhook got HTTP ${status}`);
      assert.equal((await txOf(body.reference_id as string)).body.data.status, 'pending');
      assert.deepEqual(await wallet(), held);
    } finally {
      await a.settle!(txnId); // a failure here must not leave a hold for the next test to trip over
    }
    assert.equal((await final(body.reference_id as string)).body.data.status, 'success');
    assert.deepEqual(await wallet(), { balance: held.balance, held: held.held - a.debit(body) });
  },

  async duplicateEvent(c) {
    const { a, final, wallet } = c;
    const { before, body, r } = await begin(c, 'held', 'duplicate-webhooks');
    assert.equal(r.body.statuscode, 'TUP', r.text);
    const txnId = await txnIdOf(a, r, body.reference_id as string);
    await a.settle!(txnId);
    assert.equal((await final(body.reference_id as string)).body.data.status, 'success');
    await eventually(async () => a.duplicatesDelivered!(txnId), 30_000);
    assert.deepEqual(await wallet(), minus(before, a.debit(body)));
  },

  async wrongCredentials({ a }) {
    // A generous deadline: a cold app on a loaded machine must not turn the refusal into a timeout (pending).
    const bad = await a.wrongCredentials!.start({ SANGAM_PARTNER_TIMEOUT_MS: '5000' });
    try {
      const wallet = async () => (await bad.call('GET', '/api/v1/account/wallet', { key: bad.liveKey })).body.data;
      const before = await wallet();
      const made = a.total?.();
      const r = await bad.call('POST', a.path, { key: bad.liveKey, body: a.body('success') });
      assert.equal(r.status, 502, r.text);
      assert.equal(r.body.data.Errorcode, 113);
      assert.match(r.body.data.Message, a.wrongCredentials!.message);
      assert.ok(!r.text.includes(a.wrongCredentials!.secret), 'the credential is never shown');
      assert.deepEqual(await wallet(), before);
      if (made !== undefined) assert.equal(a.total!(), made);
      await assertLedgerHolds(bad.store.db);
    } finally {
      await bad.close();
    }
  },
};
