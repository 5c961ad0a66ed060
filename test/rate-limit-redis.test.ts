// With SANGAM_REDIS_URL, a key's token bucket is shared by every server process: two apps together
// let through one burst, not two; so are the failed-authentication and console sign-in limits. Runs against a real redis-server started here (skipped, with the
// reason, where the redis-server binary is not installed; CI installs it).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { startApp, sleep, type TestApp } from './harness.js';

const hasRedis = spawnSync('redis-server', ['--version']).status === 0;
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describe('rate limits shared through Redis', { skip: hasRedis ? false : 'redis-server is not installed' }, () => {
  let redis: ChildProcess;
  let a: TestApp;
  let b: TestApp;
  before(async () => {
    const port = await freePort();
    redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await sleep(300);
    const env = { SANGAM_REDIS_URL: `redis://127.0.0.1:${port}`, SANGAM_RATE_LIMIT_PER_SEC: '1', SANGAM_RATE_LIMIT_BURST: '10', SANGAM_AUTH_FAILURES_PER_MIN: '4' };
    a = await startApp(env);
    b = await startApp(env, undefined, false);
    // The same account and key in the second process's store.
    const acct = await a.store.db.selectFrom('accounts').selectAll().where('id', '=', a.accountId).executeTakeFirstOrThrow();
    await b.store.db.insertInto('accounts').values({ id: acct.id, name: acct.name }).execute();
    const key = await a.store.db.selectFrom('api_keys').selectAll().where('id', '=', a.keyId).executeTakeFirstOrThrow();
    await b.store.db.insertInto('api_keys').values({ id: key.id, account_id: key.account_id, environment: key.environment, key_hash: key.key_hash, prefix: key.prefix, last4: key.last4 }).execute();
  });
  after(async () => {
    await a?.close();
    await b?.close();
    redis?.kill();
  });

  it('two processes share one bucket', async () => {
    const call = (t: TestApp) => t.call('GET', '/api/v1/mobile-recharge/operators', { key: a.key });
    const results = [];
    const started = Date.now();
    for (let i = 0; i < 7; i++) results.push((await call(a)).status, (await call(b)).status);
    const refilled = Math.floor((Date.now() - started) / 1000); // 1 token a second while we ran
    const ok = results.filter((s) => s === 200).length;
    assert.ok(ok >= 10 && ok <= 10 + refilled, `${ok} allowed, expected 10 (+${refilled} refilled)`);
    assert.equal(results.filter((s) => s === 429).length, 14 - ok);
  });

  it('failed authentications are counted across both processes (issue #22)', async () => {
    const bad = (t: TestApp) => t.call('GET', '/api/v1/mobile-recharge/operators', { key: `sk_test_${'Q'.repeat(40)}`, ip: '203.0.113.9' });
    const results = [];
    for (let i = 0; i < 3; i++) results.push((await bad(a)).status, (await bad(b)).status);
    assert.deepEqual(results, [401, 401, 401, 401, 429, 429], 'four failures a minute from one address, whichever process answers');
  });

  it('console sign-in failures are counted across both processes: the check before trying reads the shared bucket', async () => {
    // 10 failures a minute per address and email; each process alone would take 10 before its first 429.
    const login = (t: TestApp) => t.app.inject({ method: 'POST', url: '/console/api/login', remoteAddress: '203.0.113.10', payload: { email: 'who@acme.test', password: 'wrong' } });
    const started = Date.now();
    const results: number[] = [];
    while (results.length < 20 && !results.includes(429)) results.push((await login(results.length % 2 ? b : a)).statusCode);
    const refilled = Math.floor(((Date.now() - started) / 60_000) * 10); // scrypt is slow: a token may come back meanwhile
    const failed = results.filter((s) => s === 401).length;
    assert.ok(results.includes(429) && failed >= 10 && failed <= 10 + refilled, `${failed} failures before a 429, expected 10 (+${refilled}): ${results.join(' ')}`);
  });

  it('a Redis outage lets requests through instead of failing them', async () => {
    redis.kill('SIGKILL');
    await sleep(200);
    const r = await b.call('GET', '/api/v1/mobile-recharge/operators', { key: a.key });
    assert.equal(r.status, 200);
  });
});
