// A sandbox batch against the same rows sent as single calls, in the same run and on the same store:
// BENCH_BATCH_ROWS rows (default 10,000) of mobile-to-bank-account (a light sandbox answer, so the
// figures are Sangam's own path: validation, the runner, the group commit) are
//   - sent one call each over CONNECTIONS connections (default 50), timed from the first to the last
//     answer, then
//   - submitted as one NDJSON batch, timed from the POST to the batch's `completed`, with an interactive
//     caller beside it (one call at a time, at most one every 50 ms) whose latencies are printed.
// Each side gets a fresh server on a fresh store, so neither inherits the other's rows, and warms it
// first with BENCH_BATCH_WARMUP rows of its own kind (default 1,000; other references): a fresh server
// spends its first seconds compiling (V8's tier-up of the embedded engine's WebAssembly took a third of
// a core during a server's first batch), which the 10,000 single calls spread over twice the time the
// batch has. Target: the batch at least twice the single calls' rows a second.
// Run: `BENCH_ONLY=batches npm run bench`.
import { Pool } from 'undici';
import type { StoreLocation } from '../test/harness.js';
import { CONNECTIONS, latencyOf, machineCost, sample, seedAccount, startServer, type Latency } from './lib.js';
import { CORES, cpuCeiling } from './store-cpu.js';

/**
 * What a row cost, in µs of CPU: the server's whole process, its main thread, the embedded engine's
 * thread; the PostgreSQL server (NaN on the embedded store); and the machine in all (with the load
 * generator, this process).
 */
export interface RowCost {
  processUs: number;
  mainUs: number;
  engineUs: number;
  storeServerUs: number;
  machineUs: number;
}

export interface BatchBenchRow {
  store: string;
  rows: number;
  singleRps: number;
  batchRps: number;
  singleErrors: number;
  batchFailed: number;
  singleCost: RowCost;
  batchCost: RowCost;
  /** An interactive client's calls beside the batch, all rounds together. */
  beside: Latency;
}

const body = (run: string, i: number) => JSON.stringify({ reference_id: `${run}-${i}`, consent: true, mobile: `98${String(10_000_000 + i).slice(-8)}` });

/** The rows as single calls, `CONNECTIONS` at a time; rows a second and how many were not 200. */
async function singles(url: string, key: string, n: number, run = 'single'): Promise<{ rps: number; errors: number }> {
  const pool = new Pool(url, { connections: CONNECTIONS });
  let next = 0;
  let errors = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const res = await pool.request({ method: 'POST', path: '/api/v1/bank-account/mobile-to-bank-account', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: body(run, i) });
      await res.body.dump();
      if (res.statusCode !== 200) errors++;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const seconds = (performance.now() - t0) / 1000;
  await pool.close();
  return { rps: n / seconds, errors };
}

/**
 * An interactive client beside the batch: one call at a time, one started every PROBE_MS at most, each
 * its own single call of the same operation with its own reference, until `done()`. What an account's
 * own interactive traffic sees while its batch runs (a batch must never starve it); at this rate it
 * adds well under 1 % to the batch's rows.
 */
const PROBE_MS = 50;
async function interactive(url: string, key: string, run: string, done: () => boolean): Promise<number[]> {
  const pool = new Pool(url, { connections: 1 });
  const times: number[] = [];
  try {
    for (let i = 0; !done(); i++) {
      const t0 = performance.now();
      const res = await pool.request({ method: 'POST', path: '/api/v1/bank-account/mobile-to-bank-account', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: body(run, i) });
      await res.body.dump();
      if (res.statusCode !== 200) throw new Error(`interactive call beside the batch answered ${res.statusCode}`);
      const took = performance.now() - t0;
      times.push(took);
      if (took < PROBE_MS) await new Promise((r) => setTimeout(r, PROBE_MS - took));
    }
  } finally {
    await pool.close();
  }
  return times;
}

