// Owns what a request costs outside the Sangam process on a shared machine: the PostgreSQL server's
// CPU (its postmaster and every backend, read from /proc where the server runs on this machine) and
// the load generator's own (this process). With the server's CPU, they give a request's whole cost to
// the machine, and so the rate its cores could carry at best: the ceiling a ratio target is judged by.
import { availableParallelism } from 'node:os';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

const TICK_S = 0.01; // USER_HZ

/** A /proc stat line's fields after the command name: [state, ppid, ...]; utime is 11, stime 12, cutime 13, cstime 14. */
function statFields(pid: number | string): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * The PostgreSQL server's postmaster for `databaseUrl`, where /proc on this machine shows it (the
 * parent of the backend serving a fresh connection); null for a server elsewhere.
 */
export async function postmasterOf(databaseUrl: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const ppid = Number(statFields(rows[0]!.pid)?.[1]);
    if (!Number.isInteger(ppid) || ppid <= 1) return null;
    const comm = readFileSync(`/proc/${ppid}/comm`, 'utf8').trim();
    return /postgres|postmaster/.test(comm) ? ppid : null;
  } catch {
    return null;
  } finally {
    await client.end();
  }
}

/**
 * CPU seconds the server has used: the postmaster's own and its ended children's (cutime, cstime),
 * and every live child's (the backends, the WAL writer, the checkpointer). NaN without a postmaster.
 */
function storeServerCpuSeconds(postmaster: number | null): number {
  if (postmaster === null) return NaN;
  const own = statFields(postmaster);
  if (!own) return NaN;
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(entry);
    if (f && Number(f[1]) === postmaster) ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks * TICK_S;
}

/** CPU seconds this process (the load generator) has used. */
function clientCpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** The CPU outside the server process so far: the PostgreSQL server's (NaN without one here) and this process's. */
export interface Outside {
  storeServer: number;
  client: number;
}
export const outsideNow = (postmaster: number | null): Outside => ({ storeServer: storeServerCpuSeconds(postmaster), client: clientCpuSeconds() });

/**
 * Per-unit µs between two samples: the PostgreSQL server's (NaN without one), the load generator's, and
 * the machine's in all (`processUs`, the server process's, added; the PostgreSQL server's where known).
 */
export function outsideCost(before: Outside, after: Outside, units: number, processUs = 0) {
  const per = (s: number) => (s * 1e6) / Math.max(units, 1);
  const storeServerUs = per(after.storeServer - before.storeServer);
  const clientUs = per(after.client - before.client);
  return { storeServerUs, clientUs, machineUs: processUs + (Number.isNaN(storeServerUs) ? 0 : storeServerUs) + clientUs };
}

export const CORES = availableParallelism();

/** Requests a second the machine's cores could carry at best, each costing `machineUs` µs of CPU in all. */
export const cpuCeiling = (machineUs: number) => (CORES * 1e6) / machineUs;
