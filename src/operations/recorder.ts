// Owns recording sandbox operations with group commit: each request's transaction row, its idempotency
// key with the stored response and its extra writes (afterRecord) are queued, and concurrent requests
// are written together in one database transaction: one multi-row INSERT of keys, one of transaction
// rows. A request is answered only once its batch has committed. A request whose key is already taken
// (by a concurrent duplicate in the same batch or elsewhere) records nothing and is told so; its caller
// then replays the first answer through IdempotencyStore.claim().
import type { Transaction } from 'kysely';
import type { Db } from '../db/client.js';
import type { DB } from '../db/schema.js';
import { GroupCommit } from '../db/group-commit.js';
import { scopeId, type IdempotencyStore, type IdemScope } from '../http/idempotency.js';
import type { NewTransaction, TransactionStore, TxRow } from '../transactions/store.js';

export interface Recording {
  tx: NewTransaction;
  /** The idempotency key, and the response to store with it, made from the row as recorded. */
  key: { scope: IdemScope; hash: string; response: (row: TxRow) => string } | null;
  afterRecord: Array<(trx: Transaction<DB>) => Promise<void>>;
}

export type Recorded = { kind: 'recorded'; row: TxRow } | { kind: 'key_taken' };

export class Recorder {
  private batches: GroupCommit<Recording, Recorded>;

  constructor(
    db: Db,
    private transactions: TransactionStore,
    private idempotency: IdempotencyStore,
  ) {
    this.batches = new GroupCommit((items) => db.transaction().execute((trx) => this.writeBatch(trx, items)));
  }

  record(r: Recording): Promise<Recorded> {
    return this.batches.submit(r);
  }

  flush(): Promise<void> {
    return this.batches.flush();
  }

  private async writeBatch(trx: Transaction<DB>, items: Recording[]): Promise<Recorded[]> {
    const built = items.map((item) => ({ item, ...this.transactions.build(item.tx) }));
    // The first of several requests with one key in a batch goes ahead; the others are duplicates.
    const seen = new Set<string>();
    const keyed = built.filter(({ item }) => item.key && !seen.has(scopeId(item.key.scope)) && seen.add(scopeId(item.key.scope)));
    const inserted = await this.idempotency.insertDone(
      trx,
      keyed.map(({ item, row }) => ({ scope: item.key!.scope, hash: item.key!.hash, status: 200, body: item.key!.response(row) })),
    );
    const first = new Set(keyed);
    const recorded = built.filter((b) => !b.item.key || (first.has(b) && inserted.has(scopeId(b.item.key.scope))));
    await this.transactions.insertMany(trx, recorded.map((b) => b.values));
    for (const { item } of recorded) for (const write of item.afterRecord) await write(trx);
    const ok = new Set(recorded);
    return built.map((b) => (ok.has(b) ? { kind: 'recorded', row: b.row } : { kind: 'key_taken' }));
  }
}
