// Owns small process helpers shared by the Setu emulators: the timer set that close() cancels, and
// option merging that ignores undefined values (so CLI flags left out keep the defaults).

/** Timers the emulator owns, so close() can cancel lifecycle steps and webhook retries still waiting. */
export function timerSet(): { later: (ms: number, fn: () => void) => void; clearAll: () => void } {
  const timers = new Set<NodeJS.Timeout>();
  return {
    later(ms, fn) {
      const t = setTimeout(() => {
        timers.delete(t);
        fn();
      }, ms);
      timers.add(t);
    },
    clearAll() {
      for (const t of timers) clearTimeout(t);
    },
  };
}

export function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
