// Scale-out by process count (BENCH_ONLY=scale-n): the product's own cluster mode (SANGAM_WORKERS=N,
// node:cluster, one port) with N = 1, 2, 4 and 8 server processes against one PostgreSQL, under load on
// the sandbox signature-match (or live UPI debits: BENCH_SCALE_OP=live). Each N gets a fresh database
// (later runs do not write into bigger tables) and the same client load (BENCH_SCALE_CONNECTIONS). While
// each measured run lasts, a sampler connection polls pg_stat_activity every ~50 ms and counts what the
// database's busy backends wait on: a serialisation point on the write path shows up as Lock:tuple /
// Lock:transactionid (a row lock queue) long before it shows in the throughput of a small machine, and
// Client:ClientRead in an open transaction means the database is waiting on the servers (their CPU).
import { randomUUID } from 'node:crypto';
import { fork } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { freshStoreLocation, type StoreLocation } from '../test/harness.js';
import { freePort, load, ROOT, seedAccount, startSim, type Proc, type Result } from './lib.js';

/**
 * What is loaded: the sandbox signature-match (the default: the write path every operation shares), or
 * live UPI debits through the partner simulator at 0 ms (BENCH_SCALE_OP=live: holds on the wallet,
 * the partner call, settlement with its ledger postings), on BENCH_SCALE_ACCOUNTS accounts (default 1;
 * each request uses one of them at random). With one account a live run shows that account's wallet
 * row, which is inherent; with several, what remains is what all accounts share.
 */
const OP = process.env.BENCH_SCALE_OP === 'live' ? 'live' : 'sandbox';
const ACCOUNTS = Math.max(1, Number(process.env.BENCH_SCALE_ACCOUNTS ?? 1));
const TARGETS = {
  sandbox: {
    label: 'sandbox signature-match',
    path: '/api/v1/document-ocr/signature-match',
    body: () => JSON.stringify({ reference_id: `sn-${randomUUID()}`, consent: true, input: 'https://example.com/cheque.png', name: 'Priya Sharma' }),
  },
  live: {
    label: 'live UPI debits (partner simulator at 0 ms)',
    path: '/api/v1/upi-payment/upi-payment-status',
    body: () => JSON.stringify({ reference_id: `sn-${randomUUID()}`, consent: true, vpa: 'shop@okbank', amount: 1, idempotency_key: randomUUID() }),
  },
} as const;

/** Process counts, overridable (BENCH_SCALE_NODES=1,2,4,8). */
export const NODES = (process.env.BENCH_SCALE_NODES ?? '1,2,4,8').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
/**
 * One client load for every N (the same offered concurrency), so the table compares process counts
 * alone. Group commit needs concurrency in each process: at 64 connections, 8 processes saw 8 each and
 * their batches shrank to ~1.4 requests per commit (13.7 with one process), which measures starved
 * batches rather than scale-out; 256 keeps 32 per process at N = 8.
 */
export const SCALE_CONNECTIONS = Number(process.env.BENCH_SCALE_CONNECTIONS ?? 256);
/** Pool per process; N × this stays well under the server's max_connections (400 on the dev server). */
const POOL_PER_PROCESS = Number(process.env.BENCH_SCALE_POOL ?? 10);
/** Per N, after a warm-up of half as long: BENCH_SECONDS, but 5 s unless set (four runs). */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const SAMPLE_MS = 50;
const TOP = 5;

export interface WaitCount {
  event: string;
  count: number;
  share: number;
  /** How many of them were idle in a transaction (the backend waits on the application, not on the database). */
  idleInTransaction: number;
  /** The statement most often seen under this wait (first 100 characters), and how often. */
  query: string;
  queryCount: number;
}

export interface ScaleRow extends Result {
  nodes: number;
  samples: number;
  /** Busy backends seen over all samples (the denominator of each share). */
  observations: number;
  /** Database transactions committed during the run (pg_stat_database): group commit's batches and the rest. */
  commits: number;
  waits: WaitCount[];
}

/** SANGAM_WORKERS=n on one port; resolves once the primary says every worker listens. */
async function startCluster(loc: StoreLocation, n: number, env: Record<string, string>): Promise<Proc> {
  const port = await freePort();
  const child = fork(path.join(ROOT, 'dist/src/server.js'), [], {
    env: {
      ...process.env,
      DATABASE_URL: loc.databaseUrl ?? '',
      SANGAM_DATA_DIR: loc.dataDir,
      SANGAM_WORKERS: String(n),
      SANGAM_DB_POOL_MAX: String(POOL_PER_PROCESS),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SANGAM_RATE_LIMIT_PER_SEC: '1000000',
      SANGAM_RATE_LIMIT_BURST: '1000000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${n} workers did not all listen within 60 s`)), 60_000);
    child.once('message', () => (clearTimeout(timer), resolve()));
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`server exited with ${code}`))));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const SAMPLE_SQL = `select wait_event_type, wait_event, state, query from pg_stat_activity
  where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`;

function mostSeen(queries: Map<string, number>): { query: string; queryCount: number } {
  const [query, queryCount] = [...queries].sort(([, a], [, b]) => b - a)[0] ?? ['', 0];
  return { query, queryCount };
}

