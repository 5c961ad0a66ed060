// Owns the identity content of batch rows at rest (issue #37): a row of an identity-class operation
// (its declaration's `dataClass`, the class its audit rows take: signature match, the document-locker
// steps, bank account verification…) keeps its input to run and its answer for the results file, and
// nothing longer than needed:
// - once final (success, failed, invalid, cancelled), its stored input is replaced by its redacted form
//   (audit/redact.ts: identity numbers masked to their last 4, photos and addresses dropped) and any
//   whole Aadhaar number or VID in its answer is masked; the answer stays readable. The worker never
//   reads a final row's input again (it takes queued rows only). Each batch keeps how far this has gone
//   (`identity_redacted_through`, migration 0028): rows up to it are done, so a sweep reads only new
//   final rows, in row order, and stops at the first row still to run;
// - past the identity retention (SANGAM_AUDIT_RETAIN_IDENTITY_DAYS, the audit trail's identity class),
//   every row of the batch loses its input and its answer keeps the money facts only, as an erasure of
//   the reference does (transactions/erasure.ts `scrub`): status, amounts, references.
// It runs as its own background worker (app.ts) and in `sangam audit purge` (admin/commands.ts). It is
// kept apart from the store (store.ts) on purpose: it writes only columns the engine no longer reads.
import { sql } from 'kysely';
import type { Db } from '../db/client.js';
import { maskAadhaar, redact } from '../audit/redact.js';
import { scrub } from '../transactions/erasure.js';
import { OPERATIONS } from '../operations/registry.js';

/** The operations whose batch rows hold identity data. */
export const IDENTITY_OPERATIONS: readonly string[] = OPERATIONS.filter((op) => op.dataClass === 'identity').map((op) => op.slug);

const FINAL = ['success', 'failed', 'invalid', 'cancelled'] as const;
const PAGE = 500;

type Json = Record<string, unknown> | null;

/** One page of a batch's rows after its watermark, redacted in place; returns how many rows it did and whether more may follow. */
async function redactPage(db: Db, batchId: string, after: number): Promise<{ done: number; through: number; more: boolean }> {
  const rows = await db
    .selectFrom('batch_items')
    .select(['row_no', 'status', 'input', 'result'])
    .where('batch_id', '=', batchId)
    .where('row_no', '>', after)
    .orderBy('row_no')
    .limit(PAGE)
    .execute();
  let through = after;
  for (const r of rows) {
    if (r.row_no !== through + 1 || !(FINAL as readonly string[]).includes(r.status)) break;
    const input = r.input === null ? null : JSON.stringify(redact(r.input));
    const result = r.result === null ? null : JSON.stringify(maskAadhaar(r.result as Json));
    // The status is checked again in the statement: only a final row is rewritten.
    await db
      .updateTable('batch_items')
      .set({ input, result })
      .where('batch_id', '=', batchId)
      .where('row_no', '=', r.row_no)
      .where('status', 'in', [...FINAL])
      .execute();
    through = r.row_no;
  }
  if (through > after) await db.updateTable('batches').set({ identity_redacted_through: through }).where('id', '=', batchId).where('identity_redacted_through', '<', through).execute();
  return { done: through - after, through, more: rows.length === PAGE && through === rows.at(-1)!.row_no };
}

/** Redacts the final rows of identity batches not yet redacted. Returns how many rows it rewrote. */
export async function redactFinalIdentityRows(db: Db, operations: readonly string[] = IDENTITY_OPERATIONS): Promise<number> {
  if (operations.length === 0) return 0;
  const batches = await db
    .selectFrom('batches')
    .select(['id', 'identity_redacted_through'])
    .where('operation', 'in', [...operations])
    .where('identity_erased_at', 'is', null)
    .where(sql<boolean>`identity_redacted_through < total`)
    .execute();
  let rewritten = 0;
  for (const b of batches) {
    let after = b.identity_redacted_through;
    for (;;) {
      const page = await redactPage(db, b.id, after);
      rewritten += page.done;
      after = page.through;
      if (!page.more) break;
    }
  }
  return rewritten;
}

/**
 * Erases the identity content of every row of identity batches created before `before` (the input
 * dropped, the answer scrubbed to its money facts), a batch at a time. Returns how many rows it erased.
 */
export async function eraseIdentityRowsBefore(db: Db, before: Date, operations: readonly string[] = IDENTITY_OPERATIONS): Promise<number> {
  if (operations.length === 0) return 0;
  const batches = await db
    .selectFrom('batches')
    .select('id')
    .where('operation', 'in', [...operations])
    .where('identity_erased_at', 'is', null)
    .where('created_at', '<', before)
    // A batch still running needs its queued rows' inputs: erased once it has ended.
    .where('status', 'not in', ['validating', 'running'])
    // A row still pending is re-read and rewritten when it settles: erased after that.
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('batch_items as i').select('i.row_no').whereRef('i.batch_id', '=', 'batches.id').where('i.status', '=', 'pending'))))
    .execute();
  let erased = 0;
  for (const b of batches) {
    const at = new Date();
    const rows = await db.selectFrom('batch_items').select(['row_no', 'result']).where('batch_id', '=', b.id).execute();
    await db.transaction().execute(async (trx) => {
      for (const r of rows) {
        const result = r.result === null ? null : JSON.stringify(scrub(r.result, at.toISOString()));
        await trx.updateTable('batch_items').set({ input: null, result }).where('batch_id', '=', b.id).where('row_no', '=', r.row_no).execute();
      }
      await trx.updateTable('batches').set({ identity_erased_at: at }).where('id', '=', b.id).execute();
    });
    erased += rows.length;
  }
  return erased;
}

/** One sweep: final rows redacted, then rows past the identity retention (`identityDays`) erased. */
export async function sweepBatchIdentity(db: Db, identityDays: number, now = Date.now()): Promise<{ redacted: number; erased: number }> {
  const redacted = await redactFinalIdentityRows(db);
  const erased = await eraseIdentityRowsBefore(db, new Date(now - identityDays * 86_400_000));
  return { redacted, erased };
}
