// Owns leasing due rows for background workers shared by several server processes: one statement
// picks the due rows nobody else holds (FOR UPDATE SKIP LOCKED) and pushes their due time out by the
// lease, so each due row is taken by exactly one worker until its lease runs out.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from './client.js';

export async function leaseDue<Id extends string | number>(
  db: Db,
  lease: { table: 'transactions' | 'webhook_deliveries'; dueColumn: 'next_check_at' | 'watch_next_at' | 'next_attempt_at'; where: RawBuilder<unknown>; limit: number; seconds: number },
): Promise<Id[]> {
  const table = sql.table(lease.table);
  const due = sql.ref(lease.dueColumn);
  const rows = await sql<{ id: Id }>`
    UPDATE ${table} SET ${due} = now() + make_interval(secs => ${lease.seconds})
    WHERE id IN (
      SELECT id FROM ${table} WHERE ${lease.where} AND ${due} <= now()
      ORDER BY ${due} LIMIT ${lease.limit} FOR UPDATE SKIP LOCKED)
    RETURNING id`.execute(db);
  return rows.rows.map((r) => r.id);
}
