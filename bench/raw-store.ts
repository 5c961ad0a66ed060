// Owns the raw-store baselines: what the store itself can do with the writes a sandbox call makes, with
// nothing of Sangam in between, measured in its own process in the same run as Sangam:
//   - embedded: the same two writes per request (a transaction row and an audit row, on the migrated
//     schema with its indexes) straight into PGlite, one database transaction per request, and batched
//     50 requests to a transaction;
//   - PostgreSQL, the same rows a sandbox call writes (its idempotency key, its transaction row, its
//     audit row with the row's indexes and its chain link made by the store's own audit_append), one
//     statement per request (as Sangam's sandbox write is), 50 concurrent callers on a pool of the
//     server's default size (10): the fair baseline of issue #42;
//   - PostgreSQL, one INSERT of a transaction row per request, the same way: the older, lighter one,
//     kept beside it for comparison.
// The parent forks this file; the child (RAW_STORE_MODE set) runs the writes for BENCH_SECONDS after a
// warm-up of half as long and sends back requests per second.
import { fork } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { embeddedDir } from '../src/db/client.js';
import { openEngine } from '../src/db/pglite-engine.js';
import type { StoreLocation } from '../test/harness.js';
import { outsideCost, outsideNow, postmasterOf } from './store-cpu.js';

type Mode = 'embedded-each' | 'embedded-batch' | 'pg-same-rows' | 'pg-insert';
export interface RawResult {
  name: string;
  perSec: number;
  /** CPU µs a request cost the machine: this child's, and the PostgreSQL server's where it runs here. */
  machineUs: number;
}
type Run = { perSec: number; n: number };
const NAMES: Record<Mode, string> = {
  'embedded-each': 'raw PGlite: tx + audit row, one transaction each',
  'embedded-batch': 'raw PGlite: tx + audit row, 50 to a transaction',
  'pg-same-rows': 'raw PostgreSQL: key + tx + chained audit row, one statement per request, 50 callers, pool 10',
  'pg-insert': 'raw PostgreSQL: one INSERT per request, 50 callers, pool 10',
};

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const MODES: Mode[] = ['embedded-each', 'embedded-batch', 'pg-same-rows', 'pg-insert'];
/**
 * The audit chain the child's rows go on: one per mode, beyond the service's own 64 (a smallint; the
 * process id it once was overflowed it on a machine whose pids pass 31,767).
 */
const CHAIN = 1000 + MODES.indexOf(process.env.RAW_STORE_MODE as Mode);
const BATCH = 50;
const CALLERS = 50;

const TX_SQL = `INSERT INTO transactions (id, account_id, environment, operation, reference_id, status, result, verified_at)
  VALUES ($1, $2, 'sandbox', 'signature-match', $3, 'success', $4, now())`;
const AUDIT_SQL = `INSERT INTO audit_logs (request_id, created_at, account_id, environment, client_ip, method, path, operation,
  http_status, ok, statuscode, reference_id, latency_ms, request_body, response_body, prev_hash, hash, chain, seq,
  data_class, content_salt, content_hash)
  VALUES ($1, now(), $2, 'sandbox', '127.0.0.1', 'POST', '/api/v1/document-ocr/signature-match', 'signature-match',
  200, true, 'TXN', $3, 1, $4, $5, $6, $7, $11, $8, 'standard', $9, $10)`;

/**
 * A sandbox call's three rows in one statement: the idempotency key (done, its answer stored), the
 * transaction, and the audit row linked to the end of a chain by the store's audit_append (the first
 * head nobody holds, as Sangam's writes take it).
 */
const SAME_ROWS_SQL = `WITH k AS (
    INSERT INTO idempotency_keys (account_id, environment, operation, key, request_hash, status, response_status, response_body, locked_until, txn_id)
    VALUES ($2, 'sandbox', 'signature-match', $3, $9, 'done', 200, $5::text, now(), $10)),
  t AS (
    INSERT INTO transactions (id, account_id, environment, operation, reference_id, status, result, verified_at)
    VALUES ($10, $2, 'sandbox', 'signature-match', $3, 'success', $11, now())),
  l AS (SELECT * FROM audit_append(ARRAY[$6::text], NULL))
  INSERT INTO audit_logs (request_id, created_at, account_id, environment, client_ip, method, path, operation,
    http_status, ok, statuscode, reference_id, latency_ms, request_body, response_body, prev_hash, hash, chain, seq,
    data_class, content_salt, content_hash)
  SELECT $1, now(), $2, 'sandbox', '127.0.0.1', 'POST', '/api/v1/document-ocr/signature-match', 'signature-match',
    200, true, 'TXN', $3, 1, $4::jsonb, $5::text::jsonb, l.link_prev, l.link_hash, l.link_chain, l.link_seq, 'standard', $7, $8
  FROM l`;

