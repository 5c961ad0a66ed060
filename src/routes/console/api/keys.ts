// Owns the client's key pages: list, create (with a name), roll, revoke — on the signed-in user's account only,
// through the shared admin actions (audited as console:<email>).
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Db } from '../../../db/client.js';
import { okEnvelope } from '../../../http/envelope.js';
import { listKeys } from '../../../accounts/store.js';
import { keys } from '../../../admin/actions/index.js';
import { accountOf, actorOf, Env } from './context.js';

const Create = Type.Object({ environment: Env, name: Type.Optional(Type.String({ maxLength: 100, errorMessage: 'name must be at most 100 characters' })) });
const Grace = Type.Object({ grace_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 30 * 86_400 })) });

export function registerKeys(api: FastifyInstance, db: Db): void {
  api.get('/console/api/keys', { schema: { hide: true } }, async (req) => okEnvelope('Keys', { items: await listKeys(db, accountOf(req)) }));

  api.post<{ Body: Static<typeof Create> }>('/console/api/keys', { schema: { hide: true, body: Create } }, async (req) => {
    const k = await keys.create(db, actorOf(req), { accountId: accountOf(req), environment: req.body.environment, name: req.body.name, requireApproval: true });
    return okEnvelope('Key created: copy it now, it is not shown again', k);
  });

  api.post<{ Params: { id: string }; Body: Static<typeof Grace> }>('/console/api/keys/:id/roll', { schema: { hide: true, body: Grace } }, async (req) => {
    const graceS = req.body?.grace_seconds ?? 86_400;
    const rolled = await keys.roll(db, actorOf(req), { keyId: req.params.id, graceS, accountId: accountOf(req) });
    return okEnvelope('Key rolled: copy the new key now', rolled);
  });

  api.post<{ Params: { id: string } }>('/console/api/keys/:id/revoke', { schema: { hide: true } }, async (req) => {
    const revoked = await keys.revoke(db, actorOf(req), { keyId: req.params.id, accountId: accountOf(req) });
    return okEnvelope('Key revoked', revoked);
  });
}
