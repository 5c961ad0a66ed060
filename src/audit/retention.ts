// Owns the audit trail's data classes and their retention. A row's metadata (who, when, which
// operation, the outcome, the reference) is kept longest and leaves only with the row (chain.ts,
// purgeBefore). Its content (client IP and the redacted bodies) is erased earlier, by class:
// - identity: rows of the identity operations (signature match, the document-locker steps, bank
//   account verification), whose bodies hold masked identifiers, names and addresses, and transaction
//   lookups, which repeat such results;
// - bodies: every other row's bodies.
// Erasing content keeps its hash commitment, so the chain still verifies (hashing.ts). The defaults
// and why they follow UIDAI's rules are in docs/DECISIONS.md ("Audit retention by data class").
import { sql } from 'kysely';
import type { Db } from '../db/client.js';

/**
 * `consent`: the rows that put a consent receipt's hash in the chain. Their content is never erased
 * early (no content clock): they leave with metadata retention (docs/DECISIONS.md, consent records).
 */
export type DataClass = 'identity' | 'bodies' | 'consent';

/**
 * A row's class: an operation's row takes the class its declaration gives (operations/<slug>), passed
 * in as `declared`. A row with a reference but no operation is a transaction lookup, whose answer
 * repeats the operation's result: it may be an identity result, so it takes the shorter identity
 * retention.
 */
export const dataClassOf = (declared: DataClass | null | undefined, referenceId?: string | null): DataClass =>
  declared ?? (referenceId ? 'identity' : 'bodies');

/** The columns an erasure empties: the content, and the salt that would let anyone test a guess of it. */
export const ERASED = { client_ip: null, request_body: null, response_body: null, content_salt: null } as const;

/**
 * Erases the content of rows of `dataClass` created before `before`, in batches of `batch` rows (one
 * short statement each, so writers never queue behind a long sweep). Rows from before commitments
 * (content_hash null) are left for metadata retention: erasing their content would break their hash.
 */
export async function eraseContentBefore(db: Db, dataClass: DataClass, before: Date, batch = 5000): Promise<number> {
  let erased = 0;
  for (;;) {
    const res = await db
      .updateTable('audit_logs')
      .set({ ...ERASED, erased_at: sql<Date>`now()` })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('audit_logs')
          .select('id')
          .where('data_class', '=', dataClass)
          .where('created_at', '<', before)
          .where('erased_at', 'is', null)
          .where('content_hash', 'is not', null)
          .limit(batch),
      )
      .executeTakeFirst();
    const n = Number(res.numUpdatedRows);
    erased += n;
    if (n < batch) return erased;
  }
}

export interface RetentionDays {
  identity: number;
  bodies: number;
  metadata: number;
}

/** The cut-off dates of each class at `now`. */
export const cutoffs = (days: RetentionDays, now = Date.now()) => ({
  identity: new Date(now - days.identity * 86_400_000),
  bodies: new Date(now - days.bodies * 86_400_000),
  metadata: new Date(now - days.metadata * 86_400_000),
});
