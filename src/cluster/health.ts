// Owns what GET /health says about the server processes. Health is answered by whichever worker the
// primary handed the connection to, so the cluster's state lives in the primary (supervisor.ts) and
// reaches every worker as an IPC message on each change; a worker keeps the latest one. A process that
// is not a cluster worker (one process serving alone, an app under test) describes itself as a
// cluster of one.

export type SlotState = 'starting' | 'alive' | 'restarting';

export interface SlotHealth {
  slot: number;
  /** The worker in the slot now (null while the slot waits to restart). */
  pid: number | null;
  state: SlotState;
  /** Its workers' deaths in a row, each soon after it started; reset once one stays up. */
  deaths: number;
  /** The wait before this slot's next start (0 when it is not waiting). */
  backoff_ms: number;
  /** When it starts again, while it waits. */
  restart_at: string | null;
}

export interface WorkersHealth {
  configured: number;
  /** Workers listening for requests. */
  alive: number;
  /** Started, not yet listening. */
  starting: number;
  /** Slots waiting out a backoff before their next start. */
  restarting: number;
  /** The longest backoff among the waiting slots (0: none waits). */
  backoff_ms: number;
  slots: SlotHealth[];
}

/** What the primary sends each worker: the cluster, and which slot the receiver fills. */
export interface WorkersMessage {
  type: 'sangam:workers';
  slot: number;
  workers: WorkersHealth;
}

export const isWorkersMessage = (m: unknown): m is WorkersMessage =>
  typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'sangam:workers';

/** The cluster of one: this process, serving alone. */
const alone = (): WorkersMessage => ({
  type: 'sangam:workers',
  slot: 0,
  workers: {
    configured: 1,
    alive: 1,
    starting: 0,
    restarting: 0,
    backoff_ms: 0,
    slots: [{ slot: 0, pid: process.pid, state: 'alive', deaths: 0, backoff_ms: 0, restart_at: null }],
  },
});

let latest: WorkersMessage | undefined;

/** In a cluster worker: keep the primary's latest word on the cluster. Call once, before listening. */
export function followPrimary(): void {
  process.on('message', (m: unknown) => {
    if (isWorkersMessage(m)) latest = m;
  });
}

/** `workers` of GET /health: the cluster as this worker last heard it, and which worker answered. */
export function workersHealth(): WorkersHealth & { self: { slot: number; pid: number } } {
  const m = latest ?? alone();
  return { ...m.workers, self: { slot: m.slot, pid: process.pid } };
}
