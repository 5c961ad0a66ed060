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
  const declared = cols.map((c) => sql`${sql.id(c)} ${sql.raw(types[c] === 'jsonb' ? 'text' : types[c]!)}`);
  const selected = cols.map((c) => (types[c] === 'jsonb' ? sql`v.${sql.id(c)}::jsonb` : sql`v.${sql.id(c)}`));
  return sql`
    INSERT INTO ${sql.table(table)} (${sql.join(cols.map((c) => sql.id(c)))})
    SELECT ${sql.join(selected)}
    FROM ROWS FROM (jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS (${sql.join(declared)})) WITH ORDINALITY AS v
    ${where ? sql`WHERE ${where}` : sql``}
    ORDER BY v.ordinality`;
}
