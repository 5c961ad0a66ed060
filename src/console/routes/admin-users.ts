// Owns the admin area's console users screen (admins only, checked by admin.ts's hook): the users with
// their admin flag and account, and creating one through the shared admin action (audited as
// console:<email>, the same action `sangam users create` takes).
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Db } from '../../db/client.js';
import { okEnvelope } from '../../http/envelope.js';
import { users } from '../../admin/actions/index.js';
import { actorOf } from './context.js';

const NewUser = Type.Object({
  email: Type.String({ minLength: 3, maxLength: 254, errorMessage: 'email must be an email address' }),
  password: Type.String({ ...users.PASSWORD }),
  is_admin: Type.Boolean({ errorMessage: 'is_admin must be true or false' }),
  account_id: Type.Union([Type.String({ pattern: '^acct_[0-9A-Za-z]{16}$' }), Type.Null()], { errorMessage: 'account_id must be an account id (acct_…) or null' }),
});

export function registerAdminUsers(api: FastifyInstance, db: Db): void {
  api.get('/console/api/admin/users', { schema: { hide: true } }, async () => okEnvelope('Console users', { items: await users.list(db) }));

  api.post<{ Body: Static<typeof NewUser> }>('/console/api/admin/users', { schema: { hide: true, body: NewUser } }, async (req) => {
    const { email, password, is_admin, account_id } = req.body;
    const created = await users.create(db, actorOf(req), { email, password, isAdmin: is_admin, accountId: account_id });
    return okEnvelope('Console user created', { id: created.id, email: email.trim().toLowerCase(), is_admin, account_id });
  });
}
