// Live-mode harness: the real partner simulator as a separate process (`sangam partner-sim`), and an
// app that listens on a real port so the simulator's signed callbacks reach it. The seeded account is
// approved for every operation, allow-listed for 127.0.0.1 and topped up.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { after, afterEach, before } from 'node:test';
import assert from 'node:assert/strict';
import { addEntry } from '../src/access/allowlist.js';
import { approve } from '../src/access/approvals.js';
import { OPERATION_SLUGS } from '../src/operations/registry.js';
import { topUp } from '../src/ledger/ledger.js';
import { checkLedger } from '../src/ledger/check.js';
import type { CashfreePayoutsEmulator } from '../partner-sim/cashfree-payouts/index.js';
import type { RazorpayxEmulator } from '../partner-sim/razorpayx/index.js';
import type { Outcome, PartnerContext } from '../src/providers/connector.js';
import { operationBySlug } from '../src/operations/registry.js';
import type { LiveOutcome } from '../src/operations/live-runner.js';
import { partnerEnv } from '../partner-sim/kind.js';
import { eventually, freshStoreLocation, PATHS, startApp, type Response, type StoreLocation, type TestApp } from './harness.js';
import { openStore, type Db } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { createAccount, createKey } from '../src/accounts/store.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SERVER = fileURLToPath(new URL('../src/server.js', import.meta.url));

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

