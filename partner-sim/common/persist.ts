// Owns an emulator's books across a restart: a real partner does not forget a payout because a process
// died, and an emulator that did would have the reconciler fail payouts that were made. Each emulator
// started with a data dir (`sangam partner-sim --data-dir`, default ./data/partner-sim/<kind>) keeps one
// state file there, `state.json`: its partner's records (payouts, transfers, recharges, …), balances and
// idempotency books, as its own `Persisted.save` renders them. The file is written whole, durably
// (a temporary file, fsync, rename over the old one: a reader never sees half a file, a kill -9 at any
// instant leaves the old or the new one), before an answer that changed something leaves (common/server.ts:
// every non-GET request) and after every lifecycle step (every timer that fires). It is read once at start;
// a file that does not parse stops the start, naming it, rather than forgetting the books.
// Not kept: webhook deliveries still waiting to be retried, faults, counters, captured traffic.
// Cost: one whole write per change, fine for the emulator's volumes (thousands of records), not for a load test.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** The option every emulator that keeps books takes: where (null or unset: in memory only, as in tests). */
export interface PersistOptions {
  dataDir?: string | null;
}

/** What an emulator's own part gives the scaffold to keep its books. */
export interface Persisted {
  /** Its books as plain JSON. */
  save(): unknown;
  /** Its books back from what save() gave, lifecycle steps still due re-armed. */
  restore(image: unknown): void;
}

export const STATE_FILE = 'state.json';
const VERSION = 1;

export class StateFile {
  readonly path: string;

  constructor(readonly dir: string, private readonly kind: string) {
    mkdirSync(dir, { recursive: true });
    this.path = join(dir, STATE_FILE);
  }

  /** The books saved last, or undefined when none were. Throws when the file is not one of ours. */
  read(): unknown {
    if (!existsSync(this.path)) return undefined;
    let doc: { version?: number; kind?: string; books?: unknown };
    try {
      doc = JSON.parse(readFileSync(this.path, 'utf8')) as typeof doc;
    } catch (err) {
      throw new Error(`${this.path} is not a readable emulator state file (${(err as Error).message}); move it away to start with empty books`);
    }
    if (doc.version !== VERSION || doc.kind !== this.kind) throw new Error(`${this.path} holds the state of ${doc.kind ?? 'something else'} (version ${doc.version}), not of ${this.kind}; give this emulator its own --data-dir`);
    return doc.books;
  }

  write(books: unknown): void {
    const tmp = `${this.path}.${process.pid}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, JSON.stringify({ version: VERSION, kind: this.kind, saved_at: new Date().toISOString(), books }));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.path);
  }
}

/**
 * Named Maps of a kind's books, saved as JSON pairs under their names and refilled from them: the part of
 * a save/restore that is only maps (each kind's books.ts adds its scalars and what a restart resumes).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- maps of any entries: saved and refilled as they are
export function namedMaps(maps: Record<string, Map<any, any>>) {
  return {
    save: (): Record<string, unknown> => Object.fromEntries(Object.entries(maps).map(([name, m]) => [name, pairs(m)])),
    restore(image: Record<string, unknown>): void {
      for (const [name, m] of Object.entries(maps)) refill(m, image[name]);
    },
  };
}

/** A Map as JSON pairs, and back. */
export const pairs = <K, V>(m: Map<K, V>): Array<[K, V]> => [...m];
export function refill<K, V>(m: Map<K, V>, p: unknown): void {
  m.clear();
  for (const [k, v] of (p as Array<[K, V]> | undefined) ?? []) m.set(k, v);
}
