// Owns the admin area's console users screen (admins only, checked by admin.ts's hook): the users with
// their admin state and account, creating one through the shared admin action (audited as
// console:<email>, the same action `sangam users create` takes; an admin made here waits for another
// admin's approval), and approving or refusing such an admin.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Db } from '../../../db/client.js';
import { okEnvelope } from '../../../http/envelope.js';
import { users } from '../../../admin/actions/index.js';
import { actorOf } from './context.js';

const Refusal = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 1000, errorMessage: 'reason must be 1 to 1000 characters' }) });
type Id = { Params: { id: string } };

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
    const pending = created.admin === 'pending';
    const message = pending ? 'Console user created; its admin rights wait for approval by another admin' : 'Console user created';
    return okEnvelope(message, { id: created.id, email: email.trim().toLowerCase(), is_admin: is_admin && !pending, admin: created.admin ?? null, account_id });
  });

  api.post<Id>('/console/api/admin/users/:id/approve-admin', { schema: { hide: true } }, async (req) =>
    okEnvelope('Admin approved', await users.approveAdmin(db, actorOf(req), { userId: req.params.id })),
  );

  api.post<Id & { Body: Static<typeof Refusal> }>('/console/api/admin/users/:id/reject-admin', { schema: { hide: true, body: Refusal } }, async (req) =>
    okEnvelope('Admin refused', await users.rejectAdmin(db, actorOf(req), { userId: req.params.id, reason: req.body.reason })),
  );
}
