// Owns moving due pendings to their final state. The durable part is the store: a pending row carries
// its due time, so a restart loses nothing; this worker scans for due rows on a fixed cadence and is
// also woken at the exact due time of pendings this process created. Rows are claimed with
// FOR UPDATE SKIP LOCKED, so several server processes can run it at once.
import type { FastifyBaseLogger } from 'fastify';
import type { BackgroundWorker } from '../polling-loop.js';
import { inSpan } from '../tracing/index.js';
import type { TransactionStore } from './store.js';

const BATCH = 100;

export class Finalizer implements BackgroundWorker {
  readonly name = 'finalizer';
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  private running: Promise<void> | null = null;
  private stopped = true;

  constructor(
    private store: TransactionStore,
    private pollMs: number,
    private log: FastifyBaseLogger,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(Date.now());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Asks for a scan at `at` (epoch ms), if that is sooner than the next one planned. */
  wake(at: number): void {
    if (!this.stopped && at < this.timerAt) this.schedule(at);
  }

  /** Settles everything due now; resolves when done. */
  tick(): Promise<void> {
    this.running ??= this.run().finally(() => (this.running = null));
    return this.running;
  }

  private schedule(at: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerAt = Infinity;
      void this.tick().finally(() => {
        if (!this.stopped && !this.timer) this.schedule(Date.now() + this.pollMs);
      });
    }, Math.max(0, at - Date.now()));
    this.timer.unref();
  }

  /** One scan, the root of a trace of its own, as every background worker's tick (polling-loop.ts). */
  private async run(): Promise<void> {
    try {
      await inSpan(`worker ${this.name}`, { 'sangam.worker': this.name }, async (span) => {
        let settled = 0;
        for (let n = BATCH; n === BATCH && !this.stopped; settled += n) n = await this.store.settleDue(BATCH);
        span.setAttribute('sangam.finalizer.settled', settled);
      }, { root: true });
    } catch (err) {
      this.log.error({ err }, 'finalizer: settling due pendings failed; will retry');
    }
  }
}
