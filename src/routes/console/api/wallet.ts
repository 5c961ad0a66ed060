// Owns the client's wallet statement page: the API's statement (accounts/statement.ts), 100 a page,
// with the same cursor rules, filtered by a transaction's reference (reference_id or txn_id) and a time
// window, and the same rows as a CSV download (csv.ts: amounts stay numbers, formula-looking text is
// neutralised).
import type { FastifyInstance } from 'fastify';
import { Readable, pipeline } from 'node:stream';
import { csvWriter } from '../../../csv.js';
import { Type, type Static } from '@sinclair/typebox';
import type { Db } from '../../../db/client.js';
import { okEnvelope } from '../../../http/envelope.js';
import { statementEntries, statementPage, StatementCursor } from '../../../accounts/statement.js';
import { accountOf } from './context.js';

const Filters = {
  reference: Type.Optional(Type.String({ minLength: 1, maxLength: 64, errorMessage: 'reference must be a reference_id or txn_id of at most 64 characters' })),
  from: Type.Optional(Type.String({ format: 'date-time', errorMessage: 'from must be an ISO 8601 date-time' })),
  to: Type.Optional(Type.String({ format: 'date-time', errorMessage: 'to must be an ISO 8601 date-time' })),
};
const Query = Type.Object({ cursor: Type.Optional(StatementCursor), ...Filters });
const ExportQuery = Type.Object(Filters);
const COLUMNS = ['id', 'created_at', 'kind', 'reference_id', 'txn_id', 'operation', 'status', 'amount', 'balance_after', 'reason'] as const;

const filterOf = (q: Static<typeof ExportQuery>) => ({ reference: q.reference, from: q.from ? new Date(q.from) : undefined, to: q.to ? new Date(q.to) : undefined });

export function registerWallet(api: FastifyInstance, db: Db): void {
  api.get<{ Querystring: Static<typeof Query> }>('/console/api/statement', { schema: { hide: true, querystring: Query } }, async (req) =>
    okEnvelope('Statement', await statementPage(db, accountOf(req), 100, req.query.cursor, undefined, filterOf(req.query))),
  );

  api.get<{ Querystring: Static<typeof ExportQuery> }>('/console/api/statement/export', { schema: { hide: true, querystring: ExportQuery } }, async (req, reply) => {
    const rows = Readable.from(statementEntries(db, accountOf(req), filterOf(req.query)));
    reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="sangam-statement.csv"');
    // The error, if any, is the returned stream's: its reader reports it (as audit/export.ts does).
    return reply.send(pipeline(rows, csvWriter(COLUMNS), () => {}));
  });
}
