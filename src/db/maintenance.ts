// Owns the store's upkeep on demand: VACUUM (ANALYZE) of every table, one table at a time. PostgreSQL
// does this by itself (autovacuum). The embedded store cannot: PGlite runs PostgreSQL in single-user
// mode, with no autovacuum, no autoanalyze and no statistics collector, so there its tables are never
// vacuumed (dead row versions, an erasure's old content among them, stay until their page is pruned;
// transaction ids are never frozen) nor analysed (the planner has no statistics). `sangam store vacuum`
// runs this; on the embedded store it goes through the running server's admin socket, and each table's
// VACUUM holds the store's one connection while it runs, so other statements wait between tables.
import { sql } from 'kysely';
import type { Db } from './client.js';

export interface VacuumReport {
  tables: Array<{ table: string; ms: number }>;
  /** The oldest unfrozen transaction id's age over every table, before and after: the distance run towards wraparound. */
  xid_age_before: number;
  xid_age_after: number;
  /** Tables with planner statistics (ANALYZE has run on them), after. */
  analysed: number;
}

const xidAge = async (db: Db) =>
  Number((await sql<{ age: number }>`SELECT max(age(relfrozenxid))::integer AS age FROM pg_class WHERE relkind IN ('r', 'm', 't')`.execute(db)).rows[0]?.age ?? 0);

/** VACUUM (ANALYZE) of the application's tables and the catalogs, one table at a time. */
export async function vacuumStore(db: Db): Promise<VacuumReport> {
  const before = await xidAge(db);
  const names = await sql<{ schema: string; name: string }>`
    SELECT n.nspname AS schema, c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'm') AND n.nspname IN ('public', 'pg_catalog') ORDER BY n.nspname DESC, c.relname`.execute(db);
  const tables: VacuumReport['tables'] = [];
  for (const t of names.rows) {
    const t0 = performance.now();
    // VACUUM cannot run in a transaction: on the pg pool, one statement of its own; on the embedded store,
    // a statement without parameters goes through PGlite's simple protocol.
    await sql`VACUUM (ANALYZE) ${sql.id(t.schema, t.name)}`.execute(db);
    tables.push({ table: t.schema === 'public' ? t.name : `${t.schema}.${t.name}`, ms: Math.round(performance.now() - t0) });
  }
  const analysed = await sql<{ n: number }>`
    SELECT count(*)::integer AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind = 'r' AND n.nspname = 'public' AND c.reltuples >= 0`.execute(db);
  return { tables, xid_age_before: before, xid_age_after: await xidAge(db), analysed: analysed.rows[0]?.n ?? 0 };
}
