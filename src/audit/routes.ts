// Owns the audit log API (CONTRACT §8): search with filters and cursor pagination, one row with its
// redacted bodies, and streamed CSV / NDJSON export — always the calling account's rows, and only
// those of the key's own environment (what one environment creates is invisible from the other).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { okEnvelope } from '../http/envelope.js';
import { ApiError } from '../errors.js';
import type { Services } from '../services.js';
import { eraseReference } from './erasure.js';
import { exportStream } from './export.js';
import { verifiableExport } from './proof.js';
import { auditRow, searchAudit, type AuditFilters } from './search.js';

export const AuditFilterSchema = {
  from: Type.Optional(Type.String({ format: 'date-time', description: 'ISO 8601, inclusive', errorMessage: 'from must be an ISO 8601 date-time' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'ISO 8601, exclusive', errorMessage: 'to must be an ISO 8601 date-time' })),
  operation: Type.Optional(Type.String({ maxLength: 64, description: 'Operation slug' })),
  environment: Type.Optional(Type.Union([Type.Literal('sandbox'), Type.Literal('live')], { errorMessage: 'environment must be sandbox or live' })),
  http_status: Type.Optional(Type.Integer({ minimum: 100, maximum: 599, errorMessage: 'http_status must be an HTTP status code' })),
  ok: Type.Optional(Type.Boolean({ errorMessage: 'ok must be true or false' })),
  reference_id: Type.Optional(Type.String({ maxLength: 64 })),
  key_id: Type.Optional(Type.String({ maxLength: 64 })),
  request_id: Type.Optional(Type.String({ maxLength: 64 })),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Free text in the response message' })),
};
const SearchQuery = Type.Object({
  ...AuditFilterSchema,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50, errorMessage: 'limit must be 1 to 500' })),
  cursor: Type.Optional(Type.String({ maxLength: 200, description: 'next_cursor of the previous page' })),
});
const ExportQuery = Type.Object({
  ...AuditFilterSchema,
  format: Type.Union([Type.Literal('csv'), Type.Literal('ndjson'), Type.Literal('verifiable')], {
    default: 'csv',
    description: 'csv (default), ndjson, or verifiable: NDJSON with hashes and signed checkpoint proofs, checked offline by `sangam audit verify-export` (docs/AUDIT-EXPORT.md)',
    errorMessage: 'format must be csv, ndjson or verifiable',
  }),
});
const ErasureBody = Type.Object(
  { reference_id: Type.String({ pattern: '^[A-Za-z0-9._:-]{1,64}$', description: 'The reference whose personal content is erased', errorMessage: 'reference_id must be 1-64 letters, digits, . _ : -' }) },
  { additionalProperties: false },
);
const TAGS = ['Audit logs'];

/** The filters narrowed to the key's environment; asking for the other one is a 422, not a silent empty page. */
function ownEnvironment(req: FastifyRequest, filters: AuditFilters): AuditFilters {
  const environment = req.auth!.environment;
  if (filters.environment && filters.environment !== environment) {
    throw ApiError.validation([{ field: 'environment', message: `environment must be ${environment}: a ${environment} key reads only ${environment} audit logs` }]);
  }
  return { ...filters, environment };
}

export function registerAuditRoutes(app: FastifyInstance, services: Services): void {
  app.get<{ Querystring: Static<typeof SearchQuery> }>(
    '/api/v1/audit-logs',
    { schema: { summary: 'Search the audit log (newest first)', tags: TAGS, querystring: SearchQuery } },
    async (req) => {
      const { limit, cursor, ...filters } = req.query;
      return okEnvelope('Audit logs', await searchAudit(services.db, req.auth!.accountId, ownEnvironment(req, filters), limit ?? 50, cursor));
    },
  );

  app.get<{ Querystring: Static<typeof ExportQuery> }>(
    '/api/v1/audit-logs/export',
    { schema: { summary: 'Export the audit log as CSV or NDJSON (streamed)', tags: TAGS, querystring: ExportQuery } },
    async (req, reply) => {
      const { format, ...query } = req.query;
      const filters = ownEnvironment(req, query);
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const { accountId, environment } = req.auth!;
      reply
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="sangam-audit-${stamp}.${format === 'verifiable' ? 'verifiable.ndjson' : format}"`);
      return reply.send(
        format === 'verifiable'
          ? verifiableExport(services.db, services.config.auditCheckpoint.signingKey, accountId, environment, filters)
          : exportStream(services.db, accountId, filters, format),
      );
    },
  );

  app.post<{ Body: Static<typeof ErasureBody> }>(
    '/api/v1/erasures',
    {
      schema: {
        summary: "Erase one reference's personal content (audit bodies, stored results, webhook events); proofs and money facts stay",
        tags: TAGS,
        body: ErasureBody,
      },
    },
    async (req) => {
      const { accountId, environment, keyId } = req.auth!;
      const erasure = await eraseReference(services.db, { accountId, environment, referenceId: req.body.reference_id }, `key:${keyId}`);
      return okEnvelope('Erased', { ...erasure });
    },
  );

  app.get<{ Params: { request_id: string } }>(
    '/api/v1/audit-logs/:request_id',
    { schema: { summary: 'One audit log row with its redacted request and response bodies', tags: TAGS, params: Type.Object({ request_id: Type.String({ maxLength: 64 }) }) } },
    async (req) => okEnvelope('Audit log', await auditRow(services.db, req.auth!.accountId, req.params.request_id, req.auth!.environment)),
  );
}
