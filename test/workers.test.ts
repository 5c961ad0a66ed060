// SANGAM_WORKERS: on PostgreSQL, N server processes share one port (node:cluster), a worker that dies
// is replaced, and SIGTERM to the primary stops them all; the workers share one rate limit per key and
// one failed-authentication limit per address. On the embedded store it stays one process.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { get } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createAccount, createKey } from '../src/accounts/store.js';
import { openStore } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { randomBase62 } from '../src/ids.js';
import { freshStoreLocation, sleep } from './harness.js';
import { freePort } from './live-harness.js';

const SERVER = fileURLToPath(new URL('../src/server.js', import.meta.url));

/** The pids whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(d));
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

async function waitFor<T>(fn: () => T | undefined | false, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`condition not met within ${ms} ms`);
    await sleep(100);
  }
}

async function boot(env: Record<string, string>): Promise<{ server: ChildProcess; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = fork(SERVER, [], { env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env }, stdio: 'ignore' });
  for (let i = 0; i < 1200 && !(await fetch(`${base}/health`).then((r) => r.ok, () => false)); i++) await sleep(25);
  return { server, base };
}

describe('SANGAM_WORKERS', () => {
  it('runs N processes on one port on PostgreSQL, replaces a dead one, and stops them all', { skip: process.env.DATABASE_URL ? false : 'PostgreSQL only' }, async (t) => {
    const loc = await freshStoreLocation();
    const { server, base } = await boot({ DATABASE_URL: loc.databaseUrl!, SANGAM_DATA_DIR: loc.dataDir, SANGAM_WORKERS: '2' });
    t.after(async () => {
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
      await loc.drop();
    });
    const workers = await waitFor(() => {
      const c = childrenOf(server.pid!);
      return c.length === 2 && c;
    }, 30_000);
    for (let i = 0; i < 10; i++) assert.equal((await fetch(`${base}/health`)).status, 200);
    process.kill(workers[0]!, 'SIGKILL');
    await waitFor(() => {
      const c = childrenOf(server.pid!);
      return c.length === 2 && !c.includes(workers[0]!);
    }, 30_000);
    // The replacement serves once it has started (the primary hands connections to live workers).
    let ok = false;
    for (let i = 0; i < 300 && !ok; i++) ok = await fetch(`${base}/health`).then((r) => r.ok, () => false).then((v) => v || sleep(100).then(() => false));
    assert.ok(ok, 'the service answers after a worker died');
    const all = childrenOf(server.pid!);
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    assert.equal(server.exitCode, 0);
    for (const pid of all) assert.throws(() => process.kill(pid, 0), 'every worker stopped');
  });

  it('tells a forking parent it is ready once every worker listens, not when the first does', { skip: process.env.DATABASE_URL ? false : 'PostgreSQL only' }, async (t) => {
    const loc = await freshStoreLocation();
    const port = await freePort();
    const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATABASE_URL: loc.databaseUrl!, SANGAM_DATA_DIR: loc.dataDir, SANGAM_WORKERS: '3' };
    const server = fork(SERVER, [], { env, stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    t.after(async () => {
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
      await loc.drop();
    });
    const messages: unknown[] = [];
    server.on('message', (m) => messages.push(m));
    await waitFor(() => messages.length > 0, 30_000);
    assert.deepEqual(messages, ['ready']);
    // Every worker is up when the parent hears it, and each of them accepts connections at once.
    assert.equal(childrenOf(server.pid!).length, 3);
    const answers = await Promise.all(Array.from({ length: 12 }, () => fetch(`http://127.0.0.1:${port}/health`).then((r) => r.status)));
    assert.deepEqual(new Set(answers), new Set([200]));
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    assert.deepEqual(messages, ['ready'], 'ready is said once');
  });

  // Issue #22, finding 6: without Redis each worker kept its own buckets, so 2 workers let a burst of
  // 5 through twice and 40 bad keys got no 429. Each request opens its own connection, so the primary
  // deals them out to both workers in turn.
  it('two workers share one rate limit per key and one failed-authentication limit per address', { skip: process.env.DATABASE_URL ? false : 'PostgreSQL only' }, async (t) => {
    const loc = await freshStoreLocation();
    const store = await openStore({ databaseUrl: loc.databaseUrl, dataDir: loc.dataDir, poolMax: 1 });
    await migrate(store.db);
    const { key } = await createKey(store.db, (await createAccount(store.db, 'Cluster')).id, 'sandbox');
    await store.close();
    const env = { DATABASE_URL: loc.databaseUrl!, SANGAM_DATA_DIR: loc.dataDir, SANGAM_WORKERS: '2', SANGAM_RATE_LIMIT_BURST: '5', SANGAM_RATE_LIMIT_PER_SEC: '1', SANGAM_AUTH_FAILURES_PER_MIN: '20' };
    const { server, base } = await boot(env);
    t.after(async () => {
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
      await loc.drop();
    });
    await waitFor(() => childrenOf(server.pid!).length === 2, 30_000);
    /** One GET on a connection of its own; its status and X-Request-Id. */
    const once = (bearer: string) =>
      new Promise<number>((resolve, reject) =>
        get(`${base}/api/v1/mobile-recharge/operators`, { agent: false, headers: { authorization: `Bearer ${bearer}` } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        }).on('error', reject),
      );

    let started = Date.now();
    const burst: number[] = [];
    for (let i = 0; i < 10; i++) burst.push(await once(key));
    let refilled = Math.floor((Date.now() - started) / 1000); // 1 token a second while we ran
    const allowed = burst.filter((s) => s === 200).length;
    assert.ok(allowed >= 5 && allowed <= 5 + refilled, `${allowed} of 10 allowed, expected 5 (+${refilled} refilled): ${burst.join(' ')}`);
    assert.equal(burst.filter((s) => s === 429).length, 10 - allowed);

    started = Date.now();
    const bad: number[] = [];
    for (let i = 0; i < 40; i++) bad.push(await once(`sk_test_${randomBase62(40)}`));
    refilled = Math.floor(((Date.now() - started) / 60_000) * 20);
    const refused = bad.filter((s) => s === 401).length;
    assert.ok(refused >= 20 && refused <= 20 + refilled, `${refused} of 40 bad keys answered 401, expected 20 (+${refilled}): ${bad.join(' ')}`);
    assert.equal(bad.filter((s) => s === 429).length, 40 - refused);
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  });

  it('stays one process on the embedded store', { skip: process.env.DATABASE_URL ? 'embedded store only' : false }, async (t) => {
    const loc = await freshStoreLocation();
    const { server, base } = await boot({ DATABASE_URL: '', SANGAM_DATA_DIR: loc.dataDir, SANGAM_WORKERS: '2' });
    t.after(async () => {
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
      await loc.drop();
    });
    assert.equal((await fetch(`${base}/health`)).status, 200);
    assert.deepEqual(childrenOf(server.pid!).length, 0);
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  });
});
