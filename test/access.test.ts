// Access control through HTTP (CONTRACT §2): key lifecycle, IP allow-lists, trusted proxies, live
// compliance approval, rate limits and brute-force throttling.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createAccount, createKey, listKeys, revokeKey, rollKey, setLimits } from '../src/accounts/store.js';
import { addEntry, parseEntry, removeEntry } from '../src/access/allowlist.js';
import { approve, unapprove } from '../src/access/approvals.js';
import { OPERATION_SLUGS } from '../src/operations/registry.js';
import { PATHS, sleep, startApp, VALID, type TestApp } from './harness.js';

const wallet = '/api/v1/account/wallet';

describe('key lifecycle', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  it('lists keys by prefix and last 4 characters only', async () => {
    const keys = await listKeys(t.store.db, t.accountId);
    assert.equal(keys.length, 2);
    const sandbox = keys.find((k) => k.environment === 'sandbox')!;
    assert.equal(sandbox.display, `sk_test_…${t.key.slice(-4)}`);
    assert.ok(!JSON.stringify(keys).includes(t.key.slice(8, 30)));
  });

  it('roll: both keys work during the grace period, the old one is refused after it', async () => {
    const k = await createKey(t.store.db, t.accountId, 'sandbox');
    const rolled = await rollKey(t.store.db, k.id, 1);
    assert.match(rolled.key, /^sk_test_/);
    assert.equal((await t.call('GET', wallet, { key: k.key })).status, 200);
    assert.equal((await t.call('GET', wallet, { key: rolled.key })).status, 200);
    await sleep(1100);
    const old = await t.call('GET', wallet, { key: k.key });
    assert.equal(old.status, 401);
    assert.match(old.body.message, /expired/);
    assert.equal((await t.call('GET', wallet, { key: rolled.key })).status, 200);
  });

  it('roll with grace 0 stops the old key now; revoke says revoked; a revoked key cannot be rolled', async () => {
    const k = await createKey(t.store.db, t.accountId, 'sandbox');
    const rolled = await rollKey(t.store.db, k.id, 0);
    assert.equal((await t.call('GET', wallet, { key: k.key })).status, 401);
    await revokeKey(t.store.db, rolled.id);
    const r = await t.call('GET', wallet, { key: rolled.key });
    assert.equal(r.status, 401);
    assert.match(r.body.message, /revoked/);
    await assert.rejects(rollKey(t.store.db, rolled.id, 10), /no active key/);
  });

  it('last_used_at is written in batches', async () => {
    await t.call('GET', wallet);
    await t.services.auth.flushLastUsed();
    const k = (await listKeys(t.store.db, t.accountId)).find((x) => x.id === t.keyId)!;
    assert.ok(k.last_used_at && Date.now() - Date.parse(k.last_used_at) < 60_000);
  });
});

describe('IP allow-lists', () => {
  it('parses addresses and ranges, and refuses the rest', () => {
    assert.equal(parseEntry('10.1.2.3').canonical, '10.1.2.3');
    assert.equal(parseEntry('10.0.0.0/8').canonical, '10.0.0.0/8');
    assert.equal(parseEntry('2001:DB8::/32').canonical, '2001:db8::/32');
    assert.equal(parseEntry('::ffff:192.0.2.1').canonical, '192.0.2.1');
    for (const bad of ['10.0.0.0/33', '300.1.1.1', 'example.com', '10.0.0.0/8/1', '::1/129', '', '10.0.0.0/-1']) assert.throws(() => parseEntry(bad), bad);
  });

  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  it('sandbox: an empty list allows all; entries then allow only matching IPv4, IPv6 and CIDR', async () => {
    assert.equal((await t.call('GET', wallet, { ip: '203.0.113.9' })).status, 200);
    await addEntry(t.store.db, t.accountId, 'sandbox', '203.0.113.0/24');
    await addEntry(t.store.db, t.accountId, 'sandbox', '2001:db8:1::/48');
    await addEntry(t.store.db, t.accountId, 'sandbox', '198.51.100.7');
    const cases: Array<[string, number]> = [
      ['203.0.113.9', 200],
      ['::ffff:203.0.113.77', 200], // IPv4-mapped IPv6
      ['203.0.114.1', 403],
      ['198.51.100.7', 200],
      ['198.51.100.8', 403],
      ['2001:db8:1:ffff::1', 200],
      ['2001:db8:2::1', 403],
      ['::1', 403],
    ];
    for (const [ip, status] of cases) {
      const r = await t.call('GET', wallet, { ip });
      assert.equal(r.status, status, ip);
      if (status === 403) assert.equal(r.body.data.Errorcode, 102);
    }
    await removeEntry(t.store.db, t.accountId, 'sandbox', '203.0.113.0/24');
    assert.equal((await t.call('GET', wallet, { ip: '203.0.113.9' })).status, 403);
  });

  it('live: an empty list denies all', async () => {
    const r = await t.call('GET', wallet, { key: t.liveKey, ip: '192.0.2.10' });
    assert.equal(r.status, 403);
    assert.match(r.body.message, /allow-list/);
    await addEntry(t.store.db, t.accountId, 'live', '192.0.2.10');
    assert.equal((await t.call('GET', wallet, { key: t.liveKey, ip: '192.0.2.10' })).status, 200);
  });

  it('without a trusted proxy, X-Forwarded-For is ignored (no spoofing)', async () => {
    const a = await createAccount(t.store.db, 'Spoof Target');
    const k = await createKey(t.store.db, a.id, 'sandbox');
    await addEntry(t.store.db, a.id, 'sandbox', '192.0.2.50');
    const r = await t.call('GET', wallet, { key: k.key, ip: '203.0.113.1', headers: { 'x-forwarded-for': '192.0.2.50' } });
    assert.equal(r.status, 403);
  });
});

