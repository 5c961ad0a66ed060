// One tenant's batch beside another tenant's calls (issue #37): account A submits a sandbox name-match
// batch of BENCH_TENANT_ROWS rows (default 500) whose names are the costliest the API accepts (200
// characters each, long words that differ a little, so the comparison does its most work), and then a
// 100,000-row `validate_only` upload; account B reads its wallet, one call at a time, all along. B's
// latencies idle (before A starts) and beside each of A's loads are printed; the target is B's p99
// beside A's work at most 2× its idle p99. Run: `BENCH_ONLY=tenants npm run bench`.
import { randomUUID } from 'node:crypto';
import type { StoreLocation } from '../test/harness.js';
import { latencyOf, seedAccount, startServer, type Latency } from './lib.js';

const ROWS = Number(process.env.BENCH_TENANT_ROWS ?? 500);
const VALIDATE_ROWS = Number(process.env.BENCH_TENANT_VALIDATE_ROWS ?? 100_000);

/** A 200-character name of long words, and another that differs from it by a letter in every word. */
const costly = (i: number) => {
  const words = Array.from({ length: 8 }, (_, w) => 'abcdefghijklmnopqrstuvwx'.slice(w % 3, 21 + (w % 3)) + String.fromCharCode(97 + ((i + w) % 26)));
  const a = words.join(' ').slice(0, 200);
  return { name_1: a, name_2: a.replace(/a/g, 'e') };
};

/** B's wallet reads, one at a time, until `done()`. */
async function reads(url: string, key: string, done: () => boolean, atLeast = 0): Promise<number[]> {
  const times: number[] = [];
  while (!done() || times.length < atLeast) {
    const t0 = performance.now();
    const r = await fetch(`${url}/api/v1/account/wallet`, { headers: { authorization: `Bearer ${key}` } });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`B's wallet read answered ${r.status}`);
    times.push(performance.now() - t0);
    await new Promise((res) => setTimeout(res, 20));
  }
  return times;
}

async function waitBatch(url: string, key: string, id: string): Promise<void> {
  for (;;) {
    const r = (await (await fetch(`${url}/api/v1/batches/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { data: { status: string } };
    if (['completed', 'cancelled', 'failed'].includes(r.data.status)) return;
    await new Promise((res) => setTimeout(res, 100));
  }
}

export interface TenantsRow {
  store: string;
  idle: Latency;
  besideBatch: Latency;
  besideValidate: Latency;
  batchMs: number;
  validateMs: number;
}

export async function tenantsBench(store: string, open: () => Promise<StoreLocation>): Promise<TenantsRow> {
  const loc = await open();
  try {
    const a = await seedAccount(loc, 'sandbox');
    const b = await seedAccount(loc, 'sandbox');
    const server = await startServer(loc, { SANGAM_BATCH_POLL_MS: '50' });
    try {
      const idle = latencyOf(await reads(server.url, b.key, () => true, 200));
      let ended = false;
      const beside = reads(server.url, b.key, () => ended);
      const t0 = performance.now();
      const items = Array.from({ length: ROWS }, (_, i) => ({ reference_id: `tn-${randomUUID()}`, consent: true, ...costly(i) }));
      const ndjson = items.map((x) => JSON.stringify(x)).join('\n');
      const sub = await fetch(`${server.url}/api/v1/batches?operation=name-match`, { method: 'POST', headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/x-ndjson' }, body: ndjson });
      const { data } = (await sub.json()) as { data: { id: string } };
      await waitBatch(server.url, a.key, data.id);
      const batchMs = performance.now() - t0;
      ended = true;
      const besideBatch = latencyOf(await beside);

      ended = false;
      const beside2 = reads(server.url, b.key, () => ended);
      const rows = Array.from({ length: VALIDATE_ROWS }, (_, i) => JSON.stringify({ reference_id: `tv-${i}`, consent: true, name_1: 'Priya Sharma', name_2: 'PRIYA SHARMA' })).join('\n');
      const t1 = performance.now();
      const v = await fetch(`${server.url}/api/v1/batches?operation=name-match&validate_only=true`, { method: 'POST', headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/x-ndjson' }, body: rows });
      await v.arrayBuffer();
      const validateMs = performance.now() - t1;
      ended = true;
      const besideValidate = latencyOf(await beside2);
      process.stderr.write(`  tenants (${store}): B idle p99 ${idle.p99.toFixed(0)} ms; beside A's batch p99 ${besideBatch.p99.toFixed(0)} ms; beside A's validate_only p99 ${besideValidate.p99.toFixed(0)} ms\n`);
      return { store, idle, besideBatch, besideValidate, batchMs, validateMs };
    } finally {
      await server.stop();
    }
  } finally {
    await loc.drop();
  }
}

export function printTenants(rows: TenantsRow[]): void {
  const f = (l: Latency) => `${l.p50.toFixed(0)} / ${l.p99.toFixed(0)} / ${l.max.toFixed(0)} (${l.calls})`;
  console.log(`\n## One tenant's batch beside another's calls (${ROWS} costly name-match rows; a ${VALIDATE_ROWS}-row validate_only)\n`);
  console.log('| store | B idle, ms p50 / p99 / max (calls) | B beside A\'s batch | B beside A\'s validate_only | p99 ratio (batch; validate) | A\'s batch s | A\'s validate_only s |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const ratio = (l: Latency) => (l.p99 / r.idle.p99).toFixed(2);
    console.log(`| ${r.store} | ${f(r.idle)} | ${f(r.besideBatch)} | ${f(r.besideValidate)} | ${ratio(r.besideBatch)}; ${ratio(r.besideValidate)} | ${(r.batchMs / 1000).toFixed(1)} | ${(r.validateMs / 1000).toFixed(1)} |`);
  }
  console.log('\nTarget: B\'s p99 beside A\'s work at most 2× its idle p99.');
}
