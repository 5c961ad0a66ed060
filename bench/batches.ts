// A sandbox batch against the same rows sent as single calls, in the same run and on the same store:
// BENCH_BATCH_ROWS rows (default 10,000) of mobile-to-bank-account (a light sandbox answer, so the
// figures are Sangam's own path: validation, the runner, the group commit) are
//   - sent one call each over CONNECTIONS connections (default 50), timed from the first to the last
//     answer, then
//   - submitted as one NDJSON batch, timed from the POST to the batch's `completed`.
// Each side gets a fresh server on a fresh store, so neither inherits the other's rows. Target: the batch
// at least twice the single calls' rows a second. Run: `BENCH_ONLY=batches npm run bench`.
import { Pool } from 'undici';
import type { StoreLocation } from '../test/harness.js';
import { CONNECTIONS, seedAccount, startServer } from './lib.js';

export interface BatchBenchRow {
  store: string;
  rows: number;
  singleRps: number;
  batchRps: number;
  singleErrors: number;
  batchFailed: number;
}

const body = (run: string, i: number) => JSON.stringify({ reference_id: `${run}-${i}`, consent: true, mobile: `98${String(10_000_000 + i).slice(-8)}` });

/** The rows as single calls, `CONNECTIONS` at a time; rows a second and how many were not 200. */
async function singles(url: string, key: string, n: number): Promise<{ rps: number; errors: number }> {
  const pool = new Pool(url, { connections: CONNECTIONS });
  let next = 0;
  let errors = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const res = await pool.request({ method: 'POST', path: '/api/v1/bank-account/mobile-to-bank-account', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: body('single', i) });
      await res.body.dump();
      if (res.statusCode !== 200) errors++;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const seconds = (performance.now() - t0) / 1000;
  await pool.close();
  return { rps: n / seconds, errors };
}

/** The rows as one NDJSON batch; rows a second from the POST to `completed`, and its failed rows. */
async function batch(url: string, key: string, n: number): Promise<{ rps: number; failed: number }> {
  const file = Array.from({ length: n }, (_, i) => body('batch', i)).join('\n');
  const headers = { authorization: `Bearer ${key}` };
  const t0 = performance.now();
  const r = await fetch(`${url}/api/v1/batches?operation=mobile-to-bank-account`, { method: 'POST', headers: { ...headers, 'content-type': 'application/x-ndjson' }, body: file });
  const submitted = (await r.json()) as { data: { id: string } };
  if (r.status !== 200) throw new Error(`batch refused: ${JSON.stringify(submitted)}`);
  for (;;) {
    const g = (await (await fetch(`${url}/api/v1/batches/${submitted.data.id}`, { headers })).json()) as { data: { status: string; counts: { failed: number } } };
    if (g.data.status !== 'running') return { rps: n / ((performance.now() - t0) / 1000), failed: g.data.counts.failed };
    await new Promise((res) => setTimeout(res, 500));
  }
}

async function onFreshServer<T>(open: () => Promise<StoreLocation>, fn: (url: string, key: string) => Promise<T>): Promise<T> {
  const loc = await open();
  try {
    const { key } = await seedAccount(loc, 'sandbox');
    const server = await startServer(loc, { SANGAM_BATCH_POLL_MS: '50' });
    try {
      return await fn(server.url, key);
    } finally {
      await server.stop();
    }
  } finally {
    await loc.drop();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * `runs` rounds (BENCH_BATCH_RUNS, default 3), each the single calls then the batch: the medians of
 * each side, so that one round disturbed by the shared machine does not decide the ratio.
 */
export async function batchesBench(store: string, open: () => Promise<StoreLocation>, n: number, runs = Number(process.env.BENCH_BATCH_RUNS ?? 3)): Promise<BatchBenchRow> {
  const singles_: Array<{ rps: number; errors: number }> = [];
  const batches_: Array<{ rps: number; failed: number }> = [];
  for (let i = 0; i < runs; i++) {
    // BENCH_BATCH_SINGLES=0: the batch side alone (to profile or compare engine changes quickly).
    singles_.push(process.env.BENCH_BATCH_SINGLES === '0' ? { rps: NaN, errors: 0 } : await onFreshServer(open, (url, key) => singles(url, key, n)));
    batches_.push(await onFreshServer(open, (url, key) => batch(url, key, n)));
    process.stderr.write(`  batches (${store}): ${n} rows: single calls ${singles_.at(-1)!.rps.toFixed(0)}/s, batch ${batches_.at(-1)!.rps.toFixed(0)}/s\n`);
  }
  return {
    store,
    rows: n,
    singleRps: median(singles_.map((r) => r.rps)),
    batchRps: median(batches_.map((r) => r.rps)),
    singleErrors: Math.max(...singles_.map((r) => r.errors)),
    batchFailed: Math.max(...batches_.map((r) => r.failed)),
  };
}

export function printBatches(rows: BatchBenchRow[]): void {
  console.log(`\nA sandbox batch against the same rows as single calls over ${CONNECTIONS} connections, medians of each side's runs (target: ratio ≥ 2)\n`);
  console.log('| store | rows | single calls rows/s | batch rows/s | ratio | single non-2xx | batch failed rows |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(`| ${r.store} | ${r.rows} | ${r.singleRps.toFixed(0)} | ${r.batchRps.toFixed(0)} | ${(r.batchRps / r.singleRps).toFixed(2)} | ${r.singleErrors} | ${r.batchFailed} |`);
  }
}
