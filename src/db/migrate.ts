// Owns schema migrations: the numbered SQL files in migrations/ are applied in order, each in its own
// transaction, under an advisory lock so that several processes starting at once apply each file once.
// A failing migration throws; the caller exits non-zero.
import { readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Db } from './client.js';

const DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const LOCK_ID = 7_126_020_001;

export class MigrationError extends Error {}

export function listMigrations(): Array<{ name: string; sql: string; checksum: string }> {
  return readdirSync(DIR)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((name) => {
      const text = readFileSync(DIR + name, 'utf8');
      return { name, sql: text, checksum: createHash('sha256').update(text).digest('hex') };
    });
}

/** Applies pending migrations; returns the names applied. Throws MigrationError on any failure. */
export async function migrate(db: Db): Promise<string[]> {
  const applied: string[] = [];
  await db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(${LOCK_ID})`.execute(conn);
    try {
      await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
        name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`.execute(conn);
      const done = await sql<{ name: string; checksum: string }>`SELECT name, checksum FROM schema_migrations`.execute(conn);
      const seen = new Map(done.rows.map((r) => [r.name, r.checksum]));
      for (const m of listMigrations()) {
        const prior = seen.get(m.name);
        if (prior !== undefined) {
          if (prior !== m.checksum) throw new MigrationError(`migration ${m.name} was changed after it was applied`);
          continue;
        }
        try {
          await conn.transaction().execute(async (trx) => {
            await sql.raw(m.sql).execute(trx);
            await sql`INSERT INTO schema_migrations (name, checksum) VALUES (${m.name}, ${m.checksum})`.execute(trx);
          });
        } catch (err) {
          throw new MigrationError(`migration ${m.name} failed: ${(err as Error).message}`);
        }
        applied.push(m.name);
      }
    } finally {
      await sql`SELECT pg_advisory_unlock(${LOCK_ID})`.execute(conn);
    }
  });
  return applied;
}
