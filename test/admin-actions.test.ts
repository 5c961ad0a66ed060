// The admin actions behind both adapters: the console API (over HTTP) and the CLI's command table (the
// path the admin socket takes, in-process here; test/cli.test.ts runs the real process). Each change
// carries an ADMIN audit row naming its actor, both adapters answer a missing allow-list entry with
// 404, and a failing audit write takes the change down with it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { runCommand } from '../src/admin/run.js';
import { getWallet } from '../src/accounts/store.js';
import { verifyAudit } from '../src/audit/checkpoints.js';
import { startApp, type TestApp } from './harness.js';

describe('admin actions, from the console and the CLI', () => {
  let t: TestApp;
  let dev: { cookie: string; csrf: string };
  let ops: { cookie: string; csrf: string };

  const login = async (email: string, password: string) => {
    const r = await t.app.inject({ method: 'POST', url: '/console/api/login', payload: { email, password } });
    assert.equal(r.statusCode, 200, r.body);
    return { cookie: String(r.headers['set-cookie']).split(';')[0]!, csrf: (JSON.parse(r.body) as { data: { csrf_token: string } }).data.csrf_token };
  };
  const as = async (s: { cookie: string; csrf: string }, method: string, url: string, payload?: unknown) => {
    const r = await t.app.inject({ method: method as 'GET', url, payload: payload as object, headers: { cookie: s.cookie, 'x-csrf-token': s.csrf } });
    return { status: r.statusCode, body: JSON.parse(r.body) };
  };
  const cli = (...argv: string[]) => runCommand(t.store.db, argv);
  /** The newest ADMIN row for `action`, with its body parsed. */
  const lastAdminRow = async (action: string) => {
    const row = await t.store.db.selectFrom('audit_logs').selectAll().where('method', '=', 'ADMIN').where('path', '=', action).orderBy('id', 'desc').limit(1).executeTakeFirst();
    return row && { ...row, body: (typeof row.request_body === 'string' ? JSON.parse(row.request_body) : row.request_body) as Record<string, unknown> };
  };
  const balance = async () => (await getWallet(t.store.db, t.accountId)).balance_paise;

  before(async () => {
    t = await startApp();
    assert.equal((await cli('users', 'create', '--email', 'dev@acme.test', '--password', 'correct horse', '--account', t.accountId)).code, 0);
    assert.equal((await cli('users', 'create', '--email', 'ops@sangam.test', '--password', 'admin pass 1', '--admin')).code, 0);
    dev = await login('dev@acme.test', 'correct horse');
    ops = await login('ops@sangam.test', 'admin pass 1');
  });
  after(() => t.close());

  it('console key creation and top-up are audited as console:<email>', async () => {
    const key = await as(dev, 'POST', '/console/api/keys', { environment: 'sandbox' });
    assert.equal(key.status, 200);
    const keyRow = await lastAdminRow('keys create');
    assert.equal(keyRow?.body.actor, 'console:dev@acme.test');
    assert.equal(keyRow?.key_id, key.body.data.id);
    assert.equal(keyRow?.account_id, t.accountId);

    const top = await as(ops, 'POST', `/console/api/admin/accounts/${t.accountId}/topup`, { amount: 250.5 });
    assert.equal(top.status, 200);
    assert.equal(top.body.data.balance, 250.5);
    const topRow = await lastAdminRow('wallet topup');
    assert.equal(topRow?.body.actor, 'console:ops@sangam.test');
    assert.equal(topRow?.body.amount_paise, 25_050);
  });

  it('CLI key creation and top-up are audited as cli', async () => {
    const key = await cli('keys', 'create', '--account', t.accountId, '--env', 'live');
    assert.equal(key.code, 0);
    const keyRow = await lastAdminRow('keys create');
    assert.equal(keyRow?.body.actor, 'cli');
    assert.equal(keyRow?.key_id, key.output.id);
    assert.equal(keyRow?.environment, 'live');

    const top = await cli('wallet', 'topup', '--account', t.accountId, '--amount', '10');
    assert.equal(top.code, 0);
    const topRow = await lastAdminRow('wallet topup');
    assert.equal(topRow?.body.actor, 'cli');
    assert.equal(topRow?.body.amount_paise, 1000);
  });

  it('removing an allow-list entry that is not there is 404 from both', async () => {
    const consoleMiss = await as(dev, 'DELETE', '/console/api/allowlist', { environment: 'sandbox', entry: '203.0.113.9' });
    assert.equal(consoleMiss.status, 404);
    assert.equal(consoleMiss.body.data.Errorcode, 109);
    const cliMiss = await cli('allowlist', 'remove', '--account', t.accountId, '--env', 'sandbox', '203.0.113.9');
    assert.equal(cliMiss.code, 1);
    assert.equal(cliMiss.output.status, 404);
    assert.match(String(cliMiss.output.error), /203\.0\.113\.9 is not on the allow-list/);

    // An entry that is there goes, audited, from either side.
    assert.equal((await as(dev, 'POST', '/console/api/allowlist', { environment: 'sandbox', entry: '203.0.113.0/24' })).status, 200);
    assert.equal((await cli('allowlist', 'remove', '--account', t.accountId, '--env', 'sandbox', '203.0.113.0/24')).code, 0);
    assert.equal((await lastAdminRow('allowlist remove'))?.body.actor, 'cli');
    assert.deepEqual((await as(dev, 'GET', '/console/api/allowlist?environment=sandbox')).body.data.entries, []);
  });

  it('a bad allow-list entry is a validation error naming entry from both', async () => {
    const bad = await as(dev, 'POST', '/console/api/allowlist', { environment: 'sandbox', entry: 'not-an-ip' });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.data.errors[0].field, 'entry');
    const cliBad = await cli('allowlist', 'add', '--account', t.accountId, '--env', 'sandbox', 'not-an-ip');
    assert.equal(cliBad.code, 2);
    assert.equal(cliBad.output.status, 422);
  });

  it('when the audit row cannot be written, the change is rolled back', async () => {
    // A real failure in the store: ADMIN rows are refused while this trigger exists.
    await sql`CREATE FUNCTION refuse_admin_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.method = 'ADMIN' THEN RAISE EXCEPTION 'audit store refuses admin rows'; END IF; RETURN NEW; END $$`.execute(t.store.db);
    await sql`CREATE TRIGGER refuse_admin_audit BEFORE INSERT ON audit_logs FOR EACH ROW EXECUTE FUNCTION refuse_admin_audit()`.execute(t.store.db);
    try {
      const before = await balance();
      const entries = await t.store.db.selectFrom('ledger_entries').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const keys = await t.store.db.selectFrom('api_keys').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();

      assert.equal((await as(ops, 'POST', `/console/api/admin/accounts/${t.accountId}/topup`, { amount: 99 })).status, 500);
      assert.equal((await cli('wallet', 'topup', '--account', t.accountId, '--amount', '99')).code, 1);
      assert.equal((await as(dev, 'POST', '/console/api/keys', { environment: 'sandbox' })).status, 500);
      assert.equal((await cli('keys', 'create', '--account', t.accountId, '--env', 'sandbox')).code, 1);
      assert.equal((await as(dev, 'POST', '/console/api/allowlist', { environment: 'live', entry: '198.51.100.7' })).status, 500);

      assert.equal(await balance(), before, 'no top-up without its audit row');
      assert.deepEqual(await t.store.db.selectFrom('ledger_entries').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(), entries);
      assert.deepEqual(await t.store.db.selectFrom('api_keys').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(), keys);
      assert.deepEqual((await as(dev, 'GET', '/console/api/allowlist?environment=live')).body.data.entries, []);
    } finally {
      await sql`DROP TRIGGER refuse_admin_audit ON audit_logs`.execute(t.store.db);
      await sql`DROP FUNCTION refuse_admin_audit()`.execute(t.store.db);
    }
    // Once the store accepts them again, changes and their rows go in together and the chain holds.
    assert.equal((await cli('wallet', 'topup', '--account', t.accountId, '--amount', '1')).code, 0);
    assert.equal((await lastAdminRow('wallet topup'))?.body.amount_paise, 100);
    assert.equal((await verifyAudit(t.store.db)).ok, true);
  });
});
