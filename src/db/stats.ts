// Owns the process's store counters: statements sent to the store, and the CPU the embedded engine's
// thread has used. /metrics exposes them (metrics.ts), and bench/ reads them to count statements per
// request and to tell Sangam's own CPU from the store's.
import { readFileSync } from 'node:fs';

export const storeStats = {
  /** Statements sent to the store, BEGIN and COMMIT included. */
  statements: 0,
  /** Kernel thread ids of the open embedded engines (pglite-thread.ts). */
  engineThreads: new Set<number>(),
};

const TICK_S = 0.01; // USER_HZ: Linux reports thread CPU in hundredths of a second

/** CPU seconds (user + system) one thread of a process has used, from /proc; throws where there is none. */
export function threadCpuSeconds(pid: number | 'self', tid: number | string): number {
  const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_S; // utime, stime
}

/** CPU seconds the open embedded engines' threads have used (0 where /proc cannot tell). */
export function engineCpuSeconds(): number {
  let total = 0;
  for (const tid of storeStats.engineThreads) {
    try {
      total += threadCpuSeconds('self', tid);
    } catch {
      // the thread has ended
    }
  }
  return total;
}