describe('IP allow-lists behind a trusted proxy', () => {
  let t: TestApp;
  before(async () => (t = await startApp({ SANGAM_TRUST_PROXY: '10.0.0.0/8' })));
  after(() => t.close());

  it('uses the client address the trusted proxy forwards, and only that', async () => {
    await addEntry(t.store.db, t.accountId, 'sandbox', '192.0.2.50');
    const via = (xff: string, ip = '10.0.0.5') => t.call('GET', wallet, { ip, headers: { 'x-forwarded-for': xff } });
    assert.equal((await via('192.0.2.50')).status, 200);
    assert.equal((await via('198.51.100.1')).status, 403);
    // The client prepends a fake address: the proxy appends the real one, which is what counts.
    assert.equal((await via('192.0.2.50, 198.51.100.1')).status, 403);
    // An untrusted peer's header is ignored.
    assert.equal((await via('192.0.2.50', '203.0.113.3')).status, 403);
  });
});

describe('live compliance approval', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
    await addEntry(t.store.db, t.accountId, 'live', '127.0.0.1');
  });
  after(() => t.close());

  it('an unapproved live operation is a 403 naming it; approval opens exactly that operation', async () => {
    const r = await t.call('POST', PATHS.recharge, { key: t.liveKey, body: VALID.recharge() });
    assert.equal(r.status, 403);
    assert.equal(r.body.data.Errorcode, 102);
    assert.match(r.body.message, /recharge-commission/);
    await approve(t.store.db, t.accountId, ['recharge-commission']);
    const approved = await t.call('POST', PATHS.recharge, { key: t.liveKey, body: VALID.recharge() });
    assert.notEqual(approved.status, 403);
    assert.notEqual(approved.body.data.status, 'success', 'a live key never gets a simulated answer');
    const other = await t.call('POST', PATHS.dth, { key: t.liveKey, body: VALID.dth() });
    assert.equal(other.status, 403);
    await unapprove(t.store.db, t.accountId, ['recharge-commission']);
    assert.equal((await t.call('POST', PATHS.recharge, { key: t.liveKey, body: VALID.recharge() })).status, 403);
  });

  it('sandbox keys need no approval', async () => {
    assert.equal((await t.call('POST', PATHS.dth, { body: VALID.dth() })).status, 200);
  });
});

