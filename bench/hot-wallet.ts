// Hot-wallet benchmark: live UPI debits per second on ONE wallet through the whole service (partner
// simulator at 0 ms latency), against a naive loop that debits the same kind of wallet one database
// transaction at a time (lock row, check, update, two ledger entries, commit), measured in the same run.
import autocannon from 'autocannon';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { openStore, type Db } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { createAccount, createKey } from '../src/accounts/store.js';
import { addEntry } from '../src/access/allowlist.js';
import { approve } from '../src/access/approvals.js';
import { topUp } from '../src/ledger/ledger.js';
import type { StoreLocation } from '../test/harness.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.join(HERE, '../..');

export interface HotWalletResult {
  store: string;
  naivePerSec: number;
  servicePerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function naiveLoop(db: Db, accountId: string, seconds: number): Promise<number> {
  const end = Date.now() + seconds * 1000;
  let n = 0;
  while (Date.now() < end) {
    await db.transaction().execute(async (trx) => {
      const w = await trx.selectFrom('wallets').select('balance_paise').where('account_id', '=', accountId).forUpdate().executeTakeFirstOrThrow();
      if (w.balance_paise < 100) throw new Error('bench wallet ran dry');
      await trx.updateTable('wallets').set({ balance_paise: sql`balance_paise - 100` }).where('account_id', '=', accountId).execute();
      const id = `naive_${n}`;
      await trx
        .insertInto('ledger_entries')
        .values([
          { posting_id: id, ledger_account: `wallet:${accountId}`, amount_paise: -100, kind: 'debit', memo: null },
          { posting_id: id, ledger_account: 'partner:settlement', amount_paise: 100, kind: 'debit', memo: null },
        ])
        .execute();
    });
    n++;
  }
  return n / seconds;
}

async function startSim(secret: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['bin/sangam.js', 'partner-sim', '--port', '0', '--secret', secret, '--latency-ms', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
  return { child, url: (JSON.parse(line) as { url: string }).url };
}

export async function hotWallet(label: string, loc: StoreLocation, seconds: number, connections: number): Promise<HotWalletResult> {
  const store = await openStore({ databaseUrl: loc.databaseUrl, dataDir: loc.dataDir });
  await migrate(store.db);
  const naiveAcct = (await createAccount(store.db, 'naive')).id;
  await topUp(store.db, naiveAcct, 1_000_000_000, null);
  const naivePerSec = await naiveLoop(store.db, naiveAcct, seconds);
  const acct = (await createAccount(store.db, 'hot')).id;
  const { key } = await createKey(store.db, acct, 'live');
  await addEntry(store.db, acct, 'live', '127.0.0.1');
  await approve(store.db, acct, 'all');
  await topUp(store.db, acct, 1_000_000_000, null);
  await store.close();

  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const sim = await startSim(secret);
  const port = 20000 + Math.floor(Math.random() * 20000);
  const server = fork(path.join(ROOT, 'dist/src/server.js'), [], {
    execArgv: process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [],
    env: {
      ...process.env,
      DATABASE_URL: loc.databaseUrl ?? '',
      SANGAM_DATA_DIR: loc.dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SANGAM_PARTNER_URL: sim.url,
      SANGAM_PARTNER_SECRET: secret,
      SANGAM_RATE_LIMIT_PER_SEC: '1000000',
      SANGAM_RATE_LIMIT_BURST: '1000000',
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  try {
    for (let i = 0; i < 400 && !(await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false)); i++) await new Promise((r) => setTimeout(r, 50));
    const body = () => JSON.stringify({ reference_id: `hot-${randomUUID()}`, consent: true, vpa: 'shop@okbank', amount: 1, idempotency_key: randomUUID() });
    const r = await autocannon({
      url: `http://127.0.0.1:${port}/api/v1/upi-payment/upi-payment-status`,
      method: 'POST',
      connections,
      duration: seconds,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      requests: [{ setupRequest: (req) => ({ ...req, body: body() }) }],
    });
    return { store: label, naivePerSec, servicePerSec: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx + r.errors };
  } finally {
    server.kill('SIGTERM');
    sim.child.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
}
