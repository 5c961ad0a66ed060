// Owns what a background worker is to the app that runs it (BackgroundWorker: a name, start() once
// the app is ready, stop() as soon as shutdown begins, resolving once the work under way has finished;
// app.ts keeps one list of them and starts and stops them in order) and the loop most of them share
// (PollingLoop: run a tick, wait pollMs, run again; one tick at a time; errors are logged and the loop
// goes on; timers do not keep the process alive; stop() waits for the tick under way). Each tick is
// the root span of a trace of its own, `worker <name>` (tracing/).
import type { FastifyBaseLogger } from 'fastify';
import { inSpan } from './tracing/index.js';

export class PollingLoop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;

  constructor(
    private pollMs: number,
    private tick: () => Promise<unknown>,
    private onError: (err: unknown) => void,
    /** The worker's name, for its ticks' spans (read at each tick: a subclass sets it after this is made). */
    private name: () => string,
  ) {}

  start(firstDelayMs = this.pollMs): void {
    this.stopped = false;
    this.schedule(firstDelayMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.running = inSpan(`worker ${this.name()}`, { 'sangam.worker': this.name() }, () => this.tick(), { root: true })
        .then(() => undefined, this.onError)
        .finally(() => {
          this.running = null;
          if (!this.stopped) this.schedule(this.pollMs);
        });
    }, ms);
    this.timer.unref();
  }
}

export interface BackgroundWorker {
  /** For the logs: which worker failed to stop. */
  readonly name: string;
  start(): void;
  stop(): Promise<void>;
}

/**
 * A worker that runs tick() every `pollMs` on a PollingLoop (one tick at a time; a failure is logged
 * and the loop goes on; stop() waits for the tick under way).
 */
export abstract class PollingWorker implements BackgroundWorker {
  abstract readonly name: string;
  protected readonly loop: PollingLoop;

  constructor(pollMs: number, log: FastifyBaseLogger) {
    this.loop = new PollingLoop(pollMs, () => this.tick(), (err) => log.error({ err, worker: this.name }, `${this.name} failed`), () => this.name);
  }

  /** One round of the worker's work. */
  abstract tick(): Promise<unknown>;

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}

class PeriodicTask extends PollingWorker {
  constructor(
    readonly name: string,
    everyMs: number,
    private task: () => Promise<unknown>,
    log: FastifyBaseLogger,
  ) {
    super(everyMs, log);
  }

  tick(): Promise<unknown> {
    return this.task();
  }
}

/** A worker that runs `task` every `everyMs` (first after `everyMs`), one run at a time; a failure is logged. */
export function periodic(name: string, everyMs: number, task: () => Promise<unknown>, log: FastifyBaseLogger): BackgroundWorker {
  return new PeriodicTask(name, everyMs, task, log);
}

export function startAll(workers: readonly BackgroundWorker[]): void {
  for (const w of workers) w.start();
}

/** Stops each in list order, waiting for each; one that fails to stop is logged and the rest still stop. */
export async function stopAll(workers: readonly BackgroundWorker[], log: FastifyBaseLogger): Promise<void> {
  for (const w of workers) {
    await w.stop().catch((err: unknown) => log.error({ err, worker: w.name }, 'background worker did not stop cleanly'));
  }
}
