// Owns the embedded engine's thread. PGlite executes on the thread that calls it, synchronously for the
// length of a statement: on the main thread every statement stalls HTTP, JSON and hashing, and a
// batch runs from BEGIN to COMMIT in microtasks without letting one new request in, so group commit
// never groups. Here the engine runs on a worker thread (the second core): the main thread sends one
// message per statement (pglite-pool.ts) and keeps serving requests while the engine executes.
// Still one process opens the data directory: this thread belongs to it and dies with it.
import { readlinkSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import { openEngine, runStatement, type EngineResult } from './pglite-engine.js';

export type EngineRequest = { id: number; sql: string; parameters: unknown[] } | { id: number; close: true };
export interface EngineError {
  message: string;
  /** The error's plain fields (code, detail, constraint, ...), as the driver's error carries them. */
  fields: Record<string, string | number | boolean>;
}
export type EngineReply =
  | { id: number; result: EngineResult }
  | { id: number; error: EngineError }
  /** id 0: the engine is open (with this thread's Linux thread id, to read its CPU time), or failed to open. */
  | { id: 0; opened: { thread: number | null } };

function asEngineError(err: unknown): EngineError {
  if (!(err instanceof Error)) return { message: String(err), fields: {} };
  const fields: EngineError['fields'] = { name: err.name };
  for (const [k, v] of Object.entries(err)) if (['string', 'number', 'boolean'].includes(typeof v)) fields[k] = v as string | number | boolean;
  return { message: err.message, fields };
}

/** This thread's id as the kernel knows it (/proc/thread-self → "<pid>/task/<tid>"), where there is one. */
function kernelThreadId(): number | null {
  try {
    return Number(readlinkSync('/proc/thread-self').split('/').at(-1));
  } catch {
    return null;
  }
}

async function serve(pg: PGlite, m: EngineRequest): Promise<EngineReply> {
  if ('close' in m) {
    await pg.close();
    return { id: m.id, result: { rows: [], rowCount: 0 } };
  }
  try {
    return { id: m.id, result: await runStatement(pg, m.sql, m.parameters) };
  } catch (err) {
    return { id: m.id, error: asEngineError(err) };
  }
}

const port = parentPort!;
const { dataDir } = workerData as { dataDir: string };
try {
  const pg = await openEngine(dataDir);
  port.on('message', (m: EngineRequest) => void serve(pg, m).then((reply) => port.postMessage(reply)));
  port.postMessage({ id: 0, opened: { thread: kernelThreadId() } } satisfies EngineReply);
} catch (err) {
  port.postMessage({ id: 0, error: asEngineError(err) } satisfies EngineReply);
}
