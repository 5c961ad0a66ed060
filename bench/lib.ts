// Shared pieces of the benchmarks: server and simulator processes on loopback, seeded accounts and
// keys, load with autocannon (throughput under concurrency) and a sequential latency probe with
// sub-millisecond resolution (our own share of one call).
import autocannon from 'autocannon';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { openStore } from '../src/db/client.js';
import { threadCpuSeconds } from '../src/db/stats.js';
import { migrate } from '../src/db/migrate.js';
import { createAccount, createKey } from '../src/accounts/store.js';
import { addEntry } from '../src/access/allowlist.js';
import { approve } from '../src/access/approvals.js';
import { OPERATION_SLUGS } from '../src/operations/registry.js';
import { topUp } from '../src/ledger/ledger.js';
import type { StoreLocation } from '../test/harness.js';
import { outsideCost, outsideNow, postmasterOf } from './store-cpu.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.join(HERE, '../..');
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

export interface Result {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Requests answered during the measured run. */
  requests: number;
  /** What the server spent per request during the measured run (measuredLoad). */
  cost?: Cost;
}

/** Per request: statements sent to the store, and CPU µs (the whole process, its main thread, the embedded engine). */
export interface Cost {
  statements: number;
  processUs: number;
  mainThreadUs: number;
  engineUs: number;
  /** Sangam's own: the process less the embedded engine's share. */
  ownUs: number;
  /** The PostgreSQL server's, where it runs on this machine (NaN otherwise, and on the embedded store). */
  storeServerUs: number;
  /** The load generator's (this process). */
  clientUs: number;
  /** All three: what a request costs the machine. */
  machineUs: number;
}

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