export interface Sim {
  url: string;
  secret: string;
  child: ChildProcess;
  faults(f: Record<string, unknown>): Promise<void>;
  calls(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

export async function startSim(opts: { pendingMs?: number; latencyMs?: number; secret?: string } = {}): Promise<Sim> {
  const secret = opts.secret ?? `whsec_${randomBytes(24).toString('base64')}`;
  const child = spawn(
    process.execPath,
    ['bin/sangam.js', 'partner-sim', '--port', '0', '--secret', secret, '--latency-ms', String(opts.latencyMs ?? 0), '--pending-ms', String(opts.pendingMs ?? 300)],
    // stderr through this process, never inherited: a simulator orphaned by a failed test must not hold
    // the test runner's pipe open (the runner would wait for it forever).
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stderr!.on('data', (d: Buffer) => process.stderr.write(d));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`partner-sim exited with ${code}`)));
  });
  const { url } = JSON.parse(line) as { url: string };
  return {
    url,
    secret,
    child,
    async faults(f) {
      await fetch(`${url}/_sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(f) });
    },
    async calls() {
      return (await (await fetch(`${url}/_sim/calls`)).json()) as Record<string, number>;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

export interface PartnerApp extends TestApp {
  /** Where the app answers (its SANGAM_PUBLIC_URL). */
  base: string;
}

/**
 * A live-mode app with `env` (the partner's variables and the test's knobs): the seeded account
 * allow-listed for 127.0.0.1, approved for every operation and topped up with `topUpInr`. `port`: a
 * number listens there and is the public URL; null is a public URL nothing answers (the app is called
 * through inject only); undefined leaves the public URL to config.
 */
export async function startPartnerApp(
  env: Record<string, string>,
  opts: { port?: number | null; topUpInr?: number; logStream?: NodeJS.WritableStream } = {},
): Promise<PartnerApp> {
  const base = opts.port === undefined ? '' : `http://127.0.0.1:${opts.port ?? 1}`;
  const t = await startApp({ ...(base ? { SANGAM_PUBLIC_URL: base } : {}), ...env }, undefined, true, opts.logStream);
  if (typeof opts.port === 'number') await t.app.listen({ port: opts.port, host: '127.0.0.1' });
  await readyForLive(t.store.db, t.accountId, (opts.topUpInr ?? 10_000) * 100, 'test funds');
  return { ...t, base: base || t.config.publicUrl };
}

/** An account ready for live calls: 127.0.0.1 allow-listed, approved for every operation, `paise` topped up (none when 0). */
async function readyForLive(db: Db, accountId: string, paise: number, note: string | null): Promise<void> {
  await addEntry(db, accountId, 'live', '127.0.0.1');
  await approve(db, accountId, OPERATION_SLUGS);
  if (paise > 0) await topUp(db, accountId, paise, note);
}

/**
 * A fresh store for a server process of its own (the crash tests), migrated and holding one account
 * `name` ready for live calls with `paise`; its live key.
 */
export async function liveStore(name: string, paise: number): Promise<{ loc: StoreLocation; accountId: string; key: string }> {
  const loc = await freshStoreLocation();
  const store = await openStore({ databaseUrl: loc.databaseUrl, dataDir: loc.dataDir });
  try {
    await migrate(store.db);
    const accountId = (await createAccount(store.db, name)).id;
    const { key } = await createKey(store.db, accountId, 'live');
    await readyForLive(store.db, accountId, paise, null);
    return { loc, accountId, key };
  } finally {
    await store.close();
  }
}

/**
 * What a connector factory is lent, for the tests that check its variables at boot: the partner `name`,
 * its `vars`, and nothing it may call (a factory only reads its variables; sessions hold nothing).
 */
export function factoryContext(name: string, vars: Record<string, string>, url = 'http://127.0.0.1:1'): PartnerContext {
  return {
    name,
    url,
    vars,
    webhookUrl: '',
    oauthCallbackUrl: '',
    timeoutFor: () => 1000,
    sessions: { get: async () => undefined, put: async () => undefined, delete: async () => undefined, keys: async () => [] },
  };
}

/** The knobs every partner suite sets: enquiries polled quickly, no circuit breaker in the way, outbound webhooks allowed to loopback. */
export const PARTNER_SUITE_ENV = { SANGAM_RECONCILE_POLL_MS: '100', SANGAM_BREAKER_MIN_CALLS: '10000', SANGAM_WEBHOOK_ALLOW_PRIVATE: '1' };

/**
 * Sangam's variables for one partner suite: the partner `name` of `kind` at `url` with its own `vars`
 * (the variables `sangam partner-sim` prints), `operation` routed to it, and the suite knobs.
 */
export function partnerSuiteEnv(name: string, kind: string, url: string, vars: Record<string, string>, operation: string): Record<string, string> {
  return { ...partnerEnv(name, kind, url, vars), SANGAM_PARTNER_ROUTES: `${operation}=${name}`, ...PARTNER_SUITE_ENV };
}

interface SuiteParts {
  emu: { setFaults(f: object): void; close(): Promise<void> };
  t: TestApp;
}

/**
 * The life of a partner suite, registered on the enclosing describe: before it, `start` gets a free
 * port for the app (the emulator is told its webhook URL before the app exists) and starts both; after
 * each test the emulator behaves again and the ledger is checked; after it, the app then the emulator
 * close.
 */
export function partnerSuiteLife(start: (port: number) => Promise<SuiteParts>): void {
  let parts: SuiteParts | undefined;
  before(async () => {
    parts = await start(await freePort());
  });
  after(async () => {
    await parts?.t.close();
    await parts?.emu.close();
  });
  afterEach(() => behaveAndCheckLedger(parts!.emu, parts!.t));
}

/** Every ledger invariant holds in `db`; otherwise fails naming the breaches. */
export async function assertLedgerHolds(db: Db): Promise<void> {
  const r = await checkLedger(db);
  assert.ok(r.ok, `ledger check failed:\n${r.breaches.join('\n')}`);
}

/** After each partner test: the emulator behaves again, and every ledger invariant still holds. */
export async function behaveAndCheckLedger(emu: { setFaults(f: object): void }, app: TestApp): Promise<void> {
  emu.setFaults({});
  await assertLedgerHolds(app.store.db);
}

/**
 * How the partner tests read a live transaction and the wallet (in paise), with the live key. `app` is
 * a getter: the reads are made in a describe block, before `before` has started the app.
 */
export function liveReads(app: () => TestApp) {
  const txOf = (ref: string) => app().call('GET', `/api/v1/transactions/${ref}`, { key: app().liveKey });
  return {
    txOf,
    wallet: async () => {
      const r = await app().call('GET', '/api/v1/account/wallet', { key: app().liveKey });
      return { balance: Math.round(r.body.data.balance * 100), held: Math.round(r.body.data.held * 100) };
    },
    /** The transaction once it is no longer pending. */
    final: (ref: string, timeoutMs = 30_000) =>
      eventually(async () => {
        const r = await txOf(ref);
        return r.body.data.status !== 'pending' && r;
      }, timeoutMs),
  };
}

/** A live call answered 200 TUP (the partner has not finished): its transaction id. */
export function acceptedTxnId(r: Response): string {
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.statuscode, 'TUP');
  return r.body.data.txn_id as string;
}

export interface LiveApp extends TestApp {
  sim: Sim;
  base: string;
  /** Fails the test if any ledger invariant is broken. */
  assertLedger(): Promise<void>;
  wallet(key?: string): Promise<{ balance: number; held: number }>;
}

export async function startLive(env: Record<string, string> = {}, topUpInr = 10_000, sim?: Sim): Promise<LiveApp> {
  const s = sim ?? (await startSim());
  const t = await startPartnerApp({ SANGAM_PARTNER_URL: s.url, SANGAM_PARTNER_SECRET: s.secret, SANGAM_PARTNER_TIMEOUT_MS: '2000', ...env }, { port: await freePort(), topUpInr });
  const close = t.close;
  return {
    ...t,
    sim: s,
    assertLedger: () => assertLedgerHolds(t.store.db),
    async wallet(key) {
      const r = await t.call('GET', '/api/v1/account/wallet', { key: key ?? t.liveKey });
      return { balance: r.body.data.balance, held: r.body.data.held };
    },
    async close() {
      await close();
      if (!sim) await s.stop();
    },
  };
}

/**
 * A Sangam server in a process of its own, as an operator runs it, for tests that kill it. Each start
 * is on a fresh port (PORT and SANGAM_PUBLIC_URL follow), and it is ready only when OUR child says it
 * listens: a test running beside this one may have taken the old port, and its server would answer
 * /health in our stead. DEBUG_CHILD=1 shows its log.
 */
export class ServerProcess {
  child: ChildProcess | undefined;
  base = '';

  constructor(private env: Record<string, string | undefined>) {}

  async start(more: Record<string, string> = {}): Promise<string> {
    const port = await freePort();
    this.base = `http://127.0.0.1:${port}`;
    const debug = Boolean(process.env.DEBUG_CHILD);
    const env = { ...process.env, LOG_LEVEL: debug ? 'info' : 'silent', ...this.env, ...more, PORT: String(port), HOST: '127.0.0.1', SANGAM_PUBLIC_URL: this.base };
    const child = fork(SERVER, [], { env, stdio: debug ? 'inherit' : 'ignore' });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('server did not start')), 60_000);
      child.once('message', (m) => m === 'ready' && (clearTimeout(timer), resolve()));
      child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`server exited with ${code} before it was ready`))));
    });
    return this.base;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** kill -9, and wait until it is gone. */
  kill(): Promise<void> {
    return this.end('SIGKILL');
  }

  /** A graceful stop (SIGTERM), and wait until it is gone. */
  stop(): Promise<void> {
    return this.end('SIGTERM');
  }

  private async end(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await gone;
  }
}

