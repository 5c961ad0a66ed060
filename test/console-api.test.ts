// The console's management API: sign-in with scrypt hashes, HttpOnly SameSite cookies, CSRF tokens,
// sign-in throttling, admin-only pages and account isolation.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createAccount } from '../src/accounts/store.js';
import { runCommand } from '../src/admin/run.js';
import { startApp, type TestApp } from './harness.js';

describe('console API', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
    assert.equal((await runCommand(t.store.db, ['users', 'create', '--email', 'dev@acme.test', '--password', 'correct horse', '--account', t.accountId])).code, 0);
    assert.equal((await runCommand(t.store.db, ['users', 'create', '--email', 'ops@sangam.test', '--password', 'admin pass 1', '--admin'])).code, 0);
  });
  after(() => t.close());

  const login = async (email: string, password: string) => {
    const r = await t.app.inject({ method: 'POST', url: '/console/api/login', payload: { email, password } });
    const cookie = String(r.headers['set-cookie'] ?? '');
    return { r, cookie: cookie.split(';')[0]!, raw: cookie, csrf: (JSON.parse(r.body) as { data: { csrf_token?: string } }).data.csrf_token ?? '' };
  };
  const as = (s: { cookie: string; csrf: string }, method: string, url: string, payload?: unknown, csrf = true) =>
    t.app.inject({ method: method as 'GET', url, payload: payload as object, headers: { cookie: s.cookie, ...(csrf ? { 'x-csrf-token': s.csrf } : {}) } });

  it('users create refuses a duplicate email', async () => {
    const r = await runCommand(t.store.db, ['users', 'create', '--email', 'DEV@acme.test', '--password', 'x'.repeat(10)]);
    assert.equal(r.code, 2);
  });

  it('users create takes the console password rule: 10 to 1,024 characters', async () => {
    const short = await runCommand(t.store.db, ['users', 'create', '--email', 'short@acme.test', '--password', 'x'.repeat(9)]);
    assert.equal(short.code, 2);
    assert.match(JSON.stringify(short.output), /password must be 10 to 1024 characters/);
    const exists = await t.store.db.selectFrom('console_users').select('id').where('email', '=', 'short@acme.test').executeTakeFirst();
    assert.equal(exists, undefined);
    assert.equal((await runCommand(t.store.db, ['users', 'create', '--email', 'short@acme.test', '--password', 'x'.repeat(10)])).code, 0);
  });

  it('signs in with a secure session cookie and a CSRF token', async () => {
    const s = await login('dev@acme.test', 'correct horse');
    assert.equal(s.r.statusCode, 200);
    assert.match(s.raw, /HttpOnly/i);
    assert.match(s.raw, /SameSite=Strict/i);
    assert.match(s.raw, /Path=\/console/);
    assert.ok(s.csrf.length > 20);
    const session = await as(s, 'GET', '/console/api/session');
    assert.equal(session.statusCode, 200);
    assert.equal(JSON.parse(session.body).data.user.email, 'dev@acme.test');
    const stored = await t.store.db.selectFrom('console_users').select('password_hash').where('email', '=', 'dev@acme.test').executeTakeFirstOrThrow();
    assert.match(stored.password_hash, /^scrypt\$/);
  });

  it('refuses a wrong password, then throttles guessing', async () => {
    await runCommand(t.store.db, ['users', 'create', '--email', 'victim@acme.test', '--password', 'long enough']);
    const bad = await login('victim@acme.test', 'wrong');
    assert.equal(bad.r.statusCode, 401);
    let last = 0;
    for (let i = 0; i < 12; i++) last = (await login('victim@acme.test', `wrong-${i}`)).r.statusCode;
    assert.equal(last, 429);
    assert.equal((await login('nobody@acme.test', 'x')).r.statusCode, 401);
  });

  it('a change without the CSRF token is refused; with it, it works', async () => {
    const s = await login('ops@sangam.test', 'admin pass 1');
    const denied = await as(s, 'POST', '/console/api/admin/accounts', { name: 'Nope' }, false);
    assert.equal(denied.statusCode, 403);
    const ok = await as(s, 'POST', '/console/api/admin/accounts', { name: 'Yes' });
    assert.equal(ok.statusCode, 200, ok.body);
  });

  it('a top-up must be whole paise of at least ₹0.01: 5e-324 is a 422 naming amount, not a top-up of 0 (issue #22)', async () => {
    const s = await login('ops@sangam.test', 'admin pass 1');
    const url = `/console/api/admin/accounts/${(await createAccount(t.store.db, 'Top-up')).id}/topup`;
    for (const amount of [5e-324, 1e-12, 19.999]) {
      const r = await as(s, 'POST', url, { amount });
      assert.equal(r.statusCode, 422, `${amount}: ${r.body}`);
      assert.deepEqual(JSON.parse(r.body).data.errors.map((e: { field: string }) => e.field), ['amount']);
    }
    const ok = await as(s, 'POST', url, { amount: 1.15 });
    assert.equal(ok.statusCode, 200, ok.body);
  });

  it('no session, no data; sign-out ends the session', async () => {
    assert.equal((await t.app.inject({ method: 'GET', url: '/console/api/keys' })).statusCode, 401);
    const s = await login('ops@sangam.test', 'admin pass 1');
    assert.equal((await as(s, 'POST', '/console/api/logout')).statusCode, 200);
    assert.equal((await as(s, 'GET', '/console/api/session')).statusCode, 401);
  });

  it('client users manage their own account only; admin pages are for admins', async () => {
    const dev = await login('dev@acme.test', 'correct horse');
    const created = JSON.parse((await as(dev, 'POST', '/console/api/keys', { environment: 'sandbox' })).body);
    assert.match(created.data.key, /^sk_test_/);
    assert.equal((await as(dev, 'POST', '/console/api/keys', { environment: 'live' })).statusCode, 403, 'no live key before approval');
    assert.equal((await as(dev, 'GET', '/console/api/admin/accounts')).statusCode, 403);
    const other = await createAccount(t.store.db, 'Other');
    const { createKey } = await import('../src/accounts/store.js');
    const foreign = await createKey(t.store.db, other.id, 'sandbox');
    assert.equal((await as(dev, 'POST', `/console/api/keys/${foreign.id}/revoke`)).statusCode, 404);
    const rolled = await as(dev, 'POST', `/console/api/keys/${created.data.id}/roll`, { grace_seconds: 0 });
    assert.equal(rolled.statusCode, 200, rolled.body);
    const keys = JSON.parse((await as(dev, 'GET', '/console/api/keys')).body).data.items;
    assert.ok(keys.every((k: { display: string }) => !k.display.includes(created.data.key.slice(10, 30))));
  });

  it('a bad statement cursor is a 422 naming cursor, as from the API', async () => {
    const dev = await login('dev@acme.test', 'correct horse');
    for (const cursor of ['abc', '1e30', '9999999999999999999999', '999999999999999999']) {
      const r = await as(dev, 'GET', `/console/api/statement?cursor=${cursor}`);
      assert.equal(r.statusCode, 422, `${cursor}: ${r.body}`);
      const body = JSON.parse(r.body);
      assert.equal(body.data.Errorcode, 104);
      assert.deepEqual(body.data.errors.map((e: { field: string }) => e.field), ['cursor']);
      const api = await t.app.inject({ method: 'GET', url: `/api/v1/account/statement?cursor=${cursor}`, headers: { authorization: `Bearer ${t.key}` } });
      assert.equal(api.statusCode, 422);
      assert.deepEqual(JSON.parse(api.body).data.errors, body.data.errors, 'the same answer as the API');
    }
    // A real cursor pages on.
    for (let i = 0; i < 101; i++) await runCommand(t.store.db, ['wallet', 'topup', '--account', t.accountId, '--amount', '1']);
    const first = JSON.parse((await as(dev, 'GET', '/console/api/statement')).body).data;
    assert.equal(first.items.length, 100);
    const next = await as(dev, 'GET', `/console/api/statement?cursor=${first.next_cursor}`);
    assert.equal(next.statusCode, 200, next.body);
    assert.equal(JSON.parse(next.body).data.items.length, 1);
  });

  it('serves the console page at /console', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/console' });
    assert.equal(r.statusCode, 200);
    assert.match(r.body, /<div id="root">/);
    const deep = await t.app.inject({ method: 'GET', url: '/console/logs' });
    assert.equal(deep.statusCode, 200);
  });
});
