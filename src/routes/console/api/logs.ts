// Owns the client's log pages: audit search, one row, and streamed CSV / NDJSON export — the
// signed-in user's account only, with the same filters as the API (routes/api/v1/audit-logs/).
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Db } from '../../../db/client.js';
import { okEnvelope } from '../../../http/envelope.js';
import { AuditFilterSchema } from '../../api/v1/audit-logs/schemas.js';
import { auditRow, searchAudit } from '../../../audit/search.js';
import { exportStream } from '../../../audit/export.js';
import { accountOf } from './context.js';

const LogQuery = Type.Object({ ...AuditFilterSchema, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })), cursor: Type.Optional(Type.String({ maxLength: 200 })) });
const ExportQuery = Type.Object({ ...AuditFilterSchema, format: Type.Union([Type.Literal('csv'), Type.Literal('ndjson')]) });

export function registerLogs(api: FastifyInstance, db: Db): void {
  api.get<{ Querystring: Static<typeof LogQuery> }>('/console/api/logs', { schema: { hide: true, querystring: LogQuery } }, async (req) => {
    const { limit, cursor, ...filters } = req.query;
    return okEnvelope('Logs', await searchAudit(db, accountOf(req), filters, limit ?? 50, cursor));
  });

  api.get<{ Querystring: Static<typeof ExportQuery> }>('/console/api/logs/export', { schema: { hide: true, querystring: ExportQuery } }, async (req, reply) => {
    const { format, ...filters } = req.query;
    reply
      .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
      .header('content-disposition', `attachment; filename="sangam-audit.${format}"`);
    return reply.send(exportStream(db, accountOf(req), filters, format));
  });

  api.get<{ Params: { request_id: string } }>('/console/api/logs/:request_id', { schema: { hide: true } }, async (req) =>
    okEnvelope('Log', await auditRow(db, accountOf(req), req.params.request_id)),
  );
}
