// Owns reading a batch's rows from what was sent: a JSON body's `items`, a CSV file (RFC 4180: a header
// naming the operation's fields, quoted fields, "" inside quotes, CRLF or LF, a UTF-8 BOM) or NDJSON
// (one JSON object a line). What makes the upload unreadable as a whole — no header or a column the
// operation does not have, a row with more cells than the header, a line that is not JSON or nests
// deeper than a JSON body may (checked on the text, before it is parsed), a NUL, too many rows, a CSV
// with a header and no rows — is a 422 naming the row and the field, and nothing is created. Rows that
// are readable but wrong for the operation are its schema's business (submit.ts).
import sjson from 'secure-json-parse';
import { ApiError, type FieldError } from '../errors.js';
import type { OperationDef } from '../operations/operation.js';
import { isCleanText, MAX_DEPTH, tooDeep } from '../http/input-guard.js';

/** At most this many items in a JSON body (CONTRACT §12). */
export const MAX_JSON_ITEMS = 1000;
/** At most this many rows in a CSV or NDJSON upload (CONTRACT §12). */
export const MAX_ROWS = 100_000;
/** The largest upload read: 100,000 rows of about 200 bytes. */
export const UPLOAD_LIMIT = 20 * 1024 * 1024;

/** One row as sent, numbered from 1 (a CSV's header is row 0). */
export interface RawRow {
  row: number;
  value: unknown;
}

export type UploadFormat = 'csv' | 'ndjson';

/** An upload's text, held where the input guard's walk over parsed bodies does not look (it is checked here, by row). */
export class UploadText {
  readonly #text: string;

  constructor(text: string) {
    this.#text = text;
  }

  get text(): string {
    return this.#text;
  }
}

const refuse = (errors: FieldError[]) => ApiError.validation(errors);
const tooMany = (n: number, max: number) => refuse([{ row: max + 1, field: 'body', message: `a batch takes at most ${max.toLocaleString('en-US')} rows; this one has ${n.toLocaleString('en-US')}` }]);

/** The fields a row may name: the operation's schema and its aliases. */
function fieldsOf(def: OperationDef): Set<string> {
  return new Set([...Object.keys(def.schema.properties), ...Object.keys(def.aliases ?? {})]);
}

/** Splits CSV text into records of cells, each with the line it starts on. Throws a 422 on an open quote. */
export function csvRecords(text: string): Array<{ line: number; cells: string[] }> {
  const records: Array<{ line: number; cells: string[] }> = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  const endRecord = () => {
    cells.push(cell);
    if (!(cells.length === 1 && cells[0] === '')) records.push({ line: start, cells }); // blank lines are skipped
    cells = [];
    cell = '';
    start = line;
  };
  const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        cell += c;
      }
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === ',') cells.push(cell), (cell = '');
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && s[i + 1] === '\n') i++;
      line++;
      endRecord();
    } else cell += c;
  }
  if (quoted) throw refuse([{ row: records.length, field: 'body', message: `a quoted field opened on line ${start} is never closed` }]);
  if (cell !== '' || cells.length > 0) endRecord();
  return records;
}

/** CSV rows: the header names the fields; empty cells are left out (an absent optional field). */
function csvRows(def: OperationDef, text: string): RawRow[] {
  const records = csvRecords(text);
  if (records.length === 0) throw refuse([{ row: 0, field: 'body', message: 'the CSV is empty: its first line must be a header naming the fields' }]);
  if (records.length - 1 > MAX_ROWS) throw tooMany(records.length - 1, MAX_ROWS);
  const header = records[0]!.cells.map((h) => h.trim());
  const known = fieldsOf(def);
  const unknown = header.filter((h) => !known.has(h));
  if (unknown.length > 0) {
    const missingHeader = header.every((h) => !known.has(h));
    throw refuse(
      unknown.map((h) => ({
        row: 0,
        field: h === '' ? 'header' : h,
        message: missingHeader
          ? `the first line must be a header naming ${def.slug} fields (such as ${[...known].slice(0, 4).join(', ')}); "${h}" is not one`
          : `column "${h}" is not a field of ${def.slug}`,
      })),
    );
  }
  const repeated = header.find((h, i) => header.indexOf(h) !== i);
  if (repeated) throw refuse([{ row: 0, field: repeated, message: `column "${repeated}" appears twice in the header` }]);
  if (records.length === 1) throw refuse([{ row: 1, field: 'body', message: 'the CSV has a header and no rows: a batch takes 1 to 100,000 rows, one a line after the header' }]);
  return records.slice(1).map(({ cells }, i) => {
    const row = i + 1;
    if (cells.length > header.length) throw refuse([{ row, field: `column ${header.length + 1}`, message: `row ${row} has ${cells.length} cells; the header names ${header.length}` }]);
    const value: Record<string, string> = {};
    cells.forEach((c, j) => {
      if (!isCleanText(c)) throw refuse([{ row, field: header[j]!, message: `row ${row}: ${header[j]} must not contain NUL (U+0000) or unpaired surrogate characters` }]);
      if (c !== '') value[header[j]!] = c;
    });
    return { row, value };
  });
}

/**
 * A row nesting deeper than a JSON body may is refused on its text, before it is parsed: every later
 * step (the schema, admit's copy, the audit row) may then walk the row without bounding it again.
 */
function refuseDeep(row: number, line: string): void {
  const deep = tooDeep(line);
  if (!deep) return;
  const field = deep.field !== null && deep.field !== '' && isCleanText(deep.field) ? deep.field : null;
  throw refuse([{ row, field: field ?? 'body', message: `row ${row}: ${field ?? 'the row'} nests deeper than ${MAX_DEPTH} levels` }]);
}

/** NDJSON rows: one JSON object a line (blank lines skipped). */
function ndjsonRows(text: string): RawRow[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length === 0) throw refuse([{ row: 1, field: 'body', message: 'the upload has no rows' }]);
  if (lines.length > MAX_ROWS) throw tooMany(lines.length, MAX_ROWS);
  return lines.map((l, i) => {
    const row = i + 1;
    refuseDeep(row, l);
    let value: unknown;
    try {
      value = sjson.parse(l, undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch {
      throw refuse([{ row, field: 'body', message: `row ${row} is not a JSON object` }]);
    }
    cleanRow(row, value);
    return { row, value };
  });
}

/** A row's strings (and keys) hold no NUL or lone surrogate: named by row and field. */
function cleanRow(row: number, value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  for (const [k, v] of Object.entries(value)) {
    if (!isCleanText(k) || (typeof v === 'string' && !isCleanText(v))) {
      throw refuse([{ row, field: isCleanText(k) ? k : 'body', message: `row ${row}: ${isCleanText(k) ? k : 'a key'} must not contain NUL (U+0000) or unpaired surrogate characters` }]);
    }
  }
}

/** The rows of an upload, or a 422 naming the row and field that makes it unreadable. */
export function uploadRows(def: OperationDef, format: UploadFormat, text: string): RawRow[] {
  return format === 'csv' ? csvRows(def, text) : ndjsonRows(text);
}

/** The rows of a JSON body's items (already parsed, and checked for NUL by the input guard). */
export function itemRows(items: unknown[]): RawRow[] {
  if (items.length > MAX_JSON_ITEMS) throw tooMany(items.length, MAX_JSON_ITEMS);
  return items.map((value, i) => ({ row: i + 1, value }));
}
