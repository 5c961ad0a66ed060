// Owns the cluster primary (SANGAM_WORKERS > 1 on PostgreSQL): N worker slots on one port, each slot
// refilled when its worker dies. A slot whose workers keep dying soon after they start waits before
// its next start: nothing the first time, then SANGAM_WORKER_BACKOFF_MS doubling up to
// SANGAM_WORKER_BACKOFF_MAX_MS, with jitter so slots that died together do not start together. Its
// count resets once a worker of the slot has served for STABLE_MS. The primary never leaves while a
// worker serves: the others keep answering while a slot waits. It gives up (exit 1, for its own
// supervisor) only when no worker serves and the workers cannot even start: more than
// MAX_BOOT_FAILURES deaths before listening within BOOT_WINDOW_MS.
// Every event is one JSON line on stderr; every change of state goes to every worker (health.ts), so
// whichever worker answers GET /health reports the whole cluster.
import cluster, { type Worker } from 'node:cluster';
import type { Config } from '../config.js';
import type { SlotState, WorkersHealth, WorkersMessage } from './health.js';

const STABLE_MS = 60_000;
const MAX_BOOT_FAILURES = 10;
const BOOT_WINDOW_MS = 60_000;

export const line = (level: 'info' | 'warn' | 'error', msg: string, extra: Record<string, unknown> = {}) =>
  process.stderr.write(`${JSON.stringify({ level, time: Date.now(), pid: process.pid, msg, ...extra })}\n`);

/**
 * The wait before a slot's next start after its `deaths`-th death in a row: 0 for the first, then
 * base, 2·base, 4·base… capped at max, each drawn from its upper half ("equal jitter").
 */
export function restartDelay(deaths: number, backoff: Config['workerBackoff'], random: () => number = Math.random): number {
  if (deaths <= 1) return 0;
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(deaths - 2, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

interface Slot {
  index: number;
  worker: Worker | null;
  state: SlotState;
  deaths: number;
  backoffMs: number;
  restartAt: number | null;
  listenedAt: number | null;
  timer: NodeJS.Timeout | null;
}

export class Supervisor {
  private slots: Slot[];
  private bootFailures: number[] = [];
  private stopping = false;
  private readySaid = false;

  constructor(private config: Pick<Config, 'workers' | 'workerBackoff'>) {
    this.slots = Array.from({ length: config.workers }, (_, index) => ({
      index,
      worker: null,
      state: 'starting' as const,
      deaths: 0,
      backoffMs: 0,
      restartAt: null,
      listenedAt: null,
      timer: null,
    }));
  }

  start(): void {
    for (const slot of this.slots) this.fork(slot);
    line('info', 'sangam primary started its workers', { workers: this.config.workers });
    process.on('SIGTERM', () => this.stop('SIGTERM'));
    process.on('SIGINT', () => this.stop('SIGINT'));
  }

  health(): WorkersHealth {
    const count = (s: SlotState) => this.slots.filter((x) => x.state === s).length;
    const waiting = this.slots.filter((x) => x.state === 'restarting');
    return {
      configured: this.slots.length,
      alive: count('alive'),
      starting: count('starting'),
      restarting: waiting.length,
      backoff_ms: Math.max(0, ...waiting.map((x) => x.backoffMs)),
      slots: this.slots.map((x) => ({
        slot: x.index,
        pid: x.worker?.process.pid ?? null,
        state: x.state,
        deaths: x.deaths,
        backoff_ms: x.state === 'restarting' ? x.backoffMs : 0,
        restart_at: x.restartAt === null ? null : new Date(x.restartAt).toISOString(),
      })),
    };
  }

  private fork(slot: Slot): void {
    const worker = cluster.fork();
    Object.assign(slot, { worker, state: 'starting', backoffMs: 0, restartAt: null, listenedAt: null, timer: null });
    if (slot.deaths > 0) line('info', 'starting a worker in the slot again', { slot: slot.index, worker: worker.process.pid, deaths: slot.deaths });
    worker.on('listening', () => this.listening(slot, worker));
    worker.on('exit', (code, signal) => this.exited(slot, worker, code, signal));
    this.broadcast();
  }

  private listening(slot: Slot, worker: Worker): void {
    if (slot.worker !== worker || slot.state !== 'starting') return;
    slot.state = 'alive';
    slot.listenedAt = Date.now();
    line('info', 'a worker listens', { slot: slot.index, worker: worker.process.pid });
    this.broadcast();
    // A process manager that forked the primary (PM2's wait_ready, the bench) learns we serve once every
    // first worker listens, not when the first does: a load started earlier would measure fewer workers.
    if (!this.readySaid && this.slots.every((s) => s.state === 'alive')) {
      this.readySaid = true;
      process.send?.('ready');
    }
  }

  private exited(slot: Slot, worker: Worker, code: number | null, signal: string | null): void {
    if (this.stopping || slot.worker !== worker) return;
    const now = Date.now();
    if (slot.listenedAt === null) this.bootFailures = [...this.bootFailures.filter((t) => t > now - BOOT_WINDOW_MS), now];
    else if (now - slot.listenedAt >= STABLE_MS) slot.deaths = 0;
    slot.deaths++;
    slot.worker = null;
    const alive = this.slots.filter((s) => s.state === 'alive' && s !== slot).length;
    if (alive === 0 && this.bootFailures.length > MAX_BOOT_FAILURES) {
      line('error', 'no worker serves and none can start; the primary stops', { boot_failures: this.bootFailures.length, window_ms: BOOT_WINDOW_MS });
      process.exit(1);
    }
    const delay = restartDelay(slot.deaths, this.config.workerBackoff);
    Object.assign(slot, { state: 'restarting', backoffMs: delay, restartAt: now + delay });
    slot.timer = setTimeout(() => this.fork(slot), delay);
    line('warn', 'a worker exited; its slot starts again after a backoff', {
      slot: slot.index,
      worker: worker.process.pid,
      code,
      signal,
      deaths: slot.deaths,
      restart_in_ms: delay,
      alive,
    });
    this.broadcast();
  }

  /** Every worker hears the cluster's state; one that is going away is skipped. */
  private broadcast(): void {
    const workers = this.health();
    for (const slot of this.slots) {
      const w = slot.worker;
      if (!w || !w.isConnected()) continue;
      const message: WorkersMessage = { type: 'sangam:workers', slot: slot.index, workers };
      w.send(message, () => {});
    }
  }

  private stop(signal: string): void {
    if (this.stopping) return;
    this.stopping = true;
    line('info', 'shutting down the workers', { signal });
    for (const s of this.slots) if (s.timer) clearTimeout(s.timer);
    const alive = this.slots.map((s) => s.worker).filter((w): w is Worker => w !== null && !w.isDead());
    if (alive.length === 0) process.exit(0);
    let left = alive.length;
    for (const w of alive) {
      w.once('exit', () => --left === 0 && process.exit(0));
      w.process.kill('SIGTERM');
    }
  }
}
