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
import { Envelope, Nullable, Page, responses } from '../http/responses.js';
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
/** An opaque cursor: base64url text, as next_cursor gives it; anything else is the 422 decodeCursor gives. */
const CURSOR_INVALID = 'cursor is not valid: use next_cursor from a previous page';
const Cursor = Type.String({ maxLength: 200, pattern: '^[A-Za-z0-9_-]+$', description: 'next_cursor of the previous page (opaque base64url text)', errorMessage: CURSOR_INVALID });

const nullable = Nullable;
const Environment = Type.Union([Type.Literal('sandbox'), Type.Literal('live')]);
const ItemFields = {
  id: Type.Integer(),
  request_id: Type.String({ description: 'The X-Request-Id its response carried' }),
  created_at: Type.String({ format: 'date-time' }),
  operation: nullable(Type.String({ description: 'Operation slug; null for other routes' })),
  environment: Nullable(Environment),
  method: Type.String(),
  path: Type.String({ description: 'Identity numbers masked' }),
  http_status: Type.Integer(),
  ok: Type.Boolean(),
  statuscode: nullable(Type.String()),
  reference_id: nullable(Type.String()),
  latency_ms: Type.Number(),
  key_id: nullable(Type.String()),
  client_ip: nullable(Type.String()),
};
const AuditItem = Type.Object({ ...ItemFields, message: nullable(Type.String({ description: "The response's message" })) });
/** One row: every stored column, bodies redacted; open, as the store may grow columns. */
const AuditRow = Type.Object(
  {
    ...ItemFields,
    account_id: nullable(Type.String()),
    request_body: Type.Unknown({ description: 'The request body, redacted (JSON or null)' }),
    response_body: Type.Unknown({ description: 'The response body, redacted (JSON or null)' }),
    prev_hash: nullable(Type.String()),
    hash: nullable(Type.String({ description: 'This row in the tamper-evident hash chain' })),
    chain: Type.Integer(),
    seq: Nullable(Type.Integer()),
    data_class: nullable(Type.String({ description: 'identity or bodies: which retention erases the content (docs/DECISIONS.md)' })),
    content_salt: nullable(Type.String({ description: 'Salt of the content commitment; null once erased' })),
    content_hash: nullable(Type.String({ description: 'Salted commitment to client_ip and the bodies (docs/AUDIT-EXPORT.md)' })),
    erased_at: nullable(Type.String({ format: 'date-time', description: 'When the content was erased (retention or an erasure request)' })),
  },
  { additionalProperties: true },
);
const RequestId = Type.String({ maxLength: 64, description: 'A request id, as X-Request-Id gives it: req_ and 20 letters or digits' });

const SearchQuery = Type.Object({
  ...AuditFilterSchema,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50, errorMessage: 'limit must be 1 to 500' })),
  cursor: Type.Optional(Cursor),
});
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
const ErasureBody = Type.Object(
  { reference_id: Type.String({ pattern: '^[A-Za-z0-9._:-]{1,64}$', description: 'The reference whose personal content is erased', errorMessage: 'reference_id must be 1-64 letters, digits, . _ : -' }) },
  { additionalProperties: false },
);
const Erasure = Type.Object({
  reference_id: Type.String(),
  erased_at: Type.String({ format: 'date-time' }),
  audit_rows_erased: Type.Integer({ description: 'Audit rows whose content was erased now' }),
  audit_rows_kept_legacy: Type.Integer({ description: 'Rows from before content commitments: kept until metadata retention' }),
  transactions_scrubbed: Type.Integer(),
  webhook_events_scrubbed: Type.Integer(),
});
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
    { schema: { operationId: 'listAuditLogs', summary: 'Search the audit log (newest first)', tags: TAGS, querystring: SearchQuery, response: responses(Envelope(Page(AuditItem, Cursor))) } },
    async (req) => {
      const { limit, cursor, ...filters } = req.query;
      return okEnvelope('Audit logs', await searchAudit(services.db, req.auth!.accountId, ownEnvironment(req, filters), limit ?? 50, cursor));
    },
  );

  app.get<{ Querystring: Static<typeof ExportQuery> }>(
    '/api/v1/audit-logs/export',
    {
      schema: {
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
      },
    },
    async (req, reply) => {
      const { format = 'csv', ...query } = req.query;
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
        operationId: 'createErasure',
        summary: "Erase one reference's personal content (audit bodies, stored results, webhook events); proofs and money facts stay",
        description:
          'Empties the client IP and redacted bodies of every audit row with this reference (their hash commitments stay, so the trail still verifies), ' +
          'scrubs the stored transaction result, idempotent answer and webhook events down to status, amounts, UTR and reversal, and records who asked. ' +
          'A transaction still pending is a 422: erase it once final. Rows written before content commitments are counted, not erased.',
        tags: TAGS,
        body: ErasureBody,
        response: responses(Envelope(Erasure), { errors: [413, 415] }),
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
    {
      schema: {
        operationId: 'getAuditLog',
        summary: 'One audit log row with its redacted request and response bodies',
        tags: TAGS,
        params: Type.Object({ request_id: RequestId }),
        response: responses(Envelope(AuditRow), { errors: [404] }),
      },
    },
    async (req) => okEnvelope('Audit log', await auditRow(services.db, req.auth!.accountId, req.params.request_id, req.auth!.environment)),
  );
}
