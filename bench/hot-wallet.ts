// Hot-wallet benchmark: live UPI debits per second on ONE wallet through the whole service (partner
// simulator at 0 ms latency), against a naive loop that debits the same kind of wallet one database
// transaction at a time (lock row, check, update, two ledger entries, commit), measured in the same run.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { openStore, type Db } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { createAccount } from '../src/accounts/store.js';
import { topUp } from '../src/ledger/ledger.js';
import type { StoreLocation } from '../test/harness.js';
import { seedAccount, startServer, warmLoad, type Proc } from './lib.js';

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

export async function hotWallet(label: string, loc: StoreLocation, sim: Proc & { secret: string }, seconds: number): Promise<HotWalletResult> {
  const store = await openStore({ databaseUrl: loc.databaseUrl, dataDir: loc.dataDir });
  let naivePerSec: number;
  try {
    await migrate(store.db);
    const naiveAcct = (await createAccount(store.db, 'naive')).id;
    await topUp(store.db, naiveAcct, 1_000_000_000, null);
    naivePerSec = await naiveLoop(store.db, naiveAcct, seconds);
  } finally {
    await store.close();
  }
  const { key } = await seedAccount(loc, 'live');
  const server = await startServer(loc, { SANGAM_PARTNER_URL: sim.url, SANGAM_PARTNER_SECRET: sim.secret });
  try {
    const r = await warmLoad({
      name: 'hot wallet',
      url: `${server.url}/api/v1/upi-payment/upi-payment-status`,
      body: () => JSON.stringify({ reference_id: `hot-${randomUUID()}`, consent: true, vpa: 'shop@okbank', amount: 1, idempotency_key: randomUUID() }),
      headers: { authorization: `Bearer ${key}` },
      seconds,
    });
    return { store: label, naivePerSec, servicePerSec: r.rps, p50: r.p50, p99: r.p99, non2xx: r.errors };
  } finally {
    await server.stop();
  }
}