async function waitHealthy(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (await fetch(`${url}/health`).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not become healthy`);
}

export interface Proc {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
  /** The PostgreSQL server's postmaster when the server runs on this machine (store-cpu.ts). */
  postmaster?: number | null;
}

const stopper = (child: ChildProcess) => async () => {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
};

/**
 * A Sangam server process on `loc`, rate limits raised (not switched off) for load; or, with `script`,
 * another server taking the same variables (the live floor, floor-server.ts).
 */
export async function startServer(loc: StoreLocation, env: Record<string, string> = {}, script = 'dist/src/server.js'): Promise<Proc> {
  const port = await freePort();
  const profileDir = process.env.BENCH_PROFILE_DIR;
  const child = fork(path.join(ROOT, script), [], {
    execArgv: [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean)],
    env: {
      ...process.env,
      DATABASE_URL: loc.databaseUrl ?? '',
      SANGAM_DATA_DIR: loc.dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SANGAM_RATE_LIMIT_PER_SEC: '1000000',
      SANGAM_RATE_LIMIT_BURST: '1000000',
      SANGAM_BATCH_LIVE_ROWS_PER_SEC: '10000', // the partner pace is a production guard; the bench measures Sangam
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url, child);
  return { url, child, stop: stopper(child), postmaster: loc.databaseUrl ? await postmasterOf(loc.databaseUrl) : null };
}

/**
 * The partner-network simulator as its own process, answering at 0 ms; what it answers pending stays
 * pending for an hour, so no callback lands in a later measurement.
 */
export async function startSim(): Promise<Proc & { secret: string }> {
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const child = spawn(process.execPath, ['bin/sangam.js', 'partner-sim', '--port', '0', '--secret', secret, '--latency-ms', '0', '--pending-ms', '3600000'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
  return { url: (JSON.parse(line) as { url: string }).url, child, secret, stop: stopper(child) };
}

/** Migrates the store and creates an account with a key; live accounts are allow-listed, approved and funded. */
export async function seedAccount(loc: StoreLocation, environment: 'sandbox' | 'live'): Promise<{ accountId: string; key: string }> {
  const store = await openStore({ databaseUrl: loc.databaseUrl, dataDir: loc.dataDir });
  try {
    await migrate(store.db);
    const accountId = (await createAccount(store.db, `bench-${environment}`)).id;
    const { key } = await createKey(store.db, accountId, environment);
    if (environment === 'live') {
      await addEntry(store.db, accountId, 'live', '127.0.0.1');
      await approve(store.db, accountId, OPERATION_SLUGS);
      await topUp(store.db, accountId, 1_000_000_000_000, null);
    }
    return { accountId, key };
  } finally {
    await store.close();
  }
}

export interface LoadSpec {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  body: () => string;
  headers?: Record<string, string>;
  /** Headers chosen per request (e.g. one of several accounts' keys), over `headers`. */
  headersFor?: () => Record<string, string>;
  connections?: number;
  seconds?: number;
}

/** Throughput under concurrency: autocannon on loopback for a bounded duration. */
export async function load(spec: LoadSpec): Promise<Result> {
  const r = await autocannon({
    url: spec.url,
    method: spec.method ?? 'POST',
    connections: spec.connections ?? CONNECTIONS,
    duration: spec.seconds ?? SECONDS,
    headers: { 'content-type': 'application/json', ...spec.headers },
    requests: [
      {
        setupRequest: (req) => ({ ...req, body: spec.body(), ...(spec.headersFor && { headers: { ...req.headers, ...spec.headersFor() } }) }),
      },
    ],
  });
  const result = { name: spec.name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.non2xx + r.errors, requests: r.requests.total };
  // Progress on stderr as each load ends; the tables go to stdout at the end.
  process.stderr.write(`  ${spec.name}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ${result.errors} non-2xx\n`);
  return result;
}

/** Warm-up (half the duration, discarded), then the measured run. */
export async function warmLoad(spec: LoadSpec): Promise<Result> {
  await load({ ...spec, name: `${spec.name} (warm-up)`, seconds: Math.max(1, Math.round((spec.seconds ?? SECONDS) / 2)) });
  return load(spec);
}

/**
 * One call at a time, `n` calls, timed with performance.now(): the latency of a call with no queueing,
 * at sub-millisecond resolution. Returns p50 and p99 in ms. `each` sees every measured call: when it
 * started, how long it took and its response headers.
 */
export async function probe(
  url: string,
  body: () => string,
  headers: Record<string, string>,
  n: number,
  each?: (t0: number, ms: number, headers: Record<string, unknown>) => void,
): Promise<{ p50: number; p99: number; failures: number }> {
  const u = new URL(url);
  const pool = new Pool(u.origin, { connections: 1 });
  const times: number[] = [];
  let failures = 0;
  try {
    for (let i = 0; i < n + 50; i++) {
      const t0 = performance.now();
      const res = await pool.request({ method: 'POST', path: u.pathname, headers: { 'content-type': 'application/json', ...headers }, body: body() });
      await res.body.dump();
      const ms = performance.now() - t0;
      if (res.statusCode !== 200) failures++;
      if (i < 50) continue; // the first 50 warm up
      times.push(ms);
      each?.(t0, ms, res.headers);
    }
  } finally {
    await pool.close();
  }
  const { p50, p99 } = latencyOf(times);
  return { p50, p99, failures };
}

/** Latencies in ms: median, 99th percentile, worst, and how many. */
export interface Latency {
  p50: number;
  p99: number;
  max: number;
  calls: number;
}

export function latencyOf(times: number[]): Latency {
  const t = [...times].sort((a, b) => a - b);
  return { p50: t[Math.floor(t.length * 0.5)] ?? NaN, p99: t[Math.floor(t.length * 0.99)] ?? NaN, max: t.at(-1) ?? NaN, calls: t.length };
}

/** CPU seconds of a process's main thread and of all its threads, from /proc. */
function threadCpu(pid: number): { main: number; all: number } {
  let all = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      all += threadCpuSeconds(pid, tid);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return { main: threadCpuSeconds(pid, pid), all };
}

/** The server's store counters (db/stats.ts) from /metrics. */
async function storeCounters(url: string): Promise<{ statements: number; engineS: number }> {
  const text = await fetch(`${url}/metrics`).then((r) => r.text());
  const read = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { statements: read('sangam_store_statements_total'), engineS: read('sangam_store_engine_seconds_total') };
}

/**
 * The server's CPU so far (all threads, main thread), its store counters (statements, embedded engine
 * seconds), the PostgreSQL server's CPU and this process's.
 */
export async function sample(server: Proc) {
  const counters = await storeCounters(server.url);
  return { ...threadCpu(server.child.pid!), ...counters, ...outsideNow(server.postmaster ?? null) };
}

/** Per-unit µs of the machine's CPU between two samples: the server process, the PostgreSQL server, this process. */
export function machineCost(before: Awaited<ReturnType<typeof sample>>, after: Awaited<ReturnType<typeof sample>>, units: number) {
  const processUs = ((after.all - before.all) * 1e6) / Math.max(units, 1);
  return { processUs, ...outsideCost(before, after, units, processUs) };
}

/** warmLoad against a Sangam server, with what the server spent per request during the measured run. */
export async function measuredLoad(server: Proc, spec: LoadSpec): Promise<Result> {
  await load({ ...spec, name: `${spec.name} (warm-up)`, seconds: Math.max(1, Math.round((spec.seconds ?? SECONDS) / 2)) });
  const before = await sample(server);
  const result = await load(spec);
  const after = await sample(server);
  const per = (d: number) => (d * 1e6) / Math.max(result.requests, 1);
  const engineUs = per(after.engineS - before.engineS);
  const machine = machineCost(before, after, result.requests);
  const cost: Cost = {
    statements: (after.statements - before.statements) / Math.max(result.requests, 1),
    ...machine,
    mainThreadUs: per(after.main - before.main),
    engineUs,
    ownUs: machine.processUs - engineUs,
  };
  process.stderr.write(`    per request: ${cost.statements.toFixed(2)} statements, CPU ${cost.processUs.toFixed(0)} µs (main thread ${cost.mainThreadUs.toFixed(0)}, embedded engine ${cost.engineUs.toFixed(0)}, Sangam's own ${cost.ownUs.toFixed(0)}); PostgreSQL server ${cost.storeServerUs.toFixed(0)} µs, load generator ${cost.clientUs.toFixed(0)} µs\n`);
  return { ...result, cost };
}
