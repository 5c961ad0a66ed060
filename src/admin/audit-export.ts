// Owns `sangam audit export`: streams an account's audit rows to a file (or stdout) as CSV or NDJSON,
// with progress on stderr. The rows come from the store directly, or from the running server through
// the admin socket when it holds the embedded store.
import { createWriteStream } from 'node:fs';
import { parseArgs } from 'node:util';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import type { Db } from '../db/client.js';
import { exportStream, type ExportFormat } from '../audit/export.js';
import type { AuditFilters } from '../audit/search.js';
import { verifiableExport } from '../audit/proof.js';
import { loadConfig } from '../config.js';

/** The CLI's formats: the API's, where verifiable needs one environment (its proofs are per environment). */
export type CliFormat = ExportFormat | 'verifiable';

export interface ExportRequest {
  account: string;
  format: CliFormat;
  filters: AuditFilters;
}

export function parseExportArgs(args: string[]): ExportRequest & { out: string | undefined } {
  const { values } = parseArgs({
    args,
    options: {
      account: { type: 'string' },
      format: { type: 'string' },
      out: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      operation: { type: 'string' },
      'reference-id': { type: 'string' },
      environment: { type: 'string' },
    },
    strict: true,
  });
  if (!values.account) throw new Error('--account is required');
  const format = (values.format ?? 'csv') as CliFormat;
  if (format !== 'csv' && format !== 'ndjson' && format !== 'verifiable') throw new Error('--format must be csv, ndjson or verifiable');
  if (format === 'verifiable' && !values.environment) throw new Error('--format verifiable needs --environment sandbox|live');
  for (const k of ['from', 'to'] as const) if (values[k] && Number.isNaN(Date.parse(values[k]!))) throw new Error(`--${k} must be an ISO 8601 date`);
  if (values.environment && values.environment !== 'sandbox' && values.environment !== 'live') throw new Error('--environment must be sandbox or live');
  return {
    account: values.account,
    format,
    out: values.out,
    filters: {
      from: values.from,
      to: values.to,
      operation: values.operation,
      reference_id: values['reference-id'],
      environment: values.environment as AuditFilters['environment'],
    },
  };
}

export const exportFromStore = (db: Db, r: ExportRequest): Readable =>
  r.format === 'verifiable'
    ? verifiableExport(db, loadConfig().auditCheckpoint.signingKey, r.account, r.filters.environment!, r.filters)
    : exportStream(db, r.account, r.filters, r.format);

/** Writes the stream to `out` (or stdout), reporting rows on stderr; returns the row count. */
export async function writeExport(source: Readable, out: string | undefined, format: CliFormat): Promise<number> {
  let rows = format === 'csv' ? -1 : 0; // the CSV header is not a row
  let lastReport = Date.now();
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      for (const b of chunk) if (b === 10) rows++;
      if (Date.now() - lastReport > 500) {
        lastReport = Date.now();
        process.stderr.write(`\r${Math.max(rows, 0)} rows…`);
      }
      done(null, chunk);
    },
  });
  await pipeline(source, count, out ? createWriteStream(out) : process.stdout);
  process.stderr.write(`\r${Math.max(rows, 0)} rows exported\n`);
  return Math.max(rows, 0);
}
