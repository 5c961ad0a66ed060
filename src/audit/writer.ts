// Owns writing audit rows. Rows are group-committed: while one INSERT is in flight, the rows that
// arrive queue up and go in the next multi-row INSERT, at the end of the hash chain (chain.ts). Every caller's promise resolves only once its
// row is durable, so a response is never sent before its audit row is stored, yet a burst of requests
// costs one round trip per batch instead of one per request.
import type { Db } from '../db/client.js';
import { insertChained, type AuditRow } from './chain.js';

export type { AuditRow };
const MAX_BATCH = 500;

export class AuditWriter {
  private queue: Array<{ row: AuditRow; done: (err?: unknown) => void }> = [];
  private running: Promise<void> | null = null;

  constructor(private db: Db) {}

  write(row: AuditRow): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ row, done: (err) => (err ? reject(err) : resolve()) });
      this.running ??= this.drain().finally(() => (this.running = null));
    });
  }

  /** Resolves when everything queued so far is written (used at shutdown). */
  async flush(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        await this.db.transaction().execute((trx) => insertChained(trx, batch.map((b) => b.row)));
        for (const b of batch) b.done();
      } catch (err) {
        for (const b of batch) b.done(err);
      }
    }
  }
}