/** Sangam's variables for the two UPI partners on their emulators: `rzp` (razorpayx) and `cashfree` (cashfree-payouts). */
export function upiPartnerVars(rzp: RazorpayxEmulator, cf: CashfreePayoutsEmulator): Record<string, string> {
  const r = rzp.settings;
  return {
    ...partnerEnv('rzp', 'razorpayx', rzp.url, { KEY_ID: r.keyId, KEY_SECRET: r.keySecret, ACCOUNT_NUMBER: r.accountNumber, FAV_ACCOUNT_NUMBER: r.liteAccountNumber, WEBHOOK_SECRET: r.webhookSecret }),
    ...partnerEnv('cashfree', 'cashfree-payouts', cf.url, { CLIENT_ID: cf.settings.clientId, CLIENT_SECRET: cf.settings.clientSecret }),
  };
}

/**
 * Phase 3 of the live UPI payment `txnId` handed straight to the service's group commit, as the request
 * path hands it once `partner` answered `outcome`: `before` is what its recovery point stored (null:
 * unknown, the group commit's transaction whatever the batch). Its audit row carries `requestId`.
 */
export function submitOutcome(t: TestApp, p: { txnId: string; requestId: string; partner: string; outcome: Outcome; before: LiveOutcome['before'] }) {
  const def = operationBySlug.get('upi-payment-status')!;
  return t.services.outcomes.submit({
    def,
    ctx: { requestId: p.requestId, txnId: p.txnId, withAnswer: [] },
    scope: null,
    before: p.before,
    outcome: { ...p.outcome, partner: p.partner } as Outcome,
    audit: (body) => ({
      request_id: p.requestId,
      created_at: new Date(),
      account_id: t.accountId,
      key_id: null,
      environment: 'live',
      client_ip: '127.0.0.1',
      method: 'POST',
      path: PATHS.upi,
      operation: def.slug,
      http_status: 200,
      ok: true,
      statuscode: 'TXN',
      reference_id: p.txnId,
      latency_ms: 1,
      request_body: 'null',
      response_body: body,
    }),
  });
}
