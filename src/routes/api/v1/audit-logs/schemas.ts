// Owns what the audit log routes share: the filters (also the console's), the opaque cursor, and the
// rule that a key reads only its own environment's rows.
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ApiError } from '../../../../errors.js';
import type { AuditFilters } from '../../../../audit/search.js';

export const TAGS = ['Audit logs'];

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
export const Cursor = Type.String({ maxLength: 200, pattern: '^[A-Za-z0-9_-]+$', description: 'next_cursor of the previous page (opaque base64url text)', errorMessage: CURSOR_INVALID });

/** The filters narrowed to the key's environment; asking for the other one is a 422, not a silent empty page. */
export function ownEnvironment(req: FastifyRequest, filters: AuditFilters): AuditFilters {
  const environment = req.auth!.environment;
  if (filters.environment && filters.environment !== environment) {
    throw ApiError.validation([{ field: 'environment', message: `environment must be ${environment}: a ${environment} key reads only ${environment} audit logs` }]);
  }
  return { ...filters, environment };
}