/** The parameters of one request's two rows, shaped like the ones Sangam writes. */
function rows(accountId: string, seq: number): { tx: unknown[]; audit: unknown[] } {
  const ref = `raw-${randomUUID()}`;
  const result = JSON.stringify({ reference_id: ref, name: 'Priya Sharma', match: true, score: 0.93, verified_at: new Date().toISOString() });
  const request = JSON.stringify({ reference_id: ref, consent: true, input: 'https://example.com/cheque.png', name: 'Priya Sharma' });
  const response = JSON.stringify({ statuscode: 'TXN', ok: true, message: 'Signature matched', data: JSON.parse(result) as unknown });
  const hex = () => randomBytes(32).toString('hex');
  return {
    tx: [`txn_${randomBytes(10).toString('hex')}`, accountId, ref, result],
    // A chain of its own per mode (CHAIN), so that the runs on one store never collide on (chain, seq).
    audit: [`req_${randomBytes(10).toString('hex')}`, accountId, ref, request, response, hex(), hex(), seq, randomBytes(16).toString('hex'), hex(), CHAIN],
  };
}

/** Runs `step` (which does `per` requests) back to back for `seconds`; requests per second. */
async function timed(seconds: number, per: number, step: () => Promise<void>): Promise<Run> {
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  let n = 0;
  while (performance.now() < end) {
    await step();
    n += per;
  }
  return { perSec: n / ((performance.now() - started) / 1000), n };
}

/** `run`'s rate, with the CPU each of its requests cost this process and the PostgreSQL server. */
async function costed(postmaster: number | null, run: () => Promise<Run>): Promise<Omit<RawResult, 'name'>> {
  const before = outsideNow(postmaster);
  const { perSec, n } = await run();
  return { perSec, machineUs: outsideCost(before, outsideNow(postmaster), n).machineUs };
}

async function embedded(dataDir: string, accountId: string, batch: number): Promise<Omit<RawResult, 'name'>> {
  const engine = await openEngine(embeddedDir(dataDir));
  let seq = 0;
  const step = () =>
    engine.transaction(async (tx) => {
      for (let i = 0; i < batch; i++) {
        const r = rows(accountId, ++seq);
        await tx.query(TX_SQL, r.tx);
        await tx.query(AUDIT_SQL, r.audit);
      }
    }) as Promise<void>;
  try {
    await timed(Math.max(1, SECONDS / 2), batch, step);
    return await costed(null, () => timed(SECONDS, batch, step));
  } finally {
    await engine.close();
  }
}

/** SAME_ROWS_SQL's parameters: the audit row's (its digest, salt and content hash), the key's request hash, the transaction's id and result. */
function sameRows(accountId: string): unknown[] {
  const { tx, audit } = rows(accountId, 0);
  return [...audit.slice(0, 5), audit[6], audit[8], audit[9], randomBytes(32).toString('hex'), tx[0], tx[3]];
}

async function postgres(url: string, accountId: string, same: boolean): Promise<Omit<RawResult, 'name'>> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const postmaster = await postmasterOf(url);
  const run = async (seconds: number): Promise<Run> => {
    const end = performance.now() + seconds * 1000;
    const started = performance.now();
    let n = 0;
    const caller = async () => {
      while (performance.now() < end) {
        if (same) await pool.query(SAME_ROWS_SQL, sameRows(accountId));
        else await pool.query(TX_SQL, rows(accountId, 0).tx);
        n++;
      }
    };
    await Promise.all(Array.from({ length: CALLERS }, caller));
    return { perSec: n / ((performance.now() - started) / 1000), n };
  };
  try {
    await run(Math.max(1, SECONDS / 2));
    return await costed(postmaster, () => run(SECONDS));
  } finally {
    await pool.end();
  }
}

/** Forks the child for one mode on a migrated store holding `accountId`. */
function runChild(mode: Mode, loc: StoreLocation, accountId: string): Promise<RawResult> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, RAW_STORE_MODE: mode, RAW_STORE_DIR: loc.dataDir, RAW_STORE_URL: loc.databaseUrl ?? '', RAW_STORE_ACCOUNT: accountId },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m: Omit<RawResult, 'name'>) => {
      const result = { name: NAMES[mode], ...m };
      process.stderr.write(`  ${result.name}: ${result.perSec.toFixed(0)} req/s, ${result.machineUs.toFixed(0)} µs of CPU each\n`);
      resolve(result);
    });
    child.once('exit', (code) => reject(new Error(`raw-store ${mode} exited with ${code}`)));
  });
}

/** The baselines for a store (migrated, with `accountId`): embedded both ways, or PostgreSQL's same rows and one INSERT. */
export async function rawStore(loc: StoreLocation, accountId: string): Promise<RawResult[]> {
  if (loc.databaseUrl) return [await runChild('pg-same-rows', loc, accountId), await runChild('pg-insert', loc, accountId)];
  return [await runChild('embedded-each', loc, accountId), await runChild('embedded-batch', loc, accountId)];
}

async function child(mode: Mode): Promise<void> {
  const accountId = process.env.RAW_STORE_ACCOUNT!;
  const measured =
    mode.startsWith('pg-')
      ? await postgres(process.env.RAW_STORE_URL!, accountId, mode === 'pg-same-rows')
      : await embedded(process.env.RAW_STORE_DIR!, accountId, mode === 'embedded-batch' ? BATCH : 1);
  process.send!(measured, () => process.exit(0));
}

if (process.env.RAW_STORE_MODE) await child(process.env.RAW_STORE_MODE as Mode);
