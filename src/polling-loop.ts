// Owns the loop the background workers share: run a tick, wait pollMs, run again; one tick at a time;
// errors are logged and the loop goes on; timers do not keep the process alive; stop() waits for the
// tick under way.
export class PollingLoop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;

  constructor(
    private pollMs: number,
    private tick: () => Promise<unknown>,
    private onError: (err: unknown) => void,
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
      this.running = this.tick()
        .then(() => undefined, this.onError)
        .finally(() => {
          this.running = null;
          if (!this.stopped) this.schedule(this.pollMs);
        });
    }, ms);
    this.timer.unref();
  }
}
