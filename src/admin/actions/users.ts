// Owns the console user actions: listing console users, creating one (an admin, a client user of one
// account, or both), from the CLI (`users create`) and the console's admin area alike, and deciding on
// a new admin.
//
// A new admin is a maker-checker action of its own (issue #37): an admin made from the console waits
// for another admin, one whose rights were already in effect when it was made and who did not make it,
// to approve it (`users approve-admin`, the console's Users page); until then it signs in as a
// non-admin and can check nothing. Effective at once: the very first admin (no admin in effect yet), and
// an admin made by the operator's command line (`sangam users create --admin`, which needs shell access
// to the server). Every step is an ADMIN audit row naming who made and who approved the admin.
import { sql } from 'kysely';
import type { Db } from '../../db/client.js';
import type { Trx } from '../../db/transaction.js';
import { ApiError } from '../../errors.js';
import { createUser } from '../../console/users.js';
import { adminAction, type Actor } from './run.js';
import { assertChecker, boundedText, checkerFacts, requireAdminPerson } from './people.js';

const EMAIL = /^[^@\s]+@[^@\s]+$/;
const REASON_MAX = 1000;

export interface UserView {
  id: string;
  email: string;
  is_admin: boolean;
  /** `effective`, `pending` (waits for another admin's approval), or null (not an admin). */
  admin: 'effective' | 'pending' | null;
  admin_since: string | null;
  admin_created_by: string | null;
  admin_approved_by: string | null;
  account_id: string | null;
  account_name: string | null;
  created_at: string;
}

export async function list(db: Db): Promise<UserView[]> {
  const rows = await db
    .selectFrom('console_users as u')
    .leftJoin('accounts as a', 'a.id', 'u.account_id')
    .select(['u.id', 'u.email', 'u.is_admin', 'u.admin_since', 'u.admin_created_by', 'u.admin_approved_by', 'u.account_id', 'a.name as account_name', 'u.created_at'])
    .orderBy('u.created_at')
    .limit(1000)
    .execute();
  return rows.map((r) => ({
    ...r,
    is_admin: r.is_admin && r.admin_since !== null,
    admin: r.is_admin ? (r.admin_since ? 'effective' : 'pending') : null,
    admin_since: r.admin_since?.toISOString() ?? null,
    created_at: r.created_at.toISOString(),
  }));
}

/** A console user's password: the rule the console's form (its schema) and the CLI both apply. */
export const PASSWORD = { minLength: 10, maxLength: 1024, errorMessage: 'password must be 10 to 1024 characters' } as const;

/**
 * Who makes a new admin, and whether its rights start at once: the operator's CLI (`cli`) and the very
 * first admin do; an admin made by a console admin waits for approval. Errors: forbidden (an actor
 * that is neither the operator's CLI nor an admin in effect, once an admin exists).
 */
async function adminGrant(trx: Trx, actor: Actor): Promise<{ effective: boolean; createdBy: string | null }> {
  if (actor === 'cli') return { effective: true, createdBy: null };
  const anyAdmin = await trx.selectFrom('console_users').select('id').where('is_admin', '=', true).where('admin_since', 'is not', null).limit(1).executeTakeFirst();
  if (!anyAdmin) return { effective: true, createdBy: null };
  const maker = await requireAdminPerson(trx, actor, 'Making an admin');
  return { effective: false, createdBy: maker.id };
}

/**
 * Creates a console user; audited on the account it is attached to (none for an operator). An admin
 * made from the console waits for another admin's approval (module header). Errors: validation (email:
 * not an address, or taken; password: not 10 to 1,024 characters, PASSWORD), not_found (account),
 * forbidden (an admin made by someone who is not an admin in effect).
 */
