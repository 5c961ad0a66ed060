// Owns a batch's results file: every row in row order with its operation's answer, as CSV (a header
// row; the answer's message, a bad row's errors, and the whole answer as JSON in its own column; a cell a
// spreadsheet would run as a formula is neutralised, csv.ts) or NDJSON (one item a line), streamed a
// page at a time with constant memory.
import { pipeline, Readable } from 'node:stream';
import { csvWriter } from '../csv.js';
import type { BatchStore, ItemView } from './store.js';

export const RESULT_COLUMNS = ['row', 'reference_id', 'status', 'http_status', 'message', 'errors', 'result'] as const;

const PAGE = 1000;

/** A row of the CSV: the answer's message (or an error's), and a bad row's errors as `field: message; …`. */
function csvRow(item: ItemView): Record<(typeof RESULT_COLUMNS)[number], unknown> {
  const r = item.result ?? {};
  const errors = Array.isArray(r.errors) ? (r.errors as Array<{ field: string; message: string }>).map((e) => `${e.field}: ${e.message}`).join('; ') : '';
  const message = typeof r.message === 'string' ? r.message : typeof r.Message === 'string' ? r.Message : '';
  return { row: item.row, reference_id: item.reference_id ?? '', status: item.status, http_status: item.http_status ?? '', message, errors, result: item.result ? JSON.stringify(item.result) : '' };
}

async function* pages(store: BatchStore, id: string): AsyncGenerator<ItemView> {
  for (let after = 0; ; ) {
    const items = await store.items(id, { afterRow: after, limit: PAGE });
    yield* items;
    if (items.length < PAGE) return;
    after = items.at(-1)!.row;
  }
}

export function resultsStream(store: BatchStore, id: string, format: 'csv' | 'ndjson'): Readable {
  const rows = Readable.from(
    (async function* () {
      for await (const item of pages(store, id)) yield format === 'csv' ? csvRow(item) : `${JSON.stringify(item)}\n`;
    })(),
  );
  if (format === 'ndjson') return rows;
  return pipeline(rows, csvWriter(RESULT_COLUMNS), () => {}); // an error is the returned stream's
}