/**
 * The rows as one NDJSON batch; rows a second from the POST to `completed`, its failed rows, and the
 * latencies of an interactive client calling beside it (`probe`).
 */
async function batch(url: string, key: string, n: number, run = 'batch', probe = false): Promise<{ rps: number; failed: number; besideMs?: number[] }> {
  const file = Array.from({ length: n }, (_, i) => body(run, i)).join('\n');
  const headers = { authorization: `Bearer ${key}` };
  let ended = false;
  const t0 = performance.now();
  const r = await fetch(`${url}/api/v1/batches?operation=mobile-to-bank-account`, { method: 'POST', headers: { ...headers, 'content-type': 'application/x-ndjson' }, body: file });
  const submitted = (await r.json()) as { data: { id: string } };
  if (r.status !== 200) throw new Error(`batch refused: ${JSON.stringify(submitted)}`);
  const beside = probe ? interactive(url, key, `${run}-interactive`, () => ended) : undefined;
  try {
    for (;;) {
      const g = (await (await fetch(`${url}/api/v1/batches/${submitted.data.id}`, { headers })).json()) as { data: { status: string; counts: { failed: number } } };
      if (g.data.status !== 'running') {
        const rps = n / ((performance.now() - t0) / 1000);
        ended = true;
        return { rps, failed: g.data.counts.failed, besideMs: await beside };
      }
      await new Promise((res) => setTimeout(res, 50)); // a GET every 50 ms: the batch's end is timed to within that
    }
  } finally {
    ended = true;
  }
}

const WARMUP = Number(process.env.BENCH_BATCH_WARMUP ?? 1000);

/**
 * `fn` against a fresh server on a fresh store, after `warm`, with the server's CPU per row while `fn` ran.
 */
