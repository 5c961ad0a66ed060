// The bank test, Jepsen style, against the real-partner emulators: a live Sangam server process (UPI
// routed RazorpayX → Cashfree, Setu prepaid recharge, Setu DTH), concurrent clients retrying every
// operation with its own idempotency key until a definite answer, kill -9 of the server mid-run (and a
// restart), partner faults by phase (5xx before and after acceptance, timeouts, throttling that moves
// UPI to Cashfree, dropped, duplicated, reordered, mis-signed and forged webhooks), and reversals at
// the partners — some while Sangam is down, their webhooks given up before it is back. Once the run is
// quiet, every operation is compared at the partner, in Sangam and in the client's answer (verdict.ts),
// then the wallet, `ledger check` and `audit verify`. A Setu prepaid reversal whose every webhook
// missed Sangam must then be in Needs attention: the float check (src/float/, every 300 ms here) finds
// Setu's wallet holding that much more than Sangam's books and names the recharge as a candidate. Used by test/bank.test.ts and bench/bank.ts.
import { openStore } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { consolePeople, decideOverHttp } from '../person-decides.js';
import { createAccount, createKey } from '../../src/accounts/store.js';
import { addEntry } from '../../src/access/allowlist.js';
import { approve } from '../../src/access/approvals.js';
import { OPERATION_SLUGS } from '../../src/operations/registry.js';
import { topUp } from '../../src/ledger/ledger.js';
import { listFees } from '../../src/ledger/pricing.js';
import { checkLedger } from '../../src/ledger/check.js';
import { verifyAudit } from '../../src/audit/checkpoints.js';
import { float } from '../../src/admin/actions/index.js';
import { randomBase62 } from '../../src/ids.js';
import { freshStoreLocation, sleep } from '../harness.js';
import { ServerProcess } from '../live-harness.js';
import { Partners, type Kind } from './partners.js';
import { plan, Progress, runClients, type Answer, type Op, type TwinAnswers } from './workload.js';
import { disagreement, expectedWallet, tally, type Row, type SangamView, type Tally } from './verdict.js';

export interface BankOptions {
  ops: Record<Kind, number>;
  clients: number;
  /** When to kill -9 the server: shares (0 to 1) of the operations started. */
  kills: number[];
  /** SANGAM_RECONCILE_SCHEDULE and SANGAM_REVERSAL_WATCH_SCHEDULE of the run (seconds). */
  reconcileSchedule: string;
  watchSchedule: string;
  log: (line: string) => void;
}

export interface BankReport {
  tally: Tally;
  kills: number;
  faultPhases: string[];
  reversals: { whileDown: number; whileUp: number; byLifecycle: number };
  clients: { requests: number; retries: number; replays: number; unanswered: number };
  /** Operations sent twice at once under two keys: how many, how many of those got a 409/114, and what broke CONTRACT §5. */
  twins: { pairs: number; taken: number; broken: string[] };
  wallet: { balance: number; held: number; byPartners: number; bySangam: number };
  transactionsPerReference: string[];
  flagged: string[];
  /**
   * DTH payments Sangam recorded and Setu never received, which stayed pending with their holds (BBPS
   * documents no not-found for a payment) until the test's operations team marked them failed in Needs
   * attention, having found nothing on Setu's side: their references.
   */
  decidedByPerson: string[];
  /**
   * Setu's float once quiet: the drift the float check last measured against the sum of the
   * unobservable reversals, and how each unobservable reversal is shown to a person (posted, or a
   * candidate of the open drift item; `missing` otherwise).
   */
  float: { drift: number | null; unobservable: number; shown: Array<{ reference: string; txnId: string | null; shown: 'posted' | 'candidate' | 'missing' }> };
  ledger: { ok: boolean; breaches: string[] };
  audit: { ok: boolean; checked: number };
  ms: { total: number; run: number; settle: number };
}

const START_PAISE = 1_000_000_00;
/** How long the reconciler leases a due enquiry (SANGAM_RECONCILE_LEASE_S below): one leased by a killed server waits this long. */
const LEASE_S = 5;
const LEASE_MS = LEASE_S * 1000;

