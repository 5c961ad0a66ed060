// The `sangam` command line as a user runs it: separate processes, one JSON object on stdout, on the
// same store as a running server (through the admin socket when the store is embedded).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freshStoreLocation, PATHS, sleep, VALID, type StoreLocation } from './harness.js';
import { openStore } from '../src/db/client.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function cli(loc: StoreLocation, args: string[]): Promise<{ code: number; out: any; err: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/sangam.js', ...args],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: loc.databaseUrl ?? '', SANGAM_DATA_DIR: loc.dataDir, LOG_LEVEL: 'silent' } },
      (error, stdout, stderr) => {
        let out: unknown;
        try {
          out = JSON.parse(stdout);
        } catch {
          out = stdout;
        }
        resolve({ code: error ? Number(error.code ?? 1) : 0, out, err: stderr });
      },
    );
  });
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describe('sangam CLI', () => {
  let loc: StoreLocation;
  before(async () => (loc = await freshStoreLocation()));
  after(() => loc.drop());

  it('creates an account, a key and tops up the wallet, printing JSON', async () => {
    const acct = await cli(loc, ['accounts', 'create', '--name', 'Acme Pay']);
    assert.equal(acct.code, 0, acct.err);
    assert.match(acct.out.id, /^acct_/);
    const key = await cli(loc, ['keys', 'create', '--account', acct.out.id, '--env', 'sandbox']);
    assert.equal(key.code, 0, key.err);
    assert.match(key.out.key, /^sk_test_[0-9A-Za-z]{32,}$/);
    assert.match(key.out.id, /^key_/);
    const live = await cli(loc, ['keys', 'create', '--account', acct.out.id, '--env', 'live']);
    assert.match(live.out.key, /^sk_live_[0-9A-Za-z]{32,}$/);
    const top = await cli(loc, ['wallet', 'topup', '--account', acct.out.id, '--amount', '1500.25']);
    assert.equal(top.code, 0, top.err);
    assert.equal(top.out.balance, 1500.25);
  });

  it('refuses bad usage with a non-zero exit and a JSON error', async () => {
    const r = await cli(loc, ['keys', 'create', '--account', 'acct_x', '--env', 'prod']);
    assert.equal(r.code, 2);
    assert.match(JSON.parse(r.err).error, /--env/);
    const missing = await cli(loc, ['keys', 'create', '--account', 'acct_nope', '--env', 'sandbox']);
    assert.equal(missing.code, 1);
    assert.match(JSON.parse(missing.err).error, /does not exist/);
    const amount = await cli(loc, ['wallet', 'topup', '--account', 'acct_x', '--amount', '1.005']);
    assert.equal(amount.code, 2);
    assert.equal((await cli(loc, ['frobnicate'])).code, 2);
  });

  it('audits key creation and top-ups as cli; removing a missing allow-list entry is a 404', async () => {
    const acct = await cli(loc, ['accounts', 'create', '--name', 'Audited']);
    const key = await cli(loc, ['keys', 'create', '--account', acct.out.id, '--env', 'sandbox']);
    assert.equal(key.code, 0, key.err);
    assert.equal((await cli(loc, ['wallet', 'topup', '--account', acct.out.id, '--amount', '12.34'])).code, 0);
    const miss = await cli(loc, ['allowlist', 'remove', '--account', acct.out.id, '--env', 'live', '192.0.2.1']);
    assert.equal(miss.code, 1);
    assert.equal(JSON.parse(miss.err).status, 404);

    const store = await openStore({ databaseUrl: loc.databaseUrl, dataDir: loc.dataDir, poolMax: 1 });
    try {
      const rows = await store.db.selectFrom('audit_logs').select(['path', 'key_id', 'request_body']).where('method', '=', 'ADMIN').where('account_id', '=', acct.out.id).orderBy('id').execute();
      const body = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, unknown>;
      assert.deepEqual(rows.map((r) => [r.path, body(r.request_body).actor]), [['accounts create', 'cli'], ['keys create', 'cli'], ['wallet topup', 'cli']]);
      assert.equal(rows[1]!.key_id, key.out.id);
      assert.equal(body(rows[2]!.request_body).amount_paise, 1234);
    } finally {
      await store.close();
    }
  });

  it('outside the server\'s folder, with no store there and no DATABASE_URL, refuses and creates nothing; `migrate` creates one on purpose', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'sangam-elsewhere-'));
    const run = (args: string[]) =>
      new Promise<{ code: number; out: string; err: string }>((resolve) => {
        const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'silent' };
        delete env.SANGAM_DATA_DIR; // the default, ./data of the folder it runs in
        execFile(process.execPath, [path.join(ROOT, 'bin/sangam.js'), ...args], { cwd: folder, env }, (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, out: stdout, err: stderr }),
        );
      });
    try {
      const refused = await run(['accounts', 'create', '--name', 'Lost']);
      assert.equal(refused.code, 1, refused.out);
      assert.equal(refused.out, '', 'no key or id on stdout');
      const why = JSON.parse(refused.err);
      assert.equal(why.looked_in, path.join(folder, 'data'));
      assert.match(why.error, new RegExp(`no Sangam store in ${path.join(folder, 'data').replace(/[.\\/]/g, '\\$&')}.*no DATABASE_URL`));
      assert.match(why.fix, /SANGAM_DATA_DIR=/);
      assert.match(why.fix, /DATABASE_URL=/);
      assert.match(why.fix, /sangam migrate/);
      assert.deepEqual(readdirSync(folder), [], 'nothing was created');
      assert.equal((await run(['keys', 'list', '--account', 'acct_x'])).code, 1);
      assert.equal(existsSync(path.join(folder, 'data')), false);

      const migrated = await run(['migrate']);
      assert.equal(migrated.code, 0, migrated.err);
      assert.ok(Array.isArray(JSON.parse(migrated.out).applied));
      assert.ok(existsSync(path.join(folder, 'data', 'pgdata', 'PG_VERSION')), 'migrate made the store where it ran');
      const made = await run(['accounts', 'create', '--name', 'Found']);
      assert.equal(made.code, 0, made.err);
      assert.match(JSON.parse(made.out).id, /^acct_/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  describe('with the server running on the same store', () => {
    let server: ChildProcess;
    let base: string;
    before(async () => {
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      server = spawn(process.execPath, ['dist/src/server.js'], {
        cwd: ROOT,
        // Limits raised (not switched off): the vacuum test calls back to back for as long as the command
        // runs, and on a fast store that passed the default per-key limit (429).
        env: {
          ...process.env,
          DATABASE_URL: loc.databaseUrl ?? '',
          SANGAM_DATA_DIR: loc.dataDir,
          PORT: String(port),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          SANGAM_RATE_LIMIT_PER_SEC: '100000',
          SANGAM_RATE_LIMIT_BURST: '100000',
        },
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'], // never inherited: an orphan must not hold the runner's pipe
      });
      server.stderr!.on('data', (d: Buffer) => process.stderr.write(d));
      // Wait on the event, not on a clock: the server says 'ready' once it listens (a busy machine took
      // 17–43 s to boot an existing store), or exits.
      await new Promise<void>((resolve, reject) => {
        server.once('message', (m) => (m === 'ready' ? resolve() : reject(new Error(`unexpected message ${String(m)}`))));
        server.once('exit', (code) => reject(new Error(`server exited (${code}) before it listened`)));
      });
      assert.ok((await fetch(`${base}/health`)).ok);
    });
    after(async () => {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    });

    /** A sandbox key made by the CLI for a new account, and a signature-match call with it. */
    async function keyAndCall(name: string) {
      const acct = await cli(loc, ['accounts', 'create', '--name', name]);
      assert.equal(acct.code, 0, acct.err);
      const key = await cli(loc, ['keys', 'create', '--account', acct.out.id, '--env', 'sandbox']);
      const call = () =>
        fetch(`${base}${PATHS.signature}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key.out.key}`, 'content-type': 'application/json' },
          body: JSON.stringify(VALID.signature()),
        });
      return { key, call };
    }

    it('what the CLI creates works at once, and a revoked key is refused within 1 s', async () => {
      const { key, call } = await keyAndCall('Live Together');
      assert.equal((await call()).status, 200);
      const revoked = await cli(loc, ['keys', 'revoke', key.out.id]);
      assert.equal(revoked.code, 0, revoked.err);
      await sleep(1000);
      const r = await call();
      assert.equal(r.status, 401);
      assert.match(((await r.json()) as { message: string }).message, /revoked/);
    });

    it('store vacuum analyses every table while the server runs (the embedded store has no autovacuum), and the server keeps answering', async () => {
      const { call } = await keyAndCall('Upkeep');
      assert.equal((await call()).status, 200);
      // Calls one after another for as long as the command runs: each is answered (the vacuum holds the
      // embedded store's one connection a table at a time, and calls go in between).
      let running = true;
      const vacuumed = cli(loc, ['store', 'vacuum']).finally(() => (running = false));
      const statuses: number[] = [];
      while (running) statuses.push((await call()).status);
      const vacuum = await vacuumed;
      assert.equal(vacuum.code, 0, vacuum.err);
      assert.ok(statuses.length > 0);
      assert.deepEqual([...new Set(statuses)], [200], 'every call made while the command ran was answered');
      const tables = (vacuum.out.tables as Array<{ table: string; ms: number }>).map((t) => t.table);
      for (const t of ['transactions', 'audit_logs', 'idempotency_keys', 'batch_items', 'pg_catalog.pg_class']) assert.ok(tables.includes(t), `${t} vacuumed`);
      // Every application table has planner statistics afterwards (never the case on the embedded store before).
      assert.equal(vacuum.out.analysed, tables.filter((t) => !t.includes('.')).length);
      assert.ok(Number.isInteger(vacuum.out.xid_age_before) && Number.isInteger(vacuum.out.xid_age_after));
      assert.equal((await call()).status, 200);
      assert.equal((await cli(loc, ['store', 'vacuum', '--full'])).code, 2, 'an unknown option is a usage error');
    });
  });
});
