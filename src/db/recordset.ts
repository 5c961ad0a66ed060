// Owns multi-row INSERTs sent as one parameter: `INSERT INTO t (cols) SELECT … FROM
// jsonb_to_recordset($1)`, the rows as one JSON array. The group commit's hot inserts (transactions,
// idempotency keys, audit rows) write up to 500 rows in a statement; as a VALUES list that is up to
// 11,500 parameters the store binds, parses and plans one expression at a time. Measured on the
// embedded store, 200 rows a statement: 62 → 51 µs a row for idempotency keys, 98 → 78 for audit
// rows (docs/PERFORMANCE.md, batches round 6).
//
// Every column named is written for every row: a value missing from a row (undefined) is NULL, never the
// column's default, so callers name only the columns they always set. A jsonb column takes the JSON
// text the caller made (as a jsonb parameter would) and is parsed in the statement. Rows go in the order
// given (WITH ORDINALITY), so a serial id follows it.
import { sql, type RawBuilder } from 'kysely';
import type { DB } from './schema.js';

/** PostgreSQL type of each column written. */
export type ColumnTypes<T extends keyof DB> = Partial<Record<keyof DB[T] & string, string>>;

/** `where`, if given, keeps only the rows it holds for; it reads a row's values as `v.<column>`. */
export function insertRows<T extends keyof DB>(table: T, types: ColumnTypes<T>, rows: ReadonlyArray<Record<string, unknown>>, where?: RawBuilder<unknown>): RawBuilder<unknown> {
  const cols = Object.keys(types) as Array<keyof DB[T] & string>;
  return sql`
    INSERT INTO ${sql.table(table)} (${sql.join(cols.map((c) => sql.id(c)))})
    SELECT ${sql.join(readColumns(types, 'v'))}
    FROM ${recordset(types, rows)}
    ${where ? sql`WHERE ${where}` : sql``}
    ORDER BY v.ordinality`;
}

/** The rows as a set named `v`, with their position in `v.ordinality`; a jsonb column is still its JSON text here. */
export function recordset(types: Record<string, string | undefined>, rows: ReadonlyArray<Record<string, unknown>>): RawBuilder<unknown> {
  const declared = Object.keys(types).map((c) => sql`${sql.id(c)} ${sql.raw(types[c] === 'jsonb' ? 'text' : types[c]!)}`);
  return sql`ROWS FROM (jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS (${sql.join(declared)})) WITH ORDINALITY AS v`;
}

/** Each column of a recordset (or of a set selected from one) under `alias`, as its type: a jsonb column parsed. */
export const readColumns = (types: Record<string, string | undefined>, alias: string): RawBuilder<unknown>[] =>
  Object.keys(types).map((c) => (types[c] === 'jsonb' ? sql`${sql.ref(`${alias}.${c}`)}::jsonb` : sql.ref(`${alias}.${c}`)));