/** The partners' faults, phase by phase (shares of the operations started), then the kills. */
const PHASES: Array<{ at: number; name: string; faults: Parameters<Partners['faults']>[0]; reverseWhileUp?: boolean }> = [
  {
    at: 0.1,
    name: 'RazorpayX throttles (UPI fails over to Cashfree, whose webhooks come twice and out of order); Setu 503s twice; DTH webhooks dropped',
    faults: { rzp: { throttle_next: 1_000_000 }, cf: { duplicate_webhooks: true, out_of_order: true }, setu: { error_next: 2, error_status: 503 }, dth: { drop_webhooks: true } },
  },
  {
    at: 0.35,
    name: 'RazorpayX 5xx after accepting and drops webhooks; Setu times out and forges successes; DTH 5xx after accepting, webhooks twice; a reversal at each partner while Sangam is up',
    faults: {
      rzp: { error_after_accept_next: 3, error_status: 500, drop_webhooks: true },
      setu: { timeout_next: 2, timeout_ms: 1500, forged_success: true },
      dth: { error_after_accept_next: 2, error_status: 502, duplicate_webhooks: true },
    },
    reverseWhileUp: true,
  },
  {
    at: 0.6,
    name: 'RazorpayX 503s before doing anything, webhooks twice and out of order; Setu drops webhooks; DTH times out and forges successes',
    faults: { rzp: { error_next: 2, error_status: 503, duplicate_webhooks: true, out_of_order: true }, setu: { drop_webhooks: true }, dth: { timeout_next: 2, timeout_ms: 1500, forged_success: true } },
  },
  {
    at: 0.85,
    name: 'RazorpayX signs webhooks with a wrong secret; Setu sends webhooks twice',
    faults: { rzp: { bad_signature: true }, setu: { duplicate_webhooks: true } },
  },
];

async function seed(loc: { databaseUrl: string | undefined; dataDir: string }, setuWalletPaise: number) {
  const store = await openStore({ databaseUrl: loc.databaseUrl, dataDir: loc.dataDir });
  try {
    await migrate(store.db);
    const accountId = (await createAccount(store.db, 'Bank Test')).id;
    const { key } = await createKey(store.db, accountId, 'live');
    await addEntry(store.db, accountId, 'live', '127.0.0.1');
    await approve(store.db, accountId, OPERATION_SLUGS);
    await topUp(store.db, accountId, START_PAISE, 'bank test funds');
    // Setu's wallet as the operator reads it on its dashboard: where the float's books start.
    await float.opening(store.db, 'cli', { partner: 'setu', amountPaise: setuWalletPaise, memo: 'bank test: Setu wallet at the start' });
    const fees = new Map((await listFees(store.db)).map((f) => [f.operation, f.fee_paise]));
    // The operations team: two administrators who settle what no partner answer can (maker-checker).
    const people = await consolePeople(store.db);
    return { key, fees, people };
  } finally {
    await store.close();
  }
}

/** GET with the live key, retried while the server is unreachable. */
async function read(server: ServerProcess, key: string, path: string): Promise<{ status: number; data: Record<string, unknown> }> {
  for (let i = 0; ; i++) {
    try {
      const r = await fetch(`${server.base}${path}`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(10_000) });
      return { status: r.status, data: ((await r.json()) as { data: Record<string, unknown> }).data };
    } catch (err) {
      if (i >= 50) throw err;
      await sleep(100);
    }
  }
}

