// The store's one guarantee that pipelining must keep (db/pglite-pool.ts): a statement outside a
// transaction never runs inside another caller's open transaction. On the embedded store every
// statement shares one connection and is sent without waiting for the answers before it; were one
// interleaved into an open transaction, it would see that transaction's uncommitted rows and be rolled
// back with it. On PostgreSQL (separate connections) the same assertions hold by construction.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openStore, type Store } from '../src/db/client.js';
import { freshStoreLocation, type StoreLocation } from './harness.js';

describe('statements outside a transaction, beside open ones', () => {
  let loc: StoreLocation;
  let store: Store;
  before(async () => {
    loc = await freshStoreLocation();
    store = await openStore({ databaseUrl: loc.databaseUrl, dataDir: loc.dataDir });
    await sql`CREATE TABLE pipeline_probe (tag text NOT NULL, n integer NOT NULL)`.execute(store.db);
  });
  after(async () => {
    await store.close();
    await loc.drop();
  });

  const count = async (tag?: string) =>
    Number((await sql<{ c: string }>`SELECT count(*) AS c FROM pipeline_probe WHERE ${tag === undefined ? sql`true` : sql`tag = ${tag}`}`.execute(store.db)).rows[0]!.c);

  it('waits for an open transaction to end: never sees its rows, never rolls back with it', async () => {
    let inside!: () => void;
    const opened = new Promise<void>((r) => (inside = r));
    let finish!: () => void;
    const hold = new Promise<void>((r) => (finish = r));
    const trx = store.db
      .transaction()
      .execute(async (t) => {
        await sql`INSERT INTO pipeline_probe VALUES ('rolled-back', 1)`.execute(t);
        inside();
        await hold;
        throw new Error('roll back');
      })
      .catch((err: Error) => err.message);
    await opened;
    // Sent while the transaction holds uncommitted rows, before it ends.
    const seen = count('rolled-back');
    const written = sql`INSERT INTO pipeline_probe VALUES ('outside', 2)`.execute(store.db);
    // A few turns of the event loop: both are on their way to the store before the transaction ends.
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    finish();
    assert.equal(await trx, 'roll back');
    await written;
    assert.equal(await seen, 0, 'a statement outside the transaction saw its uncommitted row');
    assert.equal(await count('outside'), 1, "the outside write was undone with the transaction's rollback");
    assert.equal(await count('rolled-back'), 0);
  });

  it('many transactions, committing and rolling back, among statements outside them: each sees only its own and the committed', async () => {
    await sql`DELETE FROM pipeline_probe`.execute(store.db);
    const transactions = Array.from({ length: 24 }, (_, i) =>
      store.db
        .transaction()
        .execute(async (t) => {
          for (let k = 0; k < 3; k++) await sql`INSERT INTO pipeline_probe VALUES (${`t${i}`}, ${k})`.execute(t);
          const own = Number((await sql<{ c: string }>`SELECT count(*) AS c FROM pipeline_probe WHERE tag = ${`t${i}`}`.execute(t)).rows[0]!.c);
          assert.equal(own, 3, `transaction ${i} saw ${own} of its own rows`);
          if (i % 3 === 0) throw new Error('roll back');
          return 'committed';
        })
        .catch((err: Error) => err.message),
    );
    const outside = Array.from({ length: 60 }, (_, i) => sql`INSERT INTO pipeline_probe VALUES ('outside', ${i})`.execute(store.db));
    const outcomes = await Promise.all(transactions);
    await Promise.all(outside);
    const committed = outcomes.filter((o) => o === 'committed').length;
    assert.equal(committed, 16);
    assert.equal(await count('outside'), 60);
    assert.equal(await count(), 60 + committed * 3);
    for (let i = 0; i < 24; i += 3) assert.equal(await count(`t${i}`), 0, `rolled-back transaction ${i} left rows`);
  });

  it('a failed statement outside a transaction fails alone; the next ones run', async () => {
    const results = await Promise.allSettled([
      sql`INSERT INTO pipeline_probe VALUES ('after-failure', 1)`.execute(store.db),
      sql`INSERT INTO pipeline_probe VALUES (NULL, 2)`.execute(store.db),
      sql`INSERT INTO pipeline_probe VALUES ('after-failure', 3)`.execute(store.db),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.match(String((results[1] as PromiseRejectedResult).reason.message), /null value/);
    assert.equal(await count('after-failure'), 2);
  });
});
