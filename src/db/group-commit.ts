// Owns group commit: callers submit items one at a time; while one batch is being written, the items
// that arrive queue up and are written together in the next batch, in one database transaction. Each
// caller's promise settles when its own batch has committed, so nothing is acknowledged before it is
// durable, yet a burst of N concurrent requests costs one transaction instead of N. A batch that fails
// is retried one item at a time, so one bad item fails only its own caller.
//
// Two lanes: interactive items (a client waiting on an HTTP answer) and background ones (a batch's
// rows, batches/engine.ts). A batch is filled with every interactive item queued first, background
// ones after, so an interactive call waits behind the batch being written, never behind a batch's
// queue of rows.
//
// A background item may come behind a gate: it queues but is not written until its gate opens. A batch
// starts a chunk's rows a few at a time, letting the store's replies in between (on the embedded store
// they come back to this thread), and opens the chunk's gate once every row has been started, so the
// chunk still goes in one write rather than trickling out in small ones that each pay a commit.
//
// Traced, each batch is a span `group commit` (its item count), child of the first item's request and
// linked to the others', so each request's trace shows the write it waited on.
import { activeContext, inSpan, linkTo, type Context } from '../tracing/index.js';

/**
 * Holds back the background items submitted behind it until open() (once; it never closes again).
 * Whoever makes a gate must open it, or its items are never written.
 */
export class Gate {
  private opened = false;
  private listeners = new Set<() => void>();

  get isOpen(): boolean {
    return this.opened;
  }

  open(): void {
    if (this.opened) return;
    this.opened = true;
    for (const l of this.listeners) l();
    this.listeners.clear();
  }

  /** Calls `l` when the gate opens (at once if it is open). */
  onOpen(l: () => void): void {
    if (this.opened) l();
    else this.listeners.add(l);
  }
}

/** Interactive: a client waits on the answer. Background: a batch's row, possibly behind a gate. */
export type Lane = 'interactive' | 'background' | Gate;

/** `ctx`: the trace context of the submitter, whose span the batch's span is a child of or linked to. */
type Waiting<T, R> = { item: T; resolve: (r: R) => void; reject: (err: unknown) => void; ctx: Context };

export class GroupCommit<T, R> {
  private lanes: Record<'interactive' | 'background', Array<Waiting<T, R>>> = { interactive: [], background: [] };
  /** Items behind a gate still closed: they join the background lane, in order, when it opens. */
  private held = new Map<Gate, Array<Waiting<T, R>>>();
  private running = new Set<Promise<void>>();
  private starting = false;

  /**
   * `write` stores a batch and answers one result per item, in order. Up to `inFlight` batches are
   * written at once (on separate connections); 1 keeps batches strictly one after another.
   */
  constructor(
    private write: (items: T[]) => Promise<R[]>,
    private inFlight = 1,
    private maxBatch = 500,
  ) {}

  submit(item: T, lane: Lane = 'interactive'): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const waiting = { item, resolve, reject, ctx: activeContext() };
      if (lane instanceof Gate && !lane.isOpen) this.hold(lane, waiting);
      else this.lanes[lane instanceof Gate ? 'background' : lane].push(waiting);
      this.kick();
    });
  }

  private hold(gate: Gate, waiting: Waiting<T, R>): void {
    let items = this.held.get(gate);
    if (!items) {
      this.held.set(gate, (items = []));
      gate.onOpen(() => {
        this.held.delete(gate);
        this.lanes.background.push(...items!);
        this.kick();
      });
    }
    items.push(waiting);
  }

  private get queued(): number {
    return this.lanes.interactive.length + this.lanes.background.length;
  }

  /**
   * Starts a drain if there is room, on the next turn of the event loop: the items submitted in this
   * turn (a batch's rows, requests read from one socket poll) then go in one batch, where starting at
   * once would write the first of them alone. A finished drain kicks again: an item submitted by a
   * caller whose own item was just resolved arrives after the drain saw an empty queue but before it
   * left `running`, and would otherwise wait forever.
   */
  private kick(): void {
    if (this.starting || this.queued === 0 || this.running.size >= this.inFlight) return;
    this.starting = true;
    setImmediate(() => {
      this.starting = false;
      if (this.queued === 0 || this.running.size >= this.inFlight) return;
      const run: Promise<void> = this.drain().finally(() => {
        this.running.delete(run);
        this.kick();
      });
      this.running.add(run);
      this.kick(); // room for another drain, should more arrive
    });
  }

  /** Resolves when everything submitted so far is written (used at shutdown). */
  async flush(): Promise<void> {
    while (this.running.size > 0 || this.starting) {
      if (this.running.size === 0) await new Promise((r) => setImmediate(r));
      else await Promise.all(this.running);
    }
  }

  /** The next batch: interactive items first, then background ones, `maxBatch` in all. */
  private take(): Array<Waiting<T, R>> {
    const batch = this.lanes.interactive.splice(0, this.maxBatch);
    return batch.concat(this.lanes.background.splice(0, this.maxBatch - batch.length));
  }

  private async drain(): Promise<void> {
    while (this.queued > 0) {
      const batch = this.take();
      const links = batch.slice(1).flatMap((b) => linkTo(b.ctx));
      await inSpan('group commit', { 'sangam.group_commit.items': batch.length }, () => this.commit(batch), { parent: batch[0]!.ctx, links });
    }
  }

  /** Writes one batch; a batch that fails is written again one item at a time. Never throws. */
  private async commit(batch: Array<Waiting<T, R>>): Promise<void> {
    try {
      const results = await this.write(batch.map((b) => b.item));
      batch.forEach((b, i) => b.resolve(results[i]!));
    } catch (err) {
      if (batch.length === 1) {
        batch[0]!.reject(err);
        return;
      }
      for (const b of batch) {
        await this.write([b.item]).then(([r]) => b.resolve(r!), b.reject);
      }
    }
  }
}