async function inBatches<T, R>(items: T[], size: number, fn: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

export async function runBank(o: BankOptions): Promise<BankReport> {
  const t0 = Date.now();
  const loc = await freshStoreLocation();
  const partners = await Partners.start();
  const server = new ServerProcess({
    ...partners.env(),
    DATABASE_URL: loc.databaseUrl ?? '',
    SANGAM_DATA_DIR: loc.dataDir,
    SANGAM_PARTNER_TIMEOUT_MS: '800',
    SANGAM_RECONCILE_SCHEDULE: o.reconcileSchedule,
    SANGAM_RECONCILE_POLL_MS: '100',
    SANGAM_RECONCILE_LEASE_S: String(LEASE_S),
    SANGAM_REVERSAL_WATCH_SCHEDULE: o.watchSchedule,
    SANGAM_IDEMPOTENCY_LOCK_MS: '1500',
    SANGAM_BREAKER_MIN_CALLS: '10000',
    SANGAM_RATE_LIMIT_PER_SEC: '100000',
    SANGAM_RATE_LIMIT_BURST: '100000',
    SANGAM_FLOAT_CHECK_MS: '300',
    SANGAM_FLOAT_CONFIRM_CHECKS: '2',
  });
  try {
    const { key, fees, people } = await seed(loc, partners.setu.settings.walletPaise);
    const run = new BankRun(o, partners, server, key, people);
    await run.restart();
    await run.drive();
    const tRun = Date.now();
    const rows = await run.settle();
    // Setu prepaid's float shows its reversals Sangam could not learn of; a DTH refund whose webhooks
    // all missed (BBPS shows refunds nowhere else) is counted apart, in the tally's unobservable list.
    const unobservable = rows.filter((r) => r.partner.unobservable && r.op.kind === 'recharge');
    const drift = await floatSettled(server, unobservable.reduce((sum, r) => sum + r.op.amountPaise, 0), o.log);
    const tSettled = Date.now();
    const w = (await read(server, key, '/api/v1/account/wallet')).data as { balance: number; held: number };
    await server.stop();
    const fee = (op: Op) => fees.get({ upi: 'upi-payment-status', recharge: 'recharge-commission', dth: 'dth-recharge' }[op.kind]) ?? 0;
    return {
      tally: tally(rows),
      kills: run.kills,
      faultPhases: PHASES.map((p) => p.name),
      reversals: { ...run.reversals, byLifecycle: rows.filter((r) => r.partner.reversed).length - run.reversals.whileDown - run.reversals.whileUp },
      clients: { ...run.stats, unanswered: run.ops.length - run.answers.size },
      twins: { pairs: run.twins.length, taken: run.twins.filter((t) => t.answers.some((a) => a?.status === 'taken')).length, broken: run.twins.flatMap(twinBreach) },
      wallet: {
        balance: Math.round(w.balance * 100),
        held: Math.round(w.held * 100),
        byPartners: expectedWallet(rows, START_PAISE, fee, 'partner'),
        bySangam: expectedWallet(rows, START_PAISE, fee, 'sangam'),
      },
      decidedByPerson: run.decidedByPerson,
      ...(await inspectStore(loc, unobservable, drift)),
      ms: { total: Date.now() - t0, run: tRun - t0, settle: tSettled - tRun },
    };
  } finally {
    await server.kill();
    await partners.close();
    await loc.drop();
  }
}

/**
 * Why a twin pair breaks CONTRACT §5, or nothing: both executed, one unanswered, or a 409/114 naming
 * another transaction than the one that executed.
 */
function twinBreach(t: TwinAnswers): string[] {
  const [a, b] = t.answers;
  if (!a || !b) return [`${t.reference}: a twin got no definite answer`];
  const ran = [a, b].filter((x) => x.status !== 'taken' && x.status !== 'unsent');
  if (ran.length > 1) return [`${t.reference}: both twins executed (${ran.map((x) => x.txnId).join(', ')})`];
  const taken = [a, b].find((x) => x.status === 'taken');
  if (taken && ran[0] && taken.txnId !== ran[0].txnId) return [`${t.reference}: 409/114 named ${taken.txnId}, ${ran[0].txnId} executed`];
  return [];
}

/** A gauge of /metrics for the partner `setu`; null when it has no value. */
async function gauge(server: ServerProcess, name: string): Promise<number | null> {
  const text = await (await fetch(`${server.base}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{partner="setu"}`));
  return line === undefined ? null : Number(line.split(' ').at(-1));
}

/**
 * Waits (up to 20 s) until the float check measures Setu's drift as `expected` — the reversals Sangam
 * could not learn of — with an item open when it is not zero; answers the drift last measured.
 */
async function floatSettled(server: ServerProcess, expected: number, log: (line: string) => void): Promise<number | null> {
  const by = Date.now() + 20_000;
  let drift: number | null = null;
  for (;;) {
    drift = await gauge(server, 'sangam_float_drift_paise');
    const open = await gauge(server, 'sangam_float_open_drifts');
    if (drift === expected && (expected === 0 || open === 1)) break;
    if (Date.now() > by) break;
    await sleep(200);
  }
  log(`Setu float: drift ${drift} paise measured, ${expected} expected from the unobservable reversals`);
  return drift;
}

/** What the store says once the server is stopped: one transaction per reference, flags, the float's drift item, the ledger, the audit chains. */
async function inspectStore(loc: { databaseUrl: string | undefined; dataDir: string }, unobservable: Row[], drift: number | null) {
  const store = await openStore({ databaseUrl: loc.databaseUrl, dataDir: loc.dataDir });
  try {
    const item = await store.db.selectFrom('float_drifts').select('candidates').where('partner', '=', 'setu').where('state', '=', 'open').executeTakeFirst();
    const named = new Set(item?.candidates.transactions.map((c) => c.txn_id) ?? []);
    const shown = unobservable.map((r) => {
      const txnId = r.sangam.txnId;
      return { reference: r.op.reference, txnId, shown: r.sangam.reversed ? ('posted' as const) : txnId && named.has(txnId) ? ('candidate' as const) : ('missing' as const) };
    });
    const txns = await store.db.selectFrom('transactions').select(['reference_id', 'flagged', 'review_reason', 'ref_released']).where('environment', '=', 'live').execute();
    // A reference names one transaction (CONTRACT §5); a call answered 502/504 let its reference go.
    const perRef = new Map<string, number>();
    for (const t of txns) if (!t.ref_released) perRef.set(t.reference_id, (perRef.get(t.reference_id) ?? 0) + 1);
    const ledger = await checkLedger(store.db);
    const audit = await verifyAudit(store.db);
    return {
      transactionsPerReference: [...perRef].filter(([, n]) => n !== 1).map(([ref, n]) => `${ref}: ${n}`),
      flagged: txns.filter((t) => t.flagged || t.review_reason).map((t) => `${t.reference_id}: ${t.flagged ?? t.review_reason}`),
      float: { drift, unobservable: unobservable.reduce((sum, r) => sum + r.op.amountPaise, 0), shown },
      ledger: { ok: ledger.ok, breaches: ledger.breaches },
      audit: { ok: audit.ok, checked: audit.checked },
    };
  } finally {
    await store.close();
  }
}

/** One run: the operations, the clients' answers, and what the test did to Sangam and the partners. */
class BankRun {
  readonly ops: Op[];
  readonly progress: Progress;
  answers = new Map<string, Answer>();
  twins: TwinAnswers[] = [];
  stats = { requests: 0, retries: 0, replays: 0 };
  reversals = { whileDown: 0, whileUp: 0 };
  kills = 0;
  decidedByPerson: string[] = [];
  private lastRestart = Date.now();
  /** The watch looks at a success at the schedule's offsets: its last look, after the success. */
  private readonly lastLookMs: number;

  constructor(
    private o: BankOptions,
    private partners: Partners,
    private server: ServerProcess,
    private key: string,
    private people: Awaited<ReturnType<typeof consolePeople>>,
  ) {
    this.ops = plan(o.ops, randomBase62(6));
    this.progress = new Progress(this.ops.length);
    this.lastLookMs = Math.max(...o.watchSchedule.split(',').map(Number)) * 1000;
  }

  async restart(): Promise<void> {
    await this.server.start();
    this.partners.webhooksTo(this.server.base);
    this.lastRestart = Date.now();
  }

  /** The clients, and beside them the faults, reversals and kills at their shares of the run. */
  async drive(): Promise<void> {
    // The clients stop at the first failure of the director.
    const halt = new AbortController();
    const clients = runClients(this.ops, this.o.clients, () => this.server.base, this.key, this.progress, halt.signal);
    const director = this.direct().catch((err: unknown) => (halt.abort(), Promise.reject(err)));
    const [{ answers, stats, twins }] = await Promise.all([clients, director]);
    Object.assign(this, { answers, stats, twins });
    this.partners.faults({});
    this.o.log(`all ${answers.size}/${this.ops.length} answered after ${stats.requests} requests (${stats.retries} retries, ${stats.replays} replays)`);
  }

  private async direct(): Promise<void> {
    const steps = [...PHASES.map((p) => ({ at: p.at, phase: p })), ...this.o.kills.map((at) => ({ at, phase: null }))].sort((a, b) => a.at - b.at);
    // A reversal is made only of a success recent enough that the watch's last look at it is still at
    // least a second away.
    const windowMs = this.lastLookMs - 1000;
    const at = () => `${this.progress.started}/${this.ops.length} started`;
    for (const { at: share, phase } of steps) {
      await this.progress.reached(share);
      if (phase) {
        this.partners.faults(phase.faults);
        this.o.log(`${at()}: ${phase.name}`);
        if (phase.reverseWhileUp) this.reversals.whileUp += (await this.partners.reverseLatest({ rzp: 1, cf: 1, setu: 1, dth: 1 }, windowMs)).length;
        continue;
      }
      await this.server.kill();
      this.kills++;
      // Reversed while Sangam is down; every delivery of their webhooks fails before it is back.
      // (Not DTH: like a prepaid reversal, a DTH refund is signalled only by webhook — Setu's payment/response has no refund.)
      const reversed = await this.partners.reverseLatest({ rzp: 2, cf: 1 }, windowMs);
      await this.partners.missed(reversed);
      this.reversals.whileDown += reversed.length;
      const down = Date.now();
      await this.restart();
      this.o.log(`${at()}: kill -9 #${this.kills}; ${reversed.length} reversals made while down (${reversed.map((x) => x.partner).join(', ')}), their webhooks missed; back after ${this.lastRestart - down} ms`);
    }
  }

  /**
   * Waits until the run is quiet — nothing pending in Sangam, nothing moving at the partners — then
   * until Sangam and the partners agree or the reversal watch has had its last look, and answers every
   * operation as each side sees it. Each look asks Sangam again only about what is still open (a final
   * state stays final); the last one asks about all.
   */
  async settle(): Promise<Row[]> {
    const sangamOf = async (op: Op): Promise<SangamView> => {
      const r = await read(this.server, this.key, `/api/v1/transactions/${op.reference}`);
      if (r.status === 404) return { status: 'missing', txnId: null, reversed: false };
      return { status: r.data.status as SangamView['status'], txnId: (r.data.txn_id as string | null) ?? null, reversed: Boolean(r.data.reversed_at) };
    };
    const withPartner = (r: Omit<Row, 'partner'>): Row => ({ ...r, partner: this.partners.view(r.op.kind, r.sangam.txnId ?? r.answer?.txnId ?? null) });
    const rowOf = async (op: Op): Promise<Row> => withPartner({ op, answer: this.answers.get(op.reference), sangam: await sangamOf(op) });
    let rows = await inBatches(this.ops, 8, rowOf);
    let said = Date.now();
    const until = async (open: (r: Row) => boolean, by: number) => {
      while (rows.some(open) && Date.now() < by) {
        await sleep(500);
        rows = await inBatches(rows, 8, async (r) => (open(r) ? rowOf(r.op) : withPartner(r)));
        if (Date.now() - said < 5000) continue;
        said = Date.now();
        const left = rows.filter(open);
        this.o.log(`${left.length} still open, e.g. ${left.slice(0, 5).map((r) => `${r.op.reference} (Sangam ${r.sangam.status}; ${r.partner.at} ${r.partner.outcome}${r.partner.moving ? ' moving' : ''})`).join(', ')}`);
      }
    };
    // Both waits cover the reconciler's lease: an enquiry a killed server had leased waits it out.
    const leaseOver = this.lastRestart + LEASE_MS;
    const started = Date.now();
    await until((r) => r.sangam.status === 'pending' || r.partner.moving, Math.max(Date.now(), leaseOver) + 15_000);
    this.o.log(`quiet ${Date.now() - started} ms after the last answer`);
    rows = await this.decideUnanswerable(rows, rowOf);
    // Every success is older than now: its watch's last look is at most the last offset away.
    await until((r) => disagreement(r) !== null, Math.max(Date.now(), leaseOver) + this.lastLookMs + 3000);
    return inBatches(this.ops, 8, rowOf);
  }

  /**
   * What a person settles once the run is quiet: a DTH payment still pending in Sangam that Setu holds
   * nothing of. BBPS documents no not-found for a payment, so Sangam rightly keeps it pending with its
   * hold (it cannot tell "never arrived" from "not yet shown"); the operations team checks Setu's side
   * (the emulator's books) and marks it failed in Needs attention. Nothing else is decided by hand: a
   * pending UPI payout or prepaid recharge still open here is a disagreement.
   */
  private async decideUnanswerable(rows: Row[], rowOf: (op: Op) => Promise<Row>): Promise<Row[]> {
    const unanswerable = rows.filter((r) => r.op.kind === 'dth' && r.sangam.status === 'pending' && r.sangam.txnId && r.partner.at === 'none' && !r.partner.moving);
    for (const r of unanswerable) {
      await decideOverHttp(this.server.base, this.people, r.sangam.txnId!, 'failed', 'Setu BBPS shows no payment under this request');
      this.decidedByPerson.push(r.op.reference);
    }
    if (unanswerable.length > 0) this.o.log(`decided by a person (failed, Setu holds nothing): ${this.decidedByPerson.join(', ')}`);
    return inBatches(rows, 8, (r) => (unanswerable.includes(r) ? rowOf(r.op) : Promise.resolve(r)));
  }
}

/** The report as lines a person reads: the numbers, then every disagreement and contradiction. */
export function reportLines(r: BankReport): string[] {
  const t = r.tally;
  const lines = [
    `${t.operations} operations (${Object.entries(t.byKind).map(([k, n]) => `${k} ${n}`).join(', ')}); ${r.kills} kill -9; ${r.faultPhases.length} fault phases; reversals: ${r.reversals.whileDown} while Sangam was down, ${r.reversals.whileUp} while up, ${r.reversals.byLifecycle} by the partners' own lifecycle`,
    `at the partners: ${Object.entries(t.partnerOutcomes).sort().map(([k, n]) => `${k}: ${n}`).join('; ')}`,
    `clients: ${r.clients.requests} requests, ${r.clients.retries} retries, ${r.clients.replays} replays, ${r.clients.unanswered} unanswered`,
    `one reference, two keys at once: ${r.twins.pairs} pairs, ${r.twins.taken} answered 409/114, ${r.twins.broken.length} broken`,
    `partner-versus-Sangam disagreements: ${t.disagreements.length}; made at both UPI partners: ${t.madeAtBoth.length}; client answers contradicting the final state: ${t.contradictions.length}; prepaid reversals unobservable by the API (every webhook missed, PARTNERS.md §9.4): ${t.unobservable.length}`,
    `wallet: balance ${r.wallet.balance} paise, held ${r.wallet.held}; the partners' books imply ${r.wallet.byPartners} (difference ${r.wallet.balance - r.wallet.byPartners}); Sangam's own transactions imply ${r.wallet.bySangam}`,
    `settled by a person (DTH payments Setu never received, pending until someone checked): ${r.decidedByPerson.length ? r.decidedByPerson.join(', ') : 'none'}`,
    `ledger check: ${r.ledger.ok ? 'ok' : r.ledger.breaches.join('; ')}; audit verify: ${r.audit.ok ? 'ok' : 'BROKEN'} (${r.audit.checked} rows); references with other than one transaction: ${r.transactionsPerReference.length}; flagged for review: ${r.flagged.length}`,
    `wall time ${(r.ms.total / 1000).toFixed(1)} s (run ${(r.ms.run / 1000).toFixed(1)} s, settling ${(r.ms.settle / 1000).toFixed(1)} s)`,
  ];
  for (const d of t.disagreements) lines.push(`  DISAGREE ${d.reference} ${d.txnId ?? ''}: ${d.why} (partner: ${d.partner}; Sangam: ${d.sangam})`);
  for (const c of t.contradictions) lines.push(`  CONTRADICTS ${c.reference}: ${c.why}`);
  for (const u of t.unobservable) lines.push(`  UNOBSERVABLE ${u.reference}: Setu reversed it and every REVERSED webhook missed Sangam (${u.deliveries})`);
  lines.push(`Setu float: drift ${r.float.drift} paise, the unobservable reversals ${r.float.unobservable}; ${r.float.shown.map((s) => `${s.reference} ${s.shown}`).join(', ') || 'none to show'}`);
  for (const f of r.flagged) lines.push(`  FLAGGED ${f}`);
  return lines;
}
