// SANGAM_WORKERS: on PostgreSQL, N server processes share one port (node:cluster), a worker that dies
// is replaced (a slot that keeps dying after a growing wait, while the others serve), and SIGTERM to
// the primary stops them all; the workers share one rate limit per key and one failed-authentication
// limit per address. On the embedded store it stays one process.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { get } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createAccount, createKey } from '../src/accounts/store.js';
import type { WorkersHealth } from '../src/cluster/health.js';
import { restartDelay } from '../src/cluster/supervisor.js';
import { openStore } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { randomBase62 } from '../src/ids.js';
import { eventually, freshStoreLocation, sleep } from './harness.js';
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

type Health = { workers: WorkersHealth & { self: { slot: number; pid: number } } };

/** One GET /health on a connection of its own (a kept-alive one could lead to a killed worker). */
const healthOnce = (base: string, timeoutMs = 5000) =>
  new Promise<Health>((resolve, reject) => {
    const req = get(`${base}/health`, { agent: false, timeout: timeoutMs }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(text) as Health) : reject(new Error(`status ${res.statusCode}`))));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });

describe('SANGAM_WORKERS: workers that keep dying', () => {
  it('the restart wait doubles from the base, is capped, has jitter, and is 0 after a single death', () => {
    const b = { baseMs: 1000, maxMs: 30_000 };
    assert.equal(restartDelay(1, b), 0);
    assert.deepEqual([2, 3, 4, 5, 6, 7, 20].map((d) => restartDelay(d, b, () => 1)), [1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    assert.deepEqual([2, 3, 7].map((d) => restartDelay(d, b, () => 0)), [500, 1000, 15000]);
    assert.equal(restartDelay(1000, b, () => 1), 30_000);
  });

  it('more than 10 kills a minute: the healthy workers keep answering, the dying slots back off, /health and the log say so', { skip: process.env.DATABASE_URL ? false : 'PostgreSQL only' }, async (t) => {
    const WORKERS = 4;
    const loc = await freshStoreLocation();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATABASE_URL: loc.databaseUrl!,
      SANGAM_DATA_DIR: loc.dataDir,
      SANGAM_WORKERS: String(WORKERS),
      SANGAM_WORKER_BACKOFF_MS: '300',
      SANGAM_WORKER_BACKOFF_MAX_MS: '3000',
    };
    const server = fork(SERVER, [], { env, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    const log: Array<Record<string, unknown>> = [];
    createInterface({ input: server.stderr! }).on('line', (l) => {
      try {
        log.push(JSON.parse(l) as Record<string, unknown>);
      } catch {
        process.stderr.write(`${l}\n`);
      }
    });
    let probing = true;
    t.after(async () => {
      probing = false;
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
      await loc.drop();
    });
    await new Promise<void>((resolve, reject) => {
      server.once('message', (m) => m === 'ready' && resolve());
      server.once('exit', (code) => reject(new Error(`the primary exited with ${code} before it was ready`)));
    });

    // A client that asks all the time, each request on a new connection: when was it last answered?
    // A connection the primary was handing to a worker at the instant it was killed is lost: node:cluster
    // keeps it open and never passes it on, so this client gives up after a second and asks again, as
    // any client with a deadline would; one that went to the dying worker itself is reset at once.
    const probes = { ok: 0, reset: 0, lost: 0, longestGapMs: 0 };
    let lastOk = Date.now();
    const prober = (async () => {
      while (probing) {
        try {
          await healthOnce(base, 1000);
          const now = Date.now();
          probes.ok++;
          probes.longestGapMs = Math.max(probes.longestGapMs, now - lastOk);
          lastOk = now;
        } catch (err) {
          if ((err as Error).message === 'timeout') probes.lost++;
          else probes.reset++;
        }
        await sleep(5);
      }
    })();

    // Kill the lowest-numbered serving worker whenever another one serves too, else the lowest one
    // still starting (a boot takes seconds on a loaded machine; a slot that keeps dying is the point),
    // never the last one serving; wait for the primary to have seen each death.
    const seen = { maxBackoff: 0, maxRestarting: 0, maxDeaths: 0 };
    const observe = (h: Health) => {
      seen.maxBackoff = Math.max(seen.maxBackoff, h.workers.backoff_ms);
      seen.maxRestarting = Math.max(seen.maxRestarting, h.workers.restarting);
      seen.maxDeaths = Math.max(seen.maxDeaths, ...h.workers.slots.map((s) => s.deaths));
      return h;
    };
    const health = () => eventuallyOk(() => healthOnce(base).then(observe));
    const victimOf = (h: Health) => {
      const slots = h.workers.slots;
      const alive = slots.filter((s) => s.state === 'alive');
      return (alive.length >= 2 ? alive[0] : undefined) ?? slots.find((s) => s.state === 'starting' && s.pid !== null);
    };
    const kills: Array<{ slot: number; pid: number; serving: boolean; at: number }> = [];
    const KILLS = 12;
    while (kills.length < KILLS) {
      const victim = await eventually(async () => victimOf(await health()), 30_000);
      try {
        process.kill(victim.pid!, 'SIGKILL');
      } catch {
        continue; // it died of itself meanwhile
      }
      kills.push({ slot: victim.slot, pid: victim.pid!, serving: victim.state === 'alive', at: Date.now() });
      await eventually(async () => (await health()).workers.slots[victim.slot]!.pid !== victim.pid, 10_000);
    }
    const spanMs = kills.at(-1)!.at - kills[0]!.at;
    // The cluster heals once the kills stop: every slot serves again.
    const healed = await eventually(async () => {
      const h = await health();
      return h.workers.alive === WORKERS && h;
    }, 30_000);
    probing = false;
    await prober;

    t.diagnostic(`${kills.length} kills in ${spanMs} ms (slots ${kills.map((k) => `${k.slot}${k.serving ? '' : ' starting'}`).join(', ')}); probes ${probes.ok} answered, ${probes.reset} reset, ${probes.lost} lost in the hand-off, longest wait for an answer ${probes.longestGapMs} ms; /health saw up to ${seen.maxRestarting} slots waiting, a backoff of ${seen.maxBackoff} ms, ${seen.maxDeaths} deaths in a row`);
    assert.ok(kills.length > 10 && spanMs < 60_000, 'more than 10 kills within a minute');
    assert.ok(kills.filter((k) => k.serving).length >= WORKERS - 1, 'serving workers were killed, all but one of them');
    assert.equal(server.exitCode, null, 'the primary is still there');
    assert.equal(server.signalCode, null);
    assert.ok(probes.longestGapMs < 3000, `the API kept answering (longest wait ${probes.longestGapMs} ms)`);
    assert.ok(probes.ok > kills.length * 5);
    assert.ok(seen.maxBackoff > 0 && seen.maxRestarting >= 1, '/health reported a slot waiting out a backoff');
    assert.ok(seen.maxDeaths >= 3, 'a slot that keeps dying counts its deaths');
    assert.deepEqual(healed.workers.slots.map((s) => s.state), Array(WORKERS).fill('alive'));
    assert.equal(healed.workers.restarting, 0);
    assert.ok(healed.workers.slots.some((s) => s.pid === healed.workers.self.pid), 'the answering worker is one of the slots');

    // The log: one JSON line per death, with the wait it chose; the waits grow for a slot that keeps dying.
    const deaths = log.filter((l) => l.msg === 'a worker exited; its slot starts again after a backoff');
    assert.deepEqual(deaths.map((l) => l.worker), kills.map((k) => k.pid));
    for (const d of deaths) assert.equal(typeof d.restart_in_ms, 'number');
    const slot0 = deaths.filter((d) => d.slot === 0);
    assert.ok(slot0.length >= 3);
    assert.equal(slot0[0]!.restart_in_ms, 0, 'a first death restarts at once');
    assert.ok((slot0.at(-1)!.restart_in_ms as number) > 0, 'a slot that keeps dying waits');
    assert.ok(!log.some((l) => l.level === 'error'), JSON.stringify(log.filter((l) => l.level === 'error')));

    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    assert.equal(server.exitCode, 0);
  });
});

/** fn() until it resolves (a connection refused or reset is tried again), within 10 s. */
async function eventuallyOk<T>(fn: () => Promise<T>): Promise<T> {
  const end = Date.now() + 10_000;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > end) throw err;
      await sleep(20);
    }
  }
}
