// Scale-out: two Sangam processes on one PostgreSQL, with no balancer but the client's own
// round-robin (each client connection pinned to one node, alternating). Shows the throughput of one
// node against two, and that correctness holds across nodes: one idempotency key sent to both nodes
// at once executes once, and with Redis configured the two nodes share one rate limit per key.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Pool } from 'undici';
import { openStore } from '../src/db/client.js';
import type { StoreLocation } from '../test/harness.js';
import { CONNECTIONS, freePort, load, seedAccount, startServer, warmLoad, type Proc, type Result } from './lib.js';

const SIG = '/api/v1/document-ocr/signature-match';
const UPI = '/api/v1/upi-payment/upi-payment-status';
const sigBody = () => JSON.stringify({ reference_id: `so-${randomUUID()}`, consent: true, input: 'https://example.com/cheque.png', name: 'Priya Sharma' });

export interface ScaleOutResult {
  one: Result;
  two: Result;
  idempotency: { keys: number; requests: number; executions: number; replays: number; inFlight409: number; violations: number };
  rateLimit: { perSec: number; burst: number; seconds: number; allowed: number; limited: number; bound: number } | null;
}

async function post(pool: Pool, path: string, body: string, key: string) {
  const res = await pool.request({ method: 'POST', path, headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body });
  return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as { data: Record<string, unknown> } };
}

/** Both nodes load at once, half the connections each; req/s and latencies combined. */
async function twoNodes(a: Proc, b: Proc, key: string): Promise<Result> {
  const spec = { body: sigBody, headers: { authorization: `Bearer ${key}` }, connections: Math.max(1, CONNECTIONS / 2) };
  await Promise.all([a, b].map((n) => load({ ...spec, name: 'warm-up', url: `${n.url}${SIG}`, seconds: 3 })));
  const [ra, rb] = await Promise.all([a, b].map((n) => load({ ...spec, name: 'two', url: `${n.url}${SIG}` })));
  return { name: 'two nodes, round-robin', rps: ra!.rps + rb!.rps, p50: Math.max(ra!.p50, rb!.p50), p99: Math.max(ra!.p99, rb!.p99), errors: ra!.errors + rb!.errors, requests: ra!.requests + rb!.requests };
}

/** The same UPI idempotency key sent to both nodes at once, `keys` times. */
async function idempotencyAcrossNodes(loc: StoreLocation, nodes: Proc[], key: string, keys: number) {
  const pools = nodes.map((n) => new Pool(n.url, { connections: 4 }));
  const store = await openStore({ databaseUrl: loc.databaseUrl, dataDir: loc.dataDir, poolMax: 2 });
  const out = { keys, requests: 0, executions: 0, replays: 0, inFlight409: 0, violations: 0 };
  try {
    for (let i = 0; i < keys; i++) {
      const reference = `idem-${randomUUID()}`;
      const body = JSON.stringify({ reference_id: reference, consent: true, vpa: 'pending@sandbox', amount: 10, idempotency_key: randomUUID() });
      const replies = await Promise.all(Array.from({ length: 6 }, (_, j) => post(pools[j % pools.length]!, UPI, body, key)));
      out.requests += replies.length;
      const ok = replies.filter((r) => r.status === 200);
      const conflicts = replies.filter((r) => r.status === 409);
      out.replays += ok.filter((r) => r.headers['idempotent-replayed'] === 'true').length;
      out.inFlight409 += conflicts.length;
      const rows = await store.db.selectFrom('transactions').select('id').where('reference_id', '=', reference).execute();
      out.executions += rows.length;
      // One execution, every success answering it, and nothing but successes and 409s.
      if (rows.length !== 1 || new Set(ok.map((r) => r.body.data.txn_id)).size !== 1 || ok.length + conflicts.length !== replies.length) out.violations++;
    }
  } finally {
    await store.close();
    await Promise.all(pools.map((p) => p.close()));
  }
  return out;
}

/** Requests round-robin over both nodes for `seconds`; with a shared bucket at most burst + rate × time pass. */
async function sharedRateLimit(nodes: Proc[], key: string, perSec: number, burst: number, seconds: number) {
  const pools = nodes.map((n) => new Pool(n.url, { connections: 4 }));
  let allowed = 0;
  let limited = 0;
  let turn = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (performance.now() < end) {
        const r = await post(pools[turn++ % pools.length]!, SIG, sigBody(), key);
        if (r.status === 200) allowed++;
        else if (r.status === 429) limited++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  await Promise.all(pools.map((p) => p.close()));
  return { perSec, burst, seconds, allowed, limited, bound: Math.ceil(burst + perSec * elapsed) };
}

export async function scaleOut(loc: StoreLocation): Promise<ScaleOutResult> {
  const { key } = await seedAccount(loc, 'sandbox');
  const a = await startServer(loc);
  let b: Proc | null = null;
  try {
    const one = await warmLoad({ name: 'one node', url: `${a.url}${SIG}`, body: sigBody, headers: { authorization: `Bearer ${key}` } });
    b = await startServer(loc);
    const two = await twoNodes(a, b, key);
    const idempotency = await idempotencyAcrossNodes(loc, [a, b], key, 50);
    await Promise.all([a.stop(), b.stop()]);

    let rateLimit: ScaleOutResult['rateLimit'] = null;
    if (spawnSync('redis-server', ['--version']).status === 0) {
      const port = await freePort();
      const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      try {
        await new Promise((r) => setTimeout(r, 300));
        const env = { SANGAM_REDIS_URL: `redis://127.0.0.1:${port}`, SANGAM_RATE_LIMIT_PER_SEC: '100', SANGAM_RATE_LIMIT_BURST: '100' };
        const nodes = [await startServer(loc, env), await startServer(loc, env)];
        try {
          rateLimit = await sharedRateLimit(nodes, key, 100, 100, 3);
        } finally {
          await Promise.all(nodes.map((n) => n.stop()));
        }
      } finally {
        redis.kill();
      }
    }
    return { one, two, idempotency, rateLimit };
  } finally {
    await a.stop();
    await b?.stop();
  }
}
