// Owns the go-live actions (issue #26 item 5): the account keeps its go-live profile, submits
// operations for live use, and an admin approves or rejects each submission with a reason. Approval
// is maker-checker — whoever submitted cannot approve it (compared by console user id), nor can an
// admin whose rights took effect after the submission (people.ts) — and grants live use by writing the same
// `approvals` row `sangam approve` writes (access/approvals.ts), in the same transaction. Every step
// is an ADMIN audit row: `go-live profile`, `go-live submit`, `go-live approve`, `go-live reject`.
//
// Lock order: the submission row (FOR UPDATE), then approvals, the audit chain last.
import type { Db } from '../../db/client.js';
import type { Trx } from '../../db/transaction.js';
import { ApiError } from '../../errors.js';
import { approve as grant, listApprovals } from '../../access/approvals.js';
import { OPERATION_SLUGS } from '../../operations/registry.js';
import { checklist, submissionView, type OperationChecklist } from '../../golive/checklist.js';
import { decideSubmission, insertSubmission, lockSubmission, writeProfile, type ProfileField, type Submission } from '../../golive/store.js';
import { adminAction, type Actor } from './run.js';
import { assertChecker, boundedText, checkerFacts, personOf, requireAdminPerson } from './people.js';

const REASON_MAX = 1000;

/** The checklist of every operation for the account. */
export const goLiveState = (db: Db, accountId: string) => checklist(db, accountId, OPERATION_SLUGS);

/** Errors: forbidden (an actor that names no person: go-live steps are people's). */
function person(actor: Actor): string {
  const p = personOf(actor);
  if (!p) throw new ApiError('forbidden', 'Go-live steps need a named person (the console)');
  return p;
}

/** Sets the given profile fields (validated by the caller's schema). */
export function saveProfile(db: Db, actor: Actor, input: { accountId: string; change: Partial<Record<ProfileField, string>> }) {
  const by = person(actor);
  const change = Object.fromEntries(Object.entries(input.change).map(([k, v]) => [k, (v ?? '').trim()]));
  return adminAction(db, actor, async (trx) => {
    const profile = await writeProfile(trx, input.accountId, change, by);
    return { result: profile, event: { accountId: input.accountId, action: 'go-live profile', detail: { fields: Object.keys(change) } } };
  });
}

/** Errors: validation (`operations`: unknown, already approved or waiting, checklist not complete). */
function submittable(ops: string[], state: OperationChecklist[]): OperationChecklist[] {
  const unknown = ops.filter((op) => !OPERATION_SLUGS.includes(op));
  if (unknown.length > 0) throw ApiError.validation([{ field: 'operations', message: `unknown operation ${unknown.join(', ')}; one of: ${OPERATION_SLUGS.join(', ')}` }]);
  const chosen = state.filter((c) => ops.includes(c.operation));
  const problems = chosen.flatMap((c) => {
    if (c.status === 'approved' || c.status === 'submitted') return [`${c.operation} is already ${c.status}`];
    const open = c.items.filter((i) => !i.done).map((i) => i.id);
    return open.length > 0 ? [`${c.operation} is not ready: ${open.join(', ')} not done`] : [];
  });
  if (problems.length > 0) throw ApiError.validation([{ field: 'operations', message: problems.join('; ') }]);
  return chosen;
}

/**
 * Submits operations for live use, each with its checklist as it stands. Errors: validation
 * (`operations`), forbidden (no person named).
 */
export function submit(db: Db, actor: Actor, input: { accountId: string; operations: string[] }) {
  const by = person(actor);
  const ops = [...new Set(input.operations)];
  if (ops.length === 0) throw ApiError.validation([{ field: 'operations', message: 'operations must name at least one operation' }]);
  return adminAction(db, actor, async (trx) => {
    const chosen = submittable(ops, (await checklist(trx, input.accountId, OPERATION_SLUGS)).operations);
    const byUser = (await trx.selectFrom('console_users').select('id').where('email', '=', by).executeTakeFirst())?.id ?? null;
    const rows: Submission[] = [];
    for (const c of chosen) rows.push(await insertSubmission(trx, { accountId: input.accountId, operation: c.operation, by, byUser, checklist: c.items }));
    const events = rows.map((r) => ({ accountId: r.account_id, environment: 'live' as const, action: 'go-live submit', detail: { submission_id: r.id, operation: r.operation, submitted_by: by, submitted_by_user: byUser } }));
    return { result: { submissions: rows.map(submissionView) }, event: events };
  });
}

/** Errors: not_found, validation (`id`: already decided). */
async function openSubmission(trx: Trx, id: string): Promise<Submission> {
  const s = await lockSubmission(trx, id);
  if (!s) throw new ApiError('not_found', `No go-live submission ${id}`);
  if (s.state !== 'submitted') throw ApiError.validation([{ field: 'id', message: `go-live submission ${id} is already ${s.state}` }]);
  return s;
}

/**
 * A second person, an admin, approves a submission: the operation is approved for live use at once.
 * Errors: not_found, validation (already decided), forbidden (the submitter; not a named admin).
 */
export function approve(db: Db, actor: Actor, input: { id: string }) {
  return adminAction(db, actor, async (trx) => {
    const s = await openSubmission(trx, input.id);
    const checker = await requireAdminPerson(trx, actor, 'A go-live approval');
    assertChecker(checker, { id: s.submitted_by_user, email: s.submitted_by }, s.submitted_at, `go-live submission ${s.id}`);
    await grant(trx, s.account_id, [s.operation]);
    const done = await decideSubmission(trx, s.id, { state: 'approved', by: checker.email, byUser: checker.id, reason: null });
    const detail = { submission_id: s.id, operation: s.operation, submitted_by: s.submitted_by, submitted_by_user: s.submitted_by_user, ...checkerFacts(checker) };
    return { result: { submission: submissionView(done), approved: await listApprovals(trx, s.account_id) }, event: { accountId: s.account_id, environment: 'live', action: 'go-live approve', detail } };
  });
}

/** Rejects a submission with a reason; nothing is granted. Errors: not_found, validation (reason, already decided), forbidden. */
export function reject(db: Db, actor: Actor, input: { id: string; reason?: string }) {
  const reason = boundedText('reason', input.reason, REASON_MAX, true);
  return adminAction(db, actor, async (trx) => {
    const s = await openSubmission(trx, input.id);
    const by = await requireAdminPerson(trx, actor, 'A go-live rejection');
    const done = await decideSubmission(trx, s.id, { state: 'rejected', by: by.email, byUser: by.id, reason });
    const detail = { submission_id: s.id, operation: s.operation, submitted_by: s.submitted_by, rejected_by: by.email, rejected_by_user: by.id, reason };
    return { result: { submission: submissionView(done) }, event: { accountId: s.account_id, environment: 'live', action: 'go-live reject', detail } };
  });
}

export { submissionView as submissionOf };
