// Owns the audit logs resource: search with filters and cursor pagination (newest first), and one row
// with its redacted bodies — always the calling account's rows, of the key's own environment.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Db } from '../../../../db/client.js';
import { okEnvelope } from '../../../../http/envelope.js';
import { Envelope, Nullable, Page, responses } from '../../../../http/responses.js';
import { auditRow, searchAudit } from '../../../../audit/search.js';
import { AuditFilterSchema, Cursor, ownEnvironment, TAGS } from './schemas.js';

const Environment = Type.Union([Type.Literal('sandbox'), Type.Literal('live')]);
const ItemFields = {
  id: Type.Integer(),
  request_id: Type.String({ description: 'The X-Request-Id its response carried' }),
  created_at: Type.String({ format: 'date-time' }),
  operation: Nullable(Type.String({ description: 'Operation slug; null for other routes' })),
  environment: Nullable(Environment),
  method: Type.String(),
  path: Type.String({ description: 'Identity numbers masked' }),
  http_status: Type.Integer(),
  ok: Type.Boolean(),
  statuscode: Nullable(Type.String()),
  reference_id: Nullable(Type.String()),
  latency_ms: Type.Number(),
  key_id: Nullable(Type.String()),
  client_ip: Nullable(Type.String()),
};
const AuditItem = Type.Object({ ...ItemFields, message: Nullable(Type.String({ description: "The response's message" })) });
/** One row: every stored column, bodies redacted; open, as the store may grow columns. */
const AuditRow = Type.Object(
  {
    ...ItemFields,
    account_id: Nullable(Type.String()),
    request_body: Type.Unknown({ description: 'The request body, redacted (JSON or null)' }),
    response_body: Type.Unknown({ description: 'The response body, redacted (JSON or null)' }),
    prev_hash: Nullable(Type.String()),
    hash: Nullable(Type.String({ description: 'This row in the tamper-evident hash chain' })),
    chain: Type.Integer(),
    seq: Nullable(Type.Integer()),
    data_class: Nullable(Type.String({ description: 'identity or bodies: which retention erases the content (docs/DECISIONS.md)' })),
    content_salt: Nullable(Type.String({ description: 'Salt of the content commitment; null once erased' })),
    content_hash: Nullable(Type.String({ description: 'Salted commitment to client_ip and the bodies (docs/AUDIT-EXPORT.md)' })),
    erased_at: Nullable(Type.String({ format: 'date-time', description: 'When the content was erased (retention or an erasure request)' })),
  },
  { additionalProperties: true },
);
const RequestId = Type.String({ maxLength: 64, description: 'A request id, as X-Request-Id gives it: req_ and 20 letters or digits' });

const SearchQuery = Type.Object({
  ...AuditFilterSchema,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50, errorMessage: 'limit must be 1 to 500' })),
  cursor: Type.Optional(Cursor),
});

const searchSchema = { operationId: 'listAuditLogs', summary: 'Search the audit log (newest first)', tags: TAGS, querystring: SearchQuery, response: responses(Envelope(Page(AuditItem, Cursor))) };
const rowSchema = {
  operationId: 'getAuditLog',
  summary: 'One audit log row with its redacted request and response bodies',
  tags: TAGS,
  params: Type.Object({ request_id: RequestId }),
  response: responses(Envelope(AuditRow), { errors: [404] }),
};

export function registerAuditSearch(app: FastifyInstance, deps: { db: Db }): void {
  app.get<{ Querystring: Static<typeof SearchQuery> }>('/api/v1/audit-logs', { schema: searchSchema }, async (req) => {
    const { limit, cursor, ...filters } = req.query;
    return okEnvelope('Audit logs', await searchAudit(deps.db, req.auth!.accountId, ownEnvironment(req, filters), limit ?? 50, cursor));
  });
}

export function registerAuditRow(app: FastifyInstance, deps: { db: Db }): void {
  app.get<{ Params: { request_id: string } }>('/api/v1/audit-logs/:request_id', { schema: rowSchema }, async (req) =>
    okEnvelope('Audit log', await auditRow(deps.db, req.auth!.accountId, req.params.request_id, req.auth!.environment)),
  );
}
