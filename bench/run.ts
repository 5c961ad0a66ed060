// `npm run bench`: every target measured in one run, on the machine it is given, on loopback, with
// ratios against baselines measured in the same run:
//   - sandbox calls against a bare Fastify route that validates and echoes the same body;
//   - live calls (partner simulator at 0 ms) against the simulator called directly: our overhead;
//   - hot-wallet debits against a naive one-transaction-per-debit loop;
//   - two server processes against one (scale-out), with idempotency and shared rate limits checked;
//   - 1, 2, 4 and 8 server processes in cluster mode on one PostgreSQL, with the wait events sampled
//     from pg_stat_activity during each run (scale-n; PostgreSQL only);
//   - the embedded store's footprint, webhook delivery, audit search and export;
//   - serialising answers from the response schemas against JSON.stringify (serialize).
// Runs on the embedded store, and on PostgreSQL too when DATABASE_URL is set (scale-out and audit need
// it). Bounded: BENCH_SECONDS per load (default 10, plus half as much warm-up), BENCH_CONNECTIONS (50).
// BENCH_ONLY=sandbox,live,hot,scale,scale-n,footprint,webhooks,audit,serialize,name-match,batches,tenants runs a subset (the
// baseline always runs, except for name-match alone, which needs no server: the engine on the labelled set);
// BENCH_ONLY=bank runs the bank test's long run (bench/bank.ts), which a plain `npm run bench` leaves out.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freshStoreLocation, type StoreLocation } from '../test/harness.js';
import { cpuCeiling, CORES } from './store-cpu.js';
import { CONNECTIONS, freePort, measuredLoad, SECONDS, seedAccount, startServer, startSim, warmLoad, type Result } from './lib.js';
import { rawStore, type RawResult } from './raw-store.js';
import { liveBench, simulatorBench, type LiveRow } from './live.js';
import { hotWallet, type HotWalletResult } from './hot-wallet.js';
import { scaleOut, type ScaleOutResult } from './scale-out.js';
import { printScaleN, scaleN, type ScaleRow } from './scale-n.js';
import { webhookBench } from './webhooks.js';
import { auditBench } from './audit.js';
import { footprint } from './footprint.js';
import { printSerialize, serializeBench } from './serialize.js';
import { nameMatchBench, printNameMatch } from './name-match.js';
import { bankBench, printBank } from './bank.js';
import { batchesBench, printBatches } from './batches.js';
import { printTenants, tenantsBench } from './tenants.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ONLY = new Set((process.env.BENCH_ONLY ?? '').split(',').filter(Boolean));
const want = (section: string) => ONLY.size === 0 || ONLY.has(section);

