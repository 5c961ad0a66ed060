// Owns the client's IP allow-list page, through the shared admin actions (audited as console:<email>).
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Db } from '../../../db/client.js';
import { okEnvelope } from '../../../http/envelope.js';
import { allowlist } from '../../../admin/actions/index.js';
import { accountOf, actorOf, Env } from './context.js';

const Query = Type.Object({ environment: Env });
const Entry = Type.Object({ environment: Env, entry: Type.String({ minLength: 1, maxLength: 64 }) });

export function registerAllowlist(api: FastifyInstance, db: Db): void {
  api.get<{ Querystring: Static<typeof Query> }>('/console/api/allowlist', { schema: { hide: true, querystring: Query } }, async (req) => {
    const { environment, entries } = await allowlist.list(db, accountOf(req), req.query.environment);
    return okEnvelope('Allow-list', { environment, entries });
  });

  for (const [method, change] of [['POST', allowlist.add], ['DELETE', allowlist.remove]] as const) {
    api.route<{ Body: Static<typeof Entry> }>({
      method,
      url: '/console/api/allowlist',
      schema: { hide: true, body: Entry },
      handler: async (req) => {
        const { environment, entries } = await change(db, actorOf(req), { accountId: accountOf(req), ...req.body });
        return okEnvelope('Allow-list updated', { environment, entries });
      },
    });
  }
}
