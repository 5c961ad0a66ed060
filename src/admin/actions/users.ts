// Owns the console user actions: listing console users and creating one (an admin, a client user of
// one account, or both), from the CLI (`users create`) and the console's admin area alike.
import type { Db } from '../../db/client.js';
import { ApiError } from '../../errors.js';
import { createUser } from '../../console/users.js';
import { adminAction, type Actor } from './run.js';

const EMAIL = /^[^@\s]+@[^@\s]+$/;

export interface UserView {
  id: string;
  email: string;
  is_admin: boolean;
  account_id: string | null;
  account_name: string | null;
  created_at: string;
}

export async function list(db: Db): Promise<UserView[]> {
  const rows = await db
    .selectFrom('console_users as u')
    .leftJoin('accounts as a', 'a.id', 'u.account_id')
    .select(['u.id', 'u.email', 'u.is_admin', 'u.account_id', 'a.name as account_name', 'u.created_at'])
    .orderBy('u.created_at')
    .limit(1000)
    .execute();
  return rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() }));
}

/** A console user's password: the rule the console's form (its schema) and the CLI both apply. */
export const PASSWORD = { minLength: 10, maxLength: 1024, errorMessage: 'password must be 10 to 1024 characters' } as const;

/**
 * Creates a console user; audited on the account it is attached to (none for an operator).
 * Errors: validation (email: not an address, or taken; password: not 10 to 1,024 characters,
 * PASSWORD), not_found (account).
 */
export async function create(db: Db, actor: Actor, input: { email: string; password: string; isAdmin: boolean; accountId: string | null }) {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw ApiError.validation([{ field: 'email', message: 'email must be an email address' }]);
  if (input.password.length < PASSWORD.minLength || input.password.length > PASSWORD.maxLength) throw ApiError.validation([{ field: 'password', message: PASSWORD.errorMessage }]);
  const taken = await db.selectFrom('console_users').select('id').where('email', '=', email).executeTakeFirst();
  if (taken) throw ApiError.validation([{ field: 'email', message: `a console user with email ${email} already exists` }]);
  return adminAction(db, actor, async (trx) => {
    const user = await createUser(trx, email, input.password, input.isAdmin, input.accountId);
    const detail = { user_id: user.id, email, is_admin: input.isAdmin };
    return { result: user, event: { accountId: input.accountId, action: 'users create', detail } };
  });
}
