// Owns audit exports: CSV (csv.ts: a formula-looking cell is neutralised) or NDJSON, streamed page by page with constant memory.
// Filters are validated before the stream starts; an error inside it (the store failing mid-export)
// ends that one response, never the process: the stages are joined with pipeline(), which destroys
// every stage with the error, and Fastify closes the response it was sending.
import { pipeline, Readable } from 'node:stream';
import { csvWriter } from '../csv.js';
import type { Db } from '../db/client.js';
import { iterateAudit, type AuditFilters } from './search.js';

export const EXPORT_COLUMNS = [
  'request_id', 'created_at', 'operation', 'environment', 'method', 'path', 'http_status', 'ok',
  'statuscode', 'reference_id', 'latency_ms', 'key_id', 'client_ip', 'message',
] as const;

export type ExportFormat = 'csv' | 'ndjson';

export function exportStream(db: Db, accountId: string, filters: AuditFilters, format: ExportFormat, onRow?: (n: number) => void): Readable {
  let n = 0;
  const rows = Readable.from(
    (async function* () {
      for await (const item of iterateAudit(db, accountId, filters)) {
        onRow?.(++n);
        const { id: _, ...row } = item;
        yield format === 'csv' ? row : `${JSON.stringify(row)}\n`;
      }
    })(),
  );
  if (format === 'ndjson') return rows;
  return pipeline(rows, csvWriter(EXPORT_COLUMNS), () => {}); // the error, if any, is the returned stream's: its reader reports it
}
