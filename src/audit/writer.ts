// Owns writing audit rows. Rows are group-committed (db/group-commit.ts) at the end of the hash chain
// (chain.ts): every caller's promise resolves only once its row is durable, so a response is never
// sent before its audit row is stored, yet a burst of requests costs one statement per batch.
import type { Db } from '../db/client.js';
import { GroupCommit } from '../db/group-commit.js';
import { appendAlone, prepareChained, type AuditRow } from './chain.js';

export type { AuditRow };

export class AuditWriter {
  private batches: GroupCommit<AuditRow, undefined>;

  constructor(db: Db) {
    this.batches = new GroupCommit(async (rows) => {
      await appendAlone(db, prepareChained(rows));
      return rows.map(() => undefined);
    });
  }

  write(row: AuditRow): Promise<undefined> {
    return this.batches.submit(row);
  }

  /** Resolves when everything queued so far is written (used at shutdown). */
  flush(): Promise<void> {
    return this.batches.flush();
  }
}
