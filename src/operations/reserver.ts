// Owns the recovery point of live operations (phase 1 of live.ts), group-committed: the pending
// transaction rows, their idempotency keys bound to them and the holds on the wallets of concurrent
// requests are written in one database transaction, with one conditional UPDATE per wallet for the
// sum of its holds, last. On a hot wallet this turns one row-lock hold per debit into one per batch.
// A batch the wallet cannot cover as a whole fails, and GroupCommit then reserves each request alone,
// in order: the ones that fit go through, the rest get 402.
import type { Db } from '../db/client.js';
import { GroupCommit } from '../db/group-commit.js';
import type { IdempotencyStore, IdemScope } from '../http/idempotency.js';
import { holdMany, type HoldSpec } from '../ledger/ledger.js';
import type { NewTransaction, TransactionStore } from '../transactions/store.js';

export interface Reservation {
  tx: NewTransaction;
  hold: HoldSpec;
  scope: IdemScope | null;
}

export class Reserver {
  private batches: GroupCommit<Reservation, undefined>;

  constructor(db: Db, transactions: TransactionStore, idempotency: IdempotencyStore) {
    this.batches = new GroupCommit((items) =>
      db.transaction().execute(async (trx) => {
        await transactions.insertMany(trx, items.map((r) => transactions.build(r.tx).values));
        await idempotency.bind(trx, items.flatMap((r) => (r.scope ? [{ scope: r.scope, txnId: r.tx.id }] : [])));
        await holdMany(trx, items.map((r) => r.hold)); // last: it locks the wallet rows until the commit
        return items.map(() => undefined);
      }),
    );
  }

  /** Resolves once the request's recovery point is durable; 402 (ApiError) when its wallet is short. */
  reserve(r: Reservation): Promise<undefined> {
    return this.batches.submit(r);
  }

  flush(): Promise<void> {
    return this.batches.flush();
  }
}