/** Polls pg_stat_activity every SAMPLE_MS until stopped; counts (wait_event_type:wait_event), CPU/none for active-with-no-wait. */
function sampleWaits(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  const counts = new Map<string, { count: number; idle: number; queries: Map<string, number> }>();
  let samples = 0;
  let observations = 0;
  let running = true;
  const commitCount = async () =>
    Number((await client.query<{ n: string }>('select xact_commit::text as n from pg_stat_database where datname = current_database()')).rows[0]!.n);
  let commits = 0;
  const loop = (async () => {
    await client.connect();
    const firstCommits = await commitCount();
    while (running) {
      const started = performance.now();
      const { rows } = await client.query<{ wait_event_type: string | null; wait_event: string | null; state: string; query: string }>(SAMPLE_SQL);
      samples++;
      for (const r of rows) {
        const event = r.wait_event_type ? `${r.wait_event_type}:${r.wait_event}` : 'CPU/none';
        const c = counts.get(event) ?? { count: 0, idle: 0, queries: new Map() };
        c.count++;
        if (r.state.startsWith('idle in transaction')) c.idle++;
        const q = r.query.replace(/\s+/g, ' ').slice(0, 100);
        c.queries.set(q, (c.queries.get(q) ?? 0) + 1);
        counts.set(event, c);
        observations++;
      }
      await new Promise((r) => setTimeout(r, Math.max(0, SAMPLE_MS - (performance.now() - started))));
    }
    // Backends report their counts within a second or so; the sampler's own statements are subtracted.
    await new Promise((r) => setTimeout(r, 1000));
    commits = (await commitCount()) - firstCommits - samples - 1;
    await client.end();
  })();
  return {
    async stop(): Promise<{ samples: number; observations: number; commits: number; waits: WaitCount[] }> {
      running = false;
      await loop;
      const waits = [...counts]
        .sort(([, a], [, b]) => b.count - a.count)
        .map(([event, c]) => ({
          event,
          count: c.count,
          share: c.count / Math.max(observations, 1),
          idleInTransaction: c.idle,
          ...mostSeen(c.queries),
        }));
      return { samples, observations, commits, waits };
    },
  };
}

/** One N: a fresh database, seeded keys, the cluster, a warm-up, then the measured, sampled run. */
async function runN(n: number, env: Record<string, string>): Promise<ScaleRow> {
  const loc = await freshStoreLocation();
  try {
    const keys: string[] = [];
    for (let i = 0; i < ACCOUNTS; i++) keys.push((await seedAccount(loc, OP)).key);
    const server = await startCluster(loc, n, env);
    try {
      const target = TARGETS[OP];
      const spec = {
        url: `${server.url}${target.path}`,
        body: target.body,
        headersFor: () => ({ authorization: `Bearer ${keys[Math.floor(Math.random() * keys.length)]!}` }),
        connections: SCALE_CONNECTIONS,
      };
      // The warm-up (half as long) is not sampled: only the measured run is.
      await load({ ...spec, name: `${n} process(es) (warm-up)`, seconds: Math.max(1, Math.round(SECONDS / 2)) });
      const sampler = sampleWaits(loc.databaseUrl!);
      const result = await load({ ...spec, name: `${n} process(es)`, seconds: SECONDS }).catch(async (err: unknown) => {
        await sampler.stop().catch(() => undefined); // the sampler must not outlive the database it samples
        throw err;
      });
      const waits = await sampler.stop();
      return { ...result, nodes: n, samples: waits.samples, observations: waits.observations, commits: waits.commits, waits: waits.waits.slice(0, TOP) };
    } finally {
      await server.stop();
    }
  } finally {
    await loc.drop();
  }
}

export async function scaleN(): Promise<ScaleRow[]> {
  const sim = OP === 'live' ? await startSim() : null;
  try {
    const env: Record<string, string> = sim ? { SANGAM_PARTNER_URL: sim.url, SANGAM_PARTNER_SECRET: sim.secret } : {};
    const rows: ScaleRow[] = [];
    for (const n of NODES) rows.push(await runN(n, env));
    return rows;
  } finally {
    await sim?.stop();
  }
}

const f0 = (n: number) => n.toFixed(0);
const f2 = (n: number) => n.toFixed(2);
const pct = (n: number) => `${(n * 100).toFixed(0)} %`;

export function printScaleN(rows: ScaleRow[]): void {
  const one = rows.find((r) => r.nodes === 1) ?? rows[0]!;
  console.log(`\nScale-out by process count on PostgreSQL: ${TARGETS[OP].label}, ${ACCOUNTS} account(s), SANGAM_WORKERS=N (node:cluster, one port),`);
  console.log(`a fresh database per N, ${SCALE_CONNECTIONS} client connections, pool ${POOL_PER_PROCESS} per process, ${SECONDS} s per N after a warm-up\n`);
  console.log('| processes | req/s | p50 ms | p99 ms | errors | ratio to 1 | requests per database commit |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const perCommit = (r.rps * SECONDS) / Math.max(r.commits, 1);
    console.log(`| ${r.nodes} | ${f0(r.rps)} | ${r.p50} | ${r.p99} | ${r.errors} | ${f2(r.rps / one.rps)} | ${perCommit.toFixed(1)} |`);
  }
  for (const r of rows) {
    console.log(`\nTop wait events, ${r.nodes} process(es): ${r.samples} samples of pg_stat_activity, ${r.observations} busy backends seen\n`);
    console.log('| wait (type:event) | count | share | of them idle in transaction | statement seen most under it (times) |');
    console.log('|---|---:|---:|---:|---|');
    for (const w of r.waits) console.log(`| ${w.event} | ${w.count} | ${pct(w.share)} | ${w.idleInTransaction} | \`${w.query.replace(/\|/g, '\\|')}\` (${w.queryCount}) |`);
  }
}
