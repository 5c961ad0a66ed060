// Owns the client's wallet statement page: the API's statement (accounts/statement.ts), 100 a page,
// with the same cursor rules.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Db } from '../../db/client.js';
import { okEnvelope } from '../../http/envelope.js';
import { statementPage, StatementCursor } from '../../accounts/statement.js';
import { accountOf } from './context.js';

const Query = Type.Object({ cursor: Type.Optional(StatementCursor) });

export function registerWallet(api: FastifyInstance, db: Db): void {
  api.get<{ Querystring: Static<typeof Query> }>('/console/api/statement', { schema: { hide: true, querystring: Query } }, async (req) =>
    okEnvelope('Statement', await statementPage(db, accountOf(req), 100, req.query.cursor)),
  );
}