interface StoreKind {
  label: string;
  open(): Promise<StoreLocation>;
}
const STORES: StoreKind[] = [
  {
    label: 'embedded',
    async open() {
      const dir = mkdtempSync(path.join(tmpdir(), 'sangam-bench-'));
      return { databaseUrl: undefined, dataDir: dir, drop: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  ...(process.env.DATABASE_URL ? [{ label: 'PostgreSQL', open: freshStoreLocation }] : []),
];

async function withStore<T>(kind: StoreKind, fn: (loc: StoreLocation) => Promise<T>): Promise<T> {
  const loc = await kind.open();
  try {
    return await fn(loc);
  } finally {
    await loc.drop();
  }
}

const SIGNATURE = { path: '/api/v1/document-ocr/signature-match', body: () => JSON.stringify({ reference_id: `bench-${randomUUID()}`, consent: true, input: 'https://example.com/cheque.png', name: 'Priya Sharma' }) };
const UPI = { path: '/api/v1/upi-payment/upi-payment-status', body: () => JSON.stringify({ reference_id: `bench-${randomUUID()}`, consent: true, vpa: 'shop@okbank', amount: 1, idempotency_key: randomUUID() }) };

async function baseline(): Promise<Result> {
  const port = await freePort();
  const child = fork(path.join(HERE, 'baseline-server.js'), [], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  await new Promise((r) => child.once('message', r));
  try {
    return await warmLoad({ name: 'baseline: bare Fastify validate + echo', url: `http://127.0.0.1:${port}/echo`, body: SIGNATURE.body });
  } finally {
    child.kill();
  }
}

/**
 * Sandbox calls through the server, with what each costs it, and the raw-store baseline for the same
 * store (raw-store.ts), measured on the same migrated store right after.
 */
async function sandbox(kind: StoreKind): Promise<{ rows: Result[]; raw: RawResult[] }> {
  return withStore(kind, async (loc) => {
    const { accountId, key } = await seedAccount(loc, 'sandbox');
    const server = await startServer(loc);
    let rows: Result[];
    try {
      const headers = { authorization: `Bearer ${key}` };
      rows = [
        await measuredLoad(server, { name: `sandbox signature-match, ${kind.label}`, url: `${server.url}${SIGNATURE.path}`, body: SIGNATURE.body, headers }),
        await measuredLoad(server, { name: `sandbox UPI, ${kind.label}`, url: `${server.url}${UPI.path}`, body: UPI.body, headers }),
      ];
    } finally {
      await server.stop();
    }
    return { rows, raw: await rawStore(loc, accountId) };
  });
}

const f0 = (n: number) => n.toFixed(0);
const f2 = (n: number) => n.toFixed(2);
const mark = (ok: boolean) => (ok ? 'met' : 'NOT met');

async function main() {
  const base = await baseline();
  const sandboxRows: Result[] = [];
  const rawRows: Array<{ store: string; raw: RawResult[]; rows: Result[] }> = [];
  const live: Array<{ store: string; rows: LiveRow[] }> = [];
  let simRows: LiveRow[] = [];
  const hot: HotWalletResult[] = [];
  let scale: ScaleOutResult | null = null;

  if (want('sandbox')) {
    for (const kind of STORES) {
      const { rows, raw } = await sandbox(kind);
      sandboxRows.push(...rows);
      rawRows.push({ store: kind.label, raw, rows });
    }
  }
  if (want('live') || want('hot')) {
    const sim = await startSim();
    try {
      if (want('live')) {
        simRows = await simulatorBench(sim);
        for (const kind of STORES) live.push({ store: kind.label, rows: await withStore(kind, (loc) => liveBench(kind.label, loc, sim)) });
      }
      if (want('hot')) for (const kind of STORES) hot.push(await withStore(kind, (loc) => hotWallet(kind.label, loc, sim, SECONDS)));
    } finally {
      await sim.stop();
    }
  }
  if (want('scale') && process.env.DATABASE_URL) scale = await withStore(STORES[1]!, scaleOut);
  // Each N opens its own fresh database.
  const scaleRows: ScaleRow[] | null = want('scale-n') && process.env.DATABASE_URL ? await scaleN() : null;
  const foot = want('footprint') ? await footprint() : null;
  const serialized = want('serialize') ? await serializeBench() : null;
  const hooks = want('webhooks') ? await webhookBench(Number(process.env.BENCH_WEBHOOK_EVENTS ?? 2000)) : null;
  const audit = want('audit') && process.env.DATABASE_URL ? await withStore(STORES[1]!, (loc) => auditBench(loc, Number(process.env.BENCH_AUDIT_ROWS ?? 1_000_000))) : null;
  const bank = ONLY.has('bank') ? await bankBench(STORES.map((s) => s.label)) : null;

  console.log(`\n${SECONDS} s per load after a warm-up, ${CONNECTIONS} connections, loopback, ${new Date().toISOString()}\n`);
  console.log('Sandbox calls against the baseline (target on PostgreSQL: req/s ratio ≥ 0.5, p99 ratio ≤ 3)\n');
  console.log('| target | req/s | p50 ms | p99 ms | non-2xx | req/s ratio | p99 ratio |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of [base, ...sandboxRows]) {
    console.log(`| ${r.name} | ${f0(r.rps)} | ${r.p50} | ${r.p99} | ${r.errors} | ${f2(r.rps / base.rps)} | ${f2(r.p99 / Math.max(base.p99, 1))} |`);
  }

  if (rawRows.length) printCosts(rawRows);

  if (simRows.length) {
    console.log('\nLive calls through the partner simulator at 0 ms, against the simulator called directly');
    console.log('(overhead = sequential p50 through Sangam − the simulator\'s own sequential p50; target ≤ 2 ms)\n');
    console.log('| target | req/s | p50 ms | p99 ms | non-2xx | sequential p50 ms | sequential p99 ms | overhead ms |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const s of simRows) console.log(`| ${s.name} | ${f0(s.rps)} | ${s.p50} | ${s.p99} | ${s.errors} | ${f2(s.probeP50)} | ${f2(s.probeP99)} | |`);
    for (const { rows } of live) {
      rows.forEach((r, i) => {
        console.log(`| ${r.name} | ${f0(r.rps)} | ${r.p50} | ${r.p99} | ${r.errors} | ${f2(r.probeP50)} | ${f2(r.probeP99)} | ${f2(r.probeP50 - simRows[i]!.probeP50)} |`);
      });
    }
    console.log('\nSangam\'s own time per sequential live call: the client\'s time less the time spent upstream during it, through a timing proxy');
    console.log('(targets: p50 ≤ 2 ms on PostgreSQL, ≤ 3 ms embedded; p99 ≤ 10 ms), and the median of each Server-Timing phase');
    console.log('(upstream: the time the proxy saw the partner take; partner − upstream is the connector\'s own share of the partner phase).');
    console.log('Floor: the same partner request through floor-server.ts (validate, one INSERT, the partner, one UPDATE, answer; two commits');
    console.log('and nothing else) on the same store and proxy, measured the same way; ratio = own p50 / floor p50.\n');
    console.log('| store | call | own p50 ms | own p99 ms | target | floor p50 ms | floor p99 ms | ratio | checks | record | partner | upstream | outcome | answer | sangam |');
    console.log('|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const { store, rows } of live) {
      const p50Target = store.startsWith('PostgreSQL') ? 2 : 3;
      for (const r of rows) {
        if (!r.own) continue;
        const ph = (k: string) => (r.phases?.[k] === undefined ? '' : f2(r.phases[k]!));
        const met = r.own.p50 <= p50Target && r.own.p99 <= 10;
        const floor = r.floor ? `${f2(r.floor.p50)} | ${f2(r.floor.p99)} | ${f2(r.own.p50 / r.floor.p50)}` : ' | | ';
        console.log(`| ${store} | ${r.name.replace(/^live /, '').replace(`, ${store}`, '')} | ${f2(r.own.p50)} | ${f2(r.own.p99)} | ${mark(met)} | ${floor} | ${ph('checks')} | ${ph('record')} | ${ph('partner')} | ${ph('upstream')} | ${ph('outcome')} | ${ph('answer')} | ${ph('sangam')} |`);
      }
    }
  }

  if (hot.length) {
    console.log('\nHot wallet: live UPI debits on one wallet (simulator at 0 ms) against a naive one-transaction-per-debit loop (target ≥ 3)\n');
    console.log('| store | naive loop debits/s | service debits/s | p50 ms | p99 ms | non-2xx | ratio |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    for (const h of hot) console.log(`| ${h.store} | ${f0(h.naivePerSec)} | ${f0(h.servicePerSec)} | ${h.p50} | ${h.p99} | ${h.non2xx} | ${f2(h.servicePerSec / h.naivePerSec)} |`);
  }

  if (scale) {
    const { one, two, idempotency: i, rateLimit: rl } = scale;
    console.log('\nScale-out on PostgreSQL: sandbox signature-match, client round-robin over two server processes\n');
    console.log('| nodes | req/s | p50 ms | p99 ms | non-2xx | ratio |');
    console.log('|---|---:|---:|---:|---:|---:|');
    console.log(`| 1 | ${f0(one.rps)} | ${one.p50} | ${one.p99} | ${one.errors} | 1.00 |`);
    console.log(`| 2 | ${f0(two.rps)} | ${two.p50} | ${two.p99} | ${two.errors} | ${f2(two.rps / one.rps)} |`);
    console.log(`\nIdempotency across nodes: ${i.keys} keys × 6 concurrent requests alternating nodes → ${i.executions} executions, ${i.replays} replays, ${i.inFlight409} × 409, ${i.violations} violations`);
    if (rl) console.log(`Shared rate limit (Redis, ${rl.perSec}/s, burst ${rl.burst}) over ${rl.seconds} s on two nodes: ${rl.allowed} allowed (bound ${rl.bound}), ${rl.limited} × 429 — ${mark(rl.allowed <= rl.bound)}`);
    else console.log('Shared rate limit: skipped (no redis-server on this machine)');
  }

  if (scaleRows) printScaleN(scaleRows);
  else if (want('scale-n')) console.log('\nScale-out by process count (scale-n): skipped, it needs PostgreSQL: set DATABASE_URL');

  if (serialized) printSerialize(serialized);

  if (foot) {
    console.log(`\nEmbedded store footprint: first boot ${f0(foot.firstBootMs)} ms (initdb + migrations), cold start ${f0(foot.coldStartMs)} ms (target < 2000: ${mark(foot.coldStartMs < 2000)}), idle RSS ${f0(foot.idleRssMB)} MB (target < 300: ${mark(foot.idleRssMB < 300)})`);
  }
  if (hooks) {
    console.log(`\nWebhooks (${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded'} store): ${hooks.events} events to a local receiver: ${f0(hooks.perSec)} events/s, state change → delivery p50 ${hooks.p50} ms, p99 ${hooks.p99} ms`);
  }
  if (audit) {
    console.log(`\nAudit search over ${audit.rows} rows on PostgreSQL (loaded in ${audit.loadS.toFixed(1)} s; median of 5)\n`);
    console.log('| search | p50 ms |');
    console.log('|---|---:|');
    for (const x of audit.searches) console.log(`| ${x.name} | ${x.p50.toFixed(1)} |`);
    console.log(`\nExport: ${f0(audit.exportRowsPerSec)} rows/s as CSV (${f0(audit.exportMB)} MB); RSS grew by ${f0(audit.rssGrowthMB)} MB while exporting`);
  }
  if (bank) printBank(bank);
}

/** Sandbox calls against their store's raw baselines, and what each call costs the server and the machine. */
function printCosts(stores: Array<{ store: string; raw: RawResult[]; rows: Result[] }>) {
  console.log('\nSandbox calls against the store written directly (raw-store.ts; target on PostgreSQL ≥ 0.7 of the same-rows baseline, issue #42), and their cost per request');
  console.log("(statements sent to the store; CPU µs: the whole process, its main thread, the embedded engine, Sangam's own = process − engine;");
  console.log(`the PostgreSQL server's; the machine's in all, with the load generator's; and the rate the machine's ${CORES} cores could carry at that cost)\n`);
  console.log('| target | req/s | ratio to each raw baseline | statements | CPU µs | main thread µs | engine µs | Sangam µs | PostgreSQL server µs | machine µs | CPU-bound ceiling req/s (ratio) |');
  console.log('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const { raw, rows } of stores) {
    for (const r of raw) console.log(`| ${r.name} | ${f0(r.perSec)} | | | | | | | | ${f0(r.machineUs)} | ${f0(cpuCeiling(r.machineUs))} |`);
    for (const r of rows) {
      const c = r.cost!;
      const ratios = raw.map((b) => f2(r.rps / b.perSec)).join(' / ');
      const ceiling = cpuCeiling(c.machineUs);
      console.log(
        `| ${r.name} | ${f0(r.rps)} | ${ratios} | ${f2(c.statements)} | ${f0(c.processUs)} | ${f0(c.mainThreadUs)} | ${f0(c.engineUs)} | ${f0(c.ownUs)} | ${Number.isNaN(c.storeServerUs) ? '–' : f0(c.storeServerUs)} | ${f0(c.machineUs)} | ${f0(ceiling)} (${raw.map((b) => f2(ceiling / b.perSec)).join(' / ')}) |`,
      );
    }
  }
}

function nameMatch() {
  const { rows, time } = nameMatchBench();
  printNameMatch(rows, time);
}

/** Batches against single calls (bench/batches.ts), each store in turn; BENCH_BATCH_ROWS rows (10,000). */
async function batches() {
  const rows = [];
  for (const kind of STORES) rows.push(await batchesBench(kind.label, () => kind.open(), Number(process.env.BENCH_BATCH_ROWS ?? 10_000)));
  printBatches(rows);
}

/** One tenant's batch beside another tenant's calls (bench/tenants.ts), each store in turn. */
async function tenants() {
  const rows = [];
  for (const kind of STORES) rows.push(await tenantsBench(kind.label, () => kind.open()));
  printTenants(rows);
}

// name-match, batches and tenants alone need no baseline.
if (ONLY.size === 1 && ONLY.has('name-match')) nameMatch();
else if (ONLY.size === 1 && ONLY.has('batches')) await batches();
else if (ONLY.size === 1 && ONLY.has('tenants')) await tenants();
else {
  await main();
  if (want('name-match')) nameMatch();
  if (want('batches')) await batches();
  if (want('tenants')) await tenants();
}
