// `npm run bench`: load on loopback with autocannon, every target measured in the same run on the
// same machine, and ratios printed against the baseline (a bare Fastify route that validates and
// echoes the same body). Runs against the embedded store, and against PostgreSQL when DATABASE_URL is
// set. Bounded: BENCH_SECONDS per target (default 10), BENCH_CONNECTIONS (default 20).
import autocannon from 'autocannon';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { createAccount, createKey } from '../src/accounts/store.js';
import { freshStoreLocation, type StoreLocation } from '../test/harness.js';
import { hotWallet, type HotWalletResult } from './hot-wallet.js';
import { webhookBench } from './webhooks.js';
import { auditBench } from './audit.js';
import { footprint } from './footprint.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

interface Result {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

function startChild(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const child = fork(script, [], { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    child.once('message', (m) => resolve({ child, port: (m as { port: number }).port }));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    // the Sangam server does not send a message: poll its health endpoint
    const poll = async () => {
      for (let i = 0; i < 400; i++) {
        if (await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false)) return resolve({ child, port });
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    if (!script.includes('baseline')) void poll();
  });
}

async function load(name: string, url: string, headers: Record<string, string>): Promise<Result> {
  let n = 0;
  const body = () => JSON.stringify({ reference_id: `bench-${process.pid}-${++n}`, consent: true, input: 'https://example.com/cheque.png', name: 'Priya Sharma' });
  const r = await autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { 'content-type': 'application/json', ...headers },
    requests: [{ setupRequest: (req) => ({ ...req, body: body() }) }],
  });
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.non2xx + r.errors };
}

async function sangamTarget(label: string, loc: StoreLocation): Promise<Result> {
  const store = await openStore({ databaseUrl: loc.databaseUrl, dataDir: loc.dataDir });
  await migrate(store.db);
  const { key } = await createKey(store.db, (await createAccount(store.db, 'bench')).id, 'sandbox');
  await store.close();
  const { child, port } = await startChild(path.join(HERE, '../src/server.js'), {
    DATABASE_URL: loc.databaseUrl ?? '',
    SANGAM_DATA_DIR: loc.dataDir,
    LOG_LEVEL: 'warn',
    // Load tests raise the per-key limits rather than switching the limiter off.
    SANGAM_RATE_LIMIT_PER_SEC: '1000000',
    SANGAM_RATE_LIMIT_BURST: '1000000',
  });
  try {
    await load('warm-up', `http://127.0.0.1:${port}/api/v1/document-ocr/signature-match`, { authorization: `Bearer ${key}` });
    return await load(label, `http://127.0.0.1:${port}/api/v1/document-ocr/signature-match`, { authorization: `Bearer ${key}` });
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

async function main() {
  const results: Result[] = [];
  const { child, port } = await startChild(path.join(HERE, 'baseline-server.js'), {});
  await load('warm-up', `http://127.0.0.1:${port}/echo`, {});
  results.push(await load('baseline: bare Fastify validate + echo', `http://127.0.0.1:${port}/echo`, {}));
  child.kill();

  const dir = mkdtempSync(path.join(tmpdir(), 'sangam-bench-'));
  results.push(await sangamTarget('sandbox signature-match, embedded store', { databaseUrl: undefined, dataDir: dir, drop: async () => {} }));
  rmSync(dir, { recursive: true, force: true });
  if (process.env.DATABASE_URL) {
    const loc = await freshStoreLocation();
    results.push(await sangamTarget('sandbox signature-match, PostgreSQL', loc));
    await loc.drop();
  }

  const hot: HotWalletResult[] = [];
  const hotDir = mkdtempSync(path.join(tmpdir(), 'sangam-bench-hot-'));
  hot.push(await hotWallet('embedded', { databaseUrl: undefined, dataDir: hotDir, drop: async () => {} }, SECONDS, CONNECTIONS));
  rmSync(hotDir, { recursive: true, force: true });
  if (process.env.DATABASE_URL) {
    const loc = await freshStoreLocation();
    hot.push(await hotWallet('PostgreSQL', loc, SECONDS, CONNECTIONS));
    await loc.drop();
  }

  const foot = await footprint();
  const hooks = await webhookBench(Number(process.env.BENCH_WEBHOOK_EVENTS ?? 2000));
  let audit: Awaited<ReturnType<typeof auditBench>> | null = null;
  if (process.env.DATABASE_URL) {
    const loc = await freshStoreLocation();
    audit = await auditBench(loc, Number(process.env.BENCH_AUDIT_ROWS ?? 1_000_000));
    await loc.drop();
  }

  const base = results[0]!;
  console.log(`\n${SECONDS}s per target, ${CONNECTIONS} connections, loopback\n`);
  console.log('| target | req/s | p50 ms | p99 ms | non-2xx | req/s ratio | p99 ratio |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${(r.rps / base.rps).toFixed(2)} | ${(r.p99 / Math.max(base.p99, 1)).toFixed(2)} |`);
  }
  console.log('\nHot wallet: live UPI debits on one wallet (simulator at 0 ms) vs a naive one-transaction-per-debit loop\n');
  console.log('| store | naive loop debits/s | service debits/s | p50 ms | p99 ms | non-2xx | ratio |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const h of hot) {
    console.log(`| ${h.store} | ${h.naivePerSec.toFixed(0)} | ${h.servicePerSec.toFixed(0)} | ${h.p50} | ${h.p99} | ${h.non2xx} | ${(h.servicePerSec / h.naivePerSec).toFixed(2)} |`);
  }
  console.log(`\nWebhooks (${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded'} store): ${hooks.events} events to a local receiver\n`);
  console.log('| events/s | state change → delivery p50 ms | p99 ms |');
  console.log('|---:|---:|---:|');
  console.log(`| ${hooks.perSec.toFixed(0)} | ${hooks.p50} | ${hooks.p99} |`);
  console.log(`\nEmbedded store footprint: first boot ${foot.firstBootMs.toFixed(0)} ms (initdb + migrations), cold start ${foot.coldStartMs.toFixed(0)} ms, idle RSS ${foot.idleRssMB.toFixed(0)} MB (targets: < 2000 ms, < 300 MB)`);
  if (audit) {
    console.log(`\nAudit search over ${audit.rows} rows on PostgreSQL (loaded in ${audit.loadS.toFixed(1)} s; median of 5)\n`);
    console.log('| search | p50 ms |');
    console.log('|---|---:|');
    for (const x of audit.searches) console.log(`| ${x.name} | ${x.p50.toFixed(1)} |`);
    console.log(`\nExport: ${audit.exportRowsPerSec.toFixed(0)} rows/s as CSV (${audit.exportMB.toFixed(0)} MB), bench process RSS ${audit.rssMB.toFixed(0)} MB`);
  }
}

await main();
