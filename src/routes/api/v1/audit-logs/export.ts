// Owns the audit log export: streamed CSV or NDJSON, or the verifiable export with its proofs
// (proof.ts, checked offline by `sangam audit verify-export`), of the calling account's rows in the
// key's own environment.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Db } from '../../../../db/client.js';
import { responses } from '../../../../http/responses.js';
import { exportStream } from '../../../../audit/export.js';
import { verifiableExport } from '../../../../audit/proof.js';
import { AuditFilterSchema, ownEnvironment, TAGS } from './schemas.js';

export interface ExportDeps {
  db: Db;
  /** SANGAM_AUDIT_SIGNING_KEY: the verifiable export signs a checkpoint and its end line with it. */
  signingKey: string | undefined;
}

const ExportQuery = Type.Object({
  ...AuditFilterSchema,
  format: Type.Optional(
    Type.Union([Type.Literal('csv'), Type.Literal('ndjson'), Type.Literal('verifiable')], {
      default: 'csv',
      description: 'csv (default), ndjson, or verifiable: NDJSON with hashes and signed checkpoint proofs, checked offline by `sangam audit verify-export` (docs/AUDIT-EXPORT.md)',
      errorMessage: 'format must be csv, ndjson or verifiable',
    }),
  ),
});

const exportSchema = {
  operationId: 'exportAuditLogs',
  summary: 'Export the audit log as CSV, NDJSON or verifiable NDJSON with proofs (streamed)',
  tags: TAGS,
  querystring: ExportQuery,
  response: responses({
    description: 'The matching rows, newest first, as an attachment: CSV with a header line, or one JSON object a line',
    content: {
      'text/csv': { schema: Type.String({ description: 'CSV, one row per audit log entry' }) },
      'application/x-ndjson': {
        schema: Type.String({ description: 'One JSON object a line: the fields of an audit-logs item, or (format=verifiable) the lines of docs/AUDIT-EXPORT.md' }),
      },
    },
  }),
};

export function registerAuditExport(app: FastifyInstance, deps: ExportDeps): void {
  app.get<{ Querystring: Static<typeof ExportQuery> }>('/api/v1/audit-logs/export', { schema: exportSchema }, async (req, reply) => {
    const { format = 'csv', ...query } = req.query;
    const filters = ownEnvironment(req, query);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const { accountId, environment } = req.auth!;
    reply
      .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
      .header('content-disposition', `attachment; filename="sangam-audit-${stamp}.${format === 'verifiable' ? 'verifiable.ndjson' : format}"`);
    return reply.send(format === 'verifiable' ? verifiableExport(deps.db, deps.signingKey, accountId, environment, filters) : exportStream(deps.db, accountId, filters, format));
  });
}