export async function create(db: Db, actor: Actor, input: { email: string; password: string; isAdmin: boolean; accountId: string | null }) {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw ApiError.validation([{ field: 'email', message: 'email must be an email address' }]);
  if (input.password.length < PASSWORD.minLength || input.password.length > PASSWORD.maxLength) throw ApiError.validation([{ field: 'password', message: PASSWORD.errorMessage }]);
  const taken = await db.selectFrom('console_users').select('id').where('email', '=', email).executeTakeFirst();
  if (taken) throw ApiError.validation([{ field: 'email', message: `a console user with email ${email} already exists` }]);
  return adminAction(db, actor, async (trx) => {
    const grant = input.isAdmin ? await adminGrant(trx, actor) : null;
    const user = await createUser(trx, email, input.password, input.isAdmin, input.accountId, grant ?? undefined);
    const admin = grant ? { admin: grant.effective ? 'effective' : 'pending', admin_created_by: grant.createdBy } : {};
    const detail = { user_id: user.id, email, is_admin: input.isAdmin, ...admin };
    return { result: { ...user, ...(grant && { admin: grant.effective ? 'effective' : 'pending' }) }, event: { accountId: input.accountId, action: 'users create', detail } };
  });
}

/** The user, locked, who must be an admin waiting for approval. Errors: not_found, validation (`id`: not a pending admin). */
async function lockPending(trx: Trx, userId: string) {
  const u = await trx.selectFrom('console_users').select(['id', 'email', 'is_admin', 'admin_since', 'admin_created_by', 'account_id', 'created_at']).where('id', '=', userId).forUpdate().executeTakeFirst();
  if (!u) throw new ApiError('not_found', `No console user ${userId}`);
  if (!u.is_admin || u.admin_since) throw ApiError.validation([{ field: 'id', message: `${u.email} is not an admin waiting for approval` }]);
  return u;
}

/**
 * Approves a pending admin: its rights take effect now. The operator's CLI (`cli`) may approve; a
 * console admin (or the CLI with --as) must be an admin in effect since before the admin was made, and
 * not the one who made it. Errors: not_found, validation (not a pending admin), forbidden (maker-checker).
 */
export function approveAdmin(db: Db, actor: Actor, input: { userId: string }) {
  return adminAction(db, actor, async (trx) => {
    const u = await lockPending(trx, input.userId);
    const checker = actor === 'cli' ? null : await requireAdminPerson(trx, actor, 'Approving an admin');
    if (checker) {
      const maker = u.admin_created_by ? await trx.selectFrom('console_users').select(['id', 'email']).where('id', '=', u.admin_created_by).executeTakeFirst() : undefined;
      assertChecker(checker, maker ?? { id: u.id, email: u.email }, u.created_at, `the admin ${u.email}`);
    }
    const done = await trx
      .updateTable('console_users')
      .set({ admin_since: sql<Date>`now()`, admin_approved_by: checker?.id ?? null })
      .where('id', '=', u.id)
      .returning(['admin_since'])
      .executeTakeFirstOrThrow();
    const detail = { user_id: u.id, email: u.email, admin_created_by: u.admin_created_by, admin_approved_by: checker?.id ?? null, ...(checker && checkerFacts(checker)) };
    return { result: { id: u.id, email: u.email, admin: 'effective', admin_since: done.admin_since!.toISOString(), admin_created_by: u.admin_created_by, admin_approved_by: checker?.id ?? null }, event: { accountId: u.account_id, action: 'users approve-admin', detail } };
  });
}

/**
 * Refuses a pending admin with a reason: the user stays, without admin rights. Errors: not_found,
 * validation (not a pending admin; reason), forbidden (not the operator's CLI nor an admin in effect).
 */
export function rejectAdmin(db: Db, actor: Actor, input: { userId: string; reason?: string }) {
  const reason = boundedText('reason', input.reason, REASON_MAX, true);
  return adminAction(db, actor, async (trx) => {
    const u = await lockPending(trx, input.userId);
    const by = actor === 'cli' ? null : await requireAdminPerson(trx, actor, 'Refusing an admin');
    await trx.updateTable('console_users').set({ is_admin: false }).where('id', '=', u.id).execute();
    const detail = { user_id: u.id, email: u.email, admin_created_by: u.admin_created_by, rejected_by: by?.id ?? null, reason };
    return { result: { id: u.id, email: u.email, admin: null }, event: { accountId: u.account_id, action: 'users reject-admin', detail } };
  });
}
