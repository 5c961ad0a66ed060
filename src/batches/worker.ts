// Owns the batch worker of one server process: on a cadence, and at once when a batch is submitted
// here, it leases running batches that are due (store.ts lease: FOR UPDATE SKIP LOCKED, with this
// worker as the holder) up to its number in flight, and runs each with the engine, detached, so that
// a long batch does not hold back the next one. A batch held by a process that died is due again when
// its lease runs out, and resumes where it stopped. Stopping lets go of the batches it holds.
import type { FastifyBaseLogger } from 'fastify';
import { newId } from '../ids.js';
import { PollingLoop, type BackgroundWorker } from '../polling-loop.js';
import { inSpan } from '../tracing/index.js';
import type { BatchEngine } from './engine.js';
import type { BatchStore } from './store.js';

export interface WorkerOptions {
  pollMs: number;
  leaseS: number;
  batchesInFlight: number;
}

export class BatchWorker implements BackgroundWorker {
  readonly name = 'batch worker';
  readonly owner = newId('bw', 12);
  private loop: PollingLoop;
  private running = new Map<string, Promise<void>>();
  private stopping = false;
  private ticking: Promise<void> | null = null;
  private again = false;

  constructor(
    private store: BatchStore,
    private engine: BatchEngine,
    private opts: WorkerOptions,
    private log: FastifyBaseLogger,
  ) {
    this.loop = new PollingLoop(opts.pollMs, () => this.wake(), (err) => log.error({ err }, 'batch worker tick failed'), () => this.name);
  }

  start(): void {
    this.stopping = false;
    this.loop.start(0);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop.stop();
    await this.ticking;
    await Promise.all(this.running.values());
  }

  /** Looks for due batches now (a submission calls it); one look at a time, and one more if asked meanwhile. */
  wake(): Promise<void> {
    if (this.stopping) return Promise.resolve();
    if (this.ticking) {
      this.again = true;
      return this.ticking;
    }
    this.ticking = (async () => {
      do {
        this.again = false;
        await this.tick();
      } while (this.again && !this.stopping);
    })().finally(() => (this.ticking = null));
    return this.ticking;
  }

  private async tick(): Promise<void> {
    const room = this.opts.batchesInFlight - this.running.size;
    if (room <= 0) return;
    for (const id of await this.store.lease(this.owner, this.opts.leaseS, room)) {
      // Each run a trace of its own (whatever started this tick): its rows' audit rows carry its id.
      const run = inSpan('batch run', { 'sangam.batch.id': id }, () => this.engine.run(id, this.owner, () => this.stopping), { root: true })
        .catch((err: unknown) => this.log.error({ err, batch: id }, 'batch run failed; it resumes after its lease'))
        .finally(() => {
          this.running.delete(id);
          if (!this.stopping) void this.wake(); // room for the next one
        });
      this.running.set(id, run);
    }
  }
}
