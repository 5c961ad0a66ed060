// Owns the go-live tables (migration 0021): the account's go-live profile (business details, use
// case, consent notice) and its submissions, one per operation asked for, kept after their decision.
// Whether an operation is approved is never stored here: that is `approvals` (access/approvals.ts),
// the table the live guard reads; a submission only says who asked, who decided and why.
import type { Selectable } from 'kysely';
import type { Db } from '../db/client.js';
import type { DB, GoLiveState } from '../db/schema.js';
import type { Trx } from '../db/transaction.js';
import { newId } from '../ids.js';
import { ApiError } from '../errors.js';

export const PROFILE_FIELDS = ['legal_name', 'address', 'website', 'contact_name', 'contact_email', 'contact_phone', 'use_case', 'notice_version', 'notice_text'] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];
export type Profile = Record<ProfileField, string> & { updated_at: string | null; updated_by: string | null };
export type Submission = Selectable<DB['go_live_submissions']>;

const EMPTY: Profile = { ...(Object.fromEntries(PROFILE_FIELDS.map((f) => [f, ''])) as Record<ProfileField, string>), updated_at: null, updated_by: null };

export async function readProfile(db: Db | Trx, accountId: string): Promise<Profile> {
  const row = await db.selectFrom('go_live_profiles').selectAll().where('account_id', '=', accountId).executeTakeFirst();
  if (!row) return EMPTY;
  const { account_id: _, updated_at, ...fields } = row;
  return { ...fields, updated_at: updated_at.toISOString() };
}

/** Sets the given fields (the others stay as they were). */
export async function writeProfile(trx: Trx, accountId: string, change: Partial<Record<ProfileField, string>>, by: string): Promise<Profile> {
  await trx
    .insertInto('go_live_profiles')
    .values({ account_id: accountId, ...change, updated_by: by })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ ...change, updated_by: by, updated_at: new Date() }))
    .execute();
  return readProfile(trx, accountId);
}

/** Each operation's latest submission for the account. */
export async function latestSubmissions(db: Db | Trx, accountId: string): Promise<Map<string, Submission>> {
  const rows = await db.selectFrom('go_live_submissions').selectAll().where('account_id', '=', accountId).orderBy('submitted_at', 'asc').orderBy('id', 'asc').execute();
  return new Map(rows.map((r) => [r.operation, r]));
}

/** Errors: validation (`operations`: a submission of it already waits — two submits raced past the check). */
/** `by`: the submitter's e-mail; `byUser`: their console user id (what maker-checker compares). */
export async function insertSubmission(trx: Trx, s: { accountId: string; operation: string; by: string; byUser: string | null; checklist: unknown }): Promise<Submission> {
  try {
    return await trx
      .insertInto('go_live_submissions')
      .values({ id: newId('glv', 20), account_id: s.accountId, operation: s.operation, state: 'submitted', submitted_by: s.by, submitted_by_user: s.byUser, checklist: JSON.stringify(s.checklist) })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (err) {
    // 23505: the partial unique index go_live_submissions_open.
    if ((err as { code?: string }).code === '23505') throw ApiError.validation([{ field: 'operations', message: `${s.operation} is already submitted` }]);
    throw err;
  }
}

export const lockSubmission = (trx: Trx, id: string) => trx.selectFrom('go_live_submissions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();

export async function decideSubmission(trx: Trx, id: string, d: { state: Exclude<GoLiveState, 'submitted'>; by: string; byUser: string; reason: string | null }): Promise<Submission> {
  return trx
    .updateTable('go_live_submissions')
    .set({ state: d.state, decided_by: d.by, decided_by_user: d.byUser, decided_at: new Date(), reason: d.reason })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Submissions of every account for the reviewers' queue, newest first; waiting ones only unless `all`. */
export async function submissionQueue(db: Db, o: { all: boolean; limit: number }) {
  let q = db
    .selectFrom('go_live_submissions as s')
    .innerJoin('accounts as a', 'a.id', 's.account_id')
    .selectAll('s')
    .select('a.name as account_name')
    .orderBy('s.submitted_at', 'desc')
    .limit(o.limit);
  if (!o.all) q = q.where('s.state', '=', 'submitted');
  return q.execute();
}
