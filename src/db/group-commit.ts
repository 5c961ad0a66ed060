// Owns group commit: callers submit items one at a time; while one batch is being written, the items
// that arrive queue up and are written together in the next batch, in one database transaction. Each
// caller's promise settles when its own batch has committed, so nothing is acknowledged before it is
// durable, yet a burst of N concurrent requests costs one transaction instead of N. A batch that fails
// is retried one item at a time, so one bad item fails only its own caller.
export class GroupCommit<T, R> {
  private queue: Array<{ item: T; resolve: (r: R) => void; reject: (err: unknown) => void }> = [];
  private running = new Set<Promise<void>>();

  /**
   * `write` stores a batch and answers one result per item, in order. Up to `inFlight` batches are
   * written at once (on separate connections); 1 keeps batches strictly one after another.
   */
  constructor(
    private write: (items: T[]) => Promise<R[]>,
    private inFlight = 1,
    private maxBatch = 500,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.kick();
    });
  }

  /**
   * Starts a drain if there is room. A finished drain kicks again: an item submitted by a caller whose
   * own item was just resolved arrives after the drain saw an empty queue but before it left `running`,
   * and would otherwise wait forever.
   */
  private kick(): void {
    if (this.queue.length === 0 || this.running.size >= this.inFlight) return;
    const run: Promise<void> = this.drain().finally(() => {
      this.running.delete(run);
      this.kick();
    });
    this.running.add(run);
  }

  /** Resolves when everything submitted so far is written (used at shutdown). */
  async flush(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        const results = await this.write(batch.map((b) => b.item));
        batch.forEach((b, i) => b.resolve(results[i]!));
      } catch (err) {
        if (batch.length === 1) {
          batch[0]!.reject(err);
          continue;
        }
        for (const b of batch) {
          await this.write([b.item]).then(([r]) => b.resolve(r!), b.reject);
        }
      }
    }
  }
}