describe('rate limits', () => {
  let t: TestApp;
  // A slow refill (1/s): a loaded machine takes a while to send the burst, and must not refill it meanwhile.
  before(async () => (t = await startApp({ SANGAM_RATE_LIMIT_PER_SEC: '1', SANGAM_RATE_LIMIT_BURST: '10', SANGAM_AUTH_FAILURES_PER_MIN: '5' })));
  after(() => t.close());

  it('absorbs a burst, then 429 with Retry-After and RateLimit headers, then recovers', async () => {
    const started = Date.now();
    const burst = await Promise.all(Array.from({ length: 10 }, () => t.call('GET', wallet)));
    assert.deepEqual(burst.map((r) => r.status), Array(10).fill(200));
    assert.equal(burst[0]!.headers['ratelimit-limit'], '10');
    // The bucket refills at 1 a second: on a slow machine the burst itself may take long enough for a
    // token or two to come back, so ask until the limit answers, and check that no more got through
    // than the burst plus what refilled meanwhile.
    let limited = await t.call('GET', wallet);
    let extra = 0;
    while (limited.status === 200 && extra < 60) {
      extra++;
      limited = await t.call('GET', wallet);
    }
    assert.equal(limited.status, 429);
    assert.ok(extra <= Math.ceil((Date.now() - started) / 1000) + 1, `${extra} calls beyond the burst in ${Date.now() - started} ms`);
    assert.equal(limited.body.data.Errorcode, 108);
    assert.ok(Number(limited.headers['retry-after']) >= 1);
    assert.equal(limited.headers['ratelimit-remaining'], '0');
    await sleep(Number(limited.headers['retry-after']) * 1000);
    assert.equal((await t.call('GET', wallet)).status, 200);
  });

  it('limits are per key, and configurable per account', async () => {
    const a = await createAccount(t.store.db, 'Big Client');
    await setLimits(t.store.db, a.id, 100, 40);
    const k = await createKey(t.store.db, a.id, 'sandbox');
    const rs = await Promise.all(Array.from({ length: 40 }, () => t.call('GET', wallet, { key: k.key })));
    assert.ok(rs.every((r) => r.status === 200));
    assert.equal(rs[0]!.headers['ratelimit-limit'], '40');
  });

  it('failed authentication is throttled per IP; other IPs are unaffected', async () => {
    const guess = (ip: string) => t.call('GET', wallet, { key: `sk_test_${'x'.repeat(40)}`, ip });
    for (let i = 0; i < 5; i++) assert.equal((await guess('198.51.100.99')).status, 401);
    const blocked = await guess('198.51.100.99');
    assert.equal(blocked.status, 429);
    assert.ok(Number(blocked.headers['retry-after']) >= 1);
    // Only failed attempts are refused: a valid key behind the same address keeps working (a forgotten
    // worker retrying an expired key must not take a whole NAT's traffic down).
    const valid = await createKey(t.store.db, t.accountId, 'sandbox'); // a full rate-limit bucket of its own
    for (let i = 0; i < 3; i++) {
      assert.equal((await guess('198.51.100.99')).status, 429);
      assert.equal((await t.call('GET', wallet, { key: valid.key, ip: '198.51.100.99' })).status, 200);
    }
    assert.equal((await guess('198.51.100.100')).status, 401);
  });
});

describe('admin commands (the CLI verbs) and their audit trail', () => {
  let t: TestApp;
  before(async () => (t = await startApp()));
  after(() => t.close());

  it('keys roll / revoke, allowlist add / list / remove, approve / unapprove, limits: each leaves an ADMIN audit row', async () => {
    const { runCommand } = await import('../src/admin/run.js');
    const run = async (...argv: string[]) => {
      const r = await runCommand(t.store.db, argv);
      assert.equal(r.code, 0, JSON.stringify(r.output));
      return r.output as any;
    };
    const k = await createKey(t.store.db, t.accountId, 'sandbox');
    const rolled = await run('keys', 'roll', k.id, '--grace', '60');
    assert.match(rolled.key, /^sk_test_/);
    await run('keys', 'revoke', rolled.id);
    assert.deepEqual((await run('allowlist', 'add', '--account', t.accountId, '--env', 'live', '2001:db8::/32')).entries, ['2001:db8::/32']);
    assert.deepEqual((await run('allowlist', 'list', '--account', t.accountId, '--env', 'live')).entries, ['2001:db8::/32']);
    await run('allowlist', 'remove', '--account', t.accountId, '--env', 'live', '2001:db8::/32');
    assert.equal((await run('approve', '--account', t.accountId, '--operation', 'all')).approved.length, OPERATIONS_COUNT);
    assert.equal((await run('unapprove', '--account', t.accountId, '--operation', 'dth-recharge')).approved.length, OPERATIONS_COUNT - 1);
    await run('accounts', 'limits', '--account', t.accountId, '--per-sec', '20', '--burst', '60');
    const keys = (await run('keys', 'list', '--account', t.accountId)).keys;
    assert.ok(keys.every((x: { display: string }) => /^sk_(test|live)_…[0-9A-Za-z]{4}$/.test(x.display)));

    const rows = await t.store.db.selectFrom('audit_logs').select(['path', 'key_id']).where('method', '=', 'ADMIN').where('account_id', '=', t.accountId).execute();
    const actions = rows.map((r) => r.path);
    for (const a of ['keys roll', 'keys revoke', 'allowlist add', 'allowlist remove', 'approve', 'unapprove', 'accounts limits']) assert.ok(actions.includes(a), a);
    assert.ok(rows.some((r) => r.path === 'keys roll' && r.key_id === k.id));

    const bad = await runCommand(t.store.db, ['allowlist', 'add', '--account', t.accountId, '--env', 'live', '10.0.0.0/99']);
    assert.equal(bad.code, 2);
    const unknownOp = await runCommand(t.store.db, ['approve', '--account', t.accountId, '--operation', 'teleport']);
    assert.equal(unknownOp.code, 2);
  });
});

const OPERATIONS_COUNT = OPERATION_SLUGS.length;