async function onFreshServer<T>(open: () => Promise<StoreLocation>, n: number, warm: (url: string, key: string) => Promise<unknown>, fn: (url: string, key: string) => Promise<T>): Promise<T & { cost: RowCost }> {
  const loc = await open();
  try {
    const { key } = await seedAccount(loc, 'sandbox');
    const server = await startServer(loc, { SANGAM_BATCH_POLL_MS: '50' });
    try {
      if (WARMUP > 0) await warm(server.url, key);
      const before = await sample(server);
      const result = await fn(server.url, key);
      const after = await sample(server);
      const per = (s: number) => (s * 1e6) / n;
      const { processUs, storeServerUs, machineUs } = machineCost(before, after, n);
      return { ...result, cost: { processUs, mainUs: per(after.main - before.main), engineUs: per(after.engineS - before.engineS), storeServerUs, machineUs } };
    } finally {
      await server.stop();
    }
  } finally {
    await loc.drop();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const medianCost = (cs: RowCost[]): RowCost => {
  const m = (k: keyof RowCost) => median(cs.map((c) => c[k]));
  return { processUs: m('processUs'), mainUs: m('mainUs'), engineUs: m('engineUs'), storeServerUs: m('storeServerUs'), machineUs: m('machineUs') };
};

/**
 * `runs` rounds (BENCH_BATCH_RUNS, default 3), each the single calls then the batch: the medians of
 * each side, so that one round disturbed by the shared machine does not decide the ratio.
 */
export async function batchesBench(store: string, open: () => Promise<StoreLocation>, n: number, runs = Number(process.env.BENCH_BATCH_RUNS ?? 3)): Promise<BatchBenchRow> {
  const singles_: Array<{ rps: number; errors: number; cost: RowCost }> = [];
  const batches_: Array<{ rps: number; failed: number; besideMs?: number[]; cost: RowCost }> = [];
  for (let i = 0; i < runs; i++) {
    // BENCH_BATCH_SINGLES=0: the batch side alone (to profile or compare engine changes quickly).
    const skipped = { rps: NaN, errors: 0, cost: { processUs: NaN, mainUs: NaN, engineUs: NaN, storeServerUs: NaN, machineUs: NaN } };
    singles_.push(
      process.env.BENCH_BATCH_SINGLES === '0'
        ? skipped
        : await onFreshServer(open, n, (url, key) => singles(url, key, WARMUP, 'warm'), (url, key) => singles(url, key, n)),
    );
    batches_.push(await onFreshServer(open, n, (url, key) => batch(url, key, WARMUP, 'warm'), (url, key) => batch(url, key, n, 'batch', true)));
    const beside = latencyOf(batches_.at(-1)!.besideMs ?? []);
    process.stderr.write(`  batches (${store}): ${n} rows: single calls ${singles_.at(-1)!.rps.toFixed(0)}/s, batch ${batches_.at(-1)!.rps.toFixed(0)}/s, an interactive call beside it p50 ${beside.p50.toFixed(0)} ms, p99 ${beside.p99.toFixed(0)} ms\n`);
  }
  return {
    store,
    rows: n,
    singleRps: median(singles_.map((r) => r.rps)),
    batchRps: median(batches_.map((r) => r.rps)),
    singleErrors: Math.max(...singles_.map((r) => r.errors)),
    batchFailed: Math.max(...batches_.map((r) => r.failed)),
    singleCost: medianCost(singles_.map((r) => r.cost)),
    batchCost: medianCost(batches_.map((r) => r.cost)),
    beside: latencyOf(batches_.flatMap((r) => r.besideMs ?? [])),
  };
}

export function printBatches(rows: BatchBenchRow[]): void {
  console.log(`\nA sandbox batch against the same rows as single calls over ${CONNECTIONS} connections, medians of each side's runs (target: ratio ≥ 2)\n`);
  console.log('| store | rows | single calls rows/s | batch rows/s | ratio | single non-2xx | batch failed rows | an interactive call beside the batch, ms: p50 / p99 / worst (calls) |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---|');
  for (const r of rows) {
    const b = r.beside;
    console.log(`| ${r.store} | ${r.rows} | ${r.singleRps.toFixed(0)} | ${r.batchRps.toFixed(0)} | ${(r.batchRps / r.singleRps).toFixed(2)} | ${r.singleErrors} | ${r.batchFailed} | ${b.p50.toFixed(0)} / ${b.p99.toFixed(0)} / ${b.max.toFixed(0)} (${b.calls}) |`);
  }
  // Where each side's time went: a side bound by the embedded engine's thread (one statement at a time)
  // cannot go faster than that thread's µs per row allow, however the rows reach it; and no side can
  // go faster than the machine's cores allow at what a row costs them all (the server, PostgreSQL, the
  // load generator).
  console.log(`\nCPU per row, µs (the server: whole process / main thread / embedded engine thread; the PostgreSQL server; the machine in all, with the load generator; medians), and the rates those costs allow on ${CORES} cores\n`);
  console.log('| store | single calls | batch | PostgreSQL server, single / batch | machine, single / batch | engine-bound ceiling, batch rows/s | CPU-bound ceiling, batch rows/s (against the single calls) |');
  console.log('|---|---:|---:|---:|---:|---:|---|');
  const f = (c: RowCost) => `${c.processUs.toFixed(0)} / ${c.mainUs.toFixed(0)} / ${c.engineUs > 0 ? c.engineUs.toFixed(0) : '–'}`;
  const u = (x: number) => (Number.isNaN(x) ? '–' : x.toFixed(0));
  for (const r of rows) {
    const ceiling = cpuCeiling(r.batchCost.machineUs);
    console.log(
      `| ${r.store} | ${f(r.singleCost)} | ${f(r.batchCost)} | ${u(r.singleCost.storeServerUs)} / ${u(r.batchCost.storeServerUs)} | ${u(r.singleCost.machineUs)} / ${u(r.batchCost.machineUs)} | ${r.batchCost.engineUs > 0 ? (1e6 / r.batchCost.engineUs).toFixed(0) : '–'} | ${ceiling.toFixed(0)} (${(ceiling / r.singleRps).toFixed(2)}) |`,
    );
  }
}
