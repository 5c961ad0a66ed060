// Owns the response side of the API description (CONTRACT §1), in TypeBox like the requests: the
// envelope around each route's own `data`, the one error envelope (its Errorcodes per HTTP status read
// from the error table in errors.ts), and the headers every answer carries. Routes declare their
// answers with `responses(...)`; Fastify serializes JSON bodies through these schemas (fast-json-stringify),
// and @fastify/swagger publishes them in /openapi.json. A `data` that may carry more than it names (partner
// fields, stored rows) says so with additionalProperties, so serializing never drops a field.
import { OptionalKind, Type, type SchemaOptions, type Static, type TObject, type TOptional, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { ERRORS, ERRORCODE_BUSINESS_FAILURE, ERRORCODE_SUCCESS } from '../errors.js';

const str = (description: string) => Type.String({ description });

/**
 * `schema` or null, written the OpenAPI 3.1 way, as one type list (`type: ['string', 'null']`), not an
 * anyOf: the serializer (fast-json-stringify) must validate each value against every anyOf branch to pick
 * one, which made a 200-row audit page slower to serialize than JSON.stringify (bench/serialize.ts). A
 * schema with no single `type` (a union of literals, an object union) stays an anyOf.
 */
export function Nullable<T extends TSchema>(schema: T, options: SchemaOptions = {}): TUnsafe<Static<T> | null> {
  const plain = JSON.parse(JSON.stringify(schema)) as { type?: unknown; enum?: unknown[] };
  if (typeof plain.type !== 'string') return Type.Unsafe<Static<T> | null>(JSON.parse(JSON.stringify(Type.Union([schema, Type.Null()], options))));
  return Type.Unsafe<Static<T> | null>({ ...plain, ...options, type: [plain.type, 'null'], ...(plain.enum ? { enum: [...plain.enum, null] } : {}) });
}

/** Headers on every answer. */
const REQUEST_ID = {
  'X-Request-Id': Type.String({ pattern: '^req_[0-9A-Za-z]{20}$', description: 'Identifies this request; error data carries it as request_id, and the audit log row has it' }),
  'Server-Timing': str(
    'Where the time went, in milliseconds (W3C Server Timing): `sangam` (Sangam\'s own time), `partner` (a live call\'s partner time), the phases `checks`, `record`, `outcome`, and `total`',
  ),
};

/** The key's token bucket, sent by every authenticated route once the key is known and allowed (access/rate-limit.ts). */
const RATE_LIMIT = {
  'RateLimit-Limit': str("The key's burst: requests it may make at once"),
  'RateLimit-Remaining': str('Requests left in the bucket now'),
  'RateLimit-Reset': str('Seconds until the bucket is full again'),
  'RateLimit-Policy': str('The bucket as `burst;w=seconds`'),
};

const RETRY_AFTER = { 'Retry-After': str('Seconds to wait before retrying') };
const REPLAYED = { 'Idempotent-Replayed': Type.Literal('true', { description: 'Present when this is the stored answer of an earlier request with the same idempotency key (CONTRACT §5)' }) };

const FieldError = Type.Object({
  field: str('The request field, as a dotted path (`body`, `path` or `header` for the whole)'),
  message: Type.String(),
  row: Type.Optional(Type.Integer({ description: 'A batch upload: the row the field is in (1 is the first item; 0 a CSV header)' })),
});

const codesOf = (http: number) => [...new Set(Object.values(ERRORS).filter((e) => e.http === http).map((e) => e.errorcode))];

/** The error envelope of one HTTP status: ERR, ok false, and data with its Errorcode(s) from the error table. */
export function ErrorEnvelope(http: number) {
  const codes = codesOf(http);
  if (codes.length === 0) throw new Error(`no error code answers HTTP ${http} (errors.ts)`);
  return Type.Object(
    {
      statuscode: Type.Literal('ERR'),
      ok: Type.Literal(false),
      message: Type.String(),
      data: Type.Object({
        Errorcode: Type.Unsafe<number>({ type: 'integer', enum: codes, description: 'See the error table (CONTRACT §1)' }),
        Status: Type.Literal('Failed'),
        Message: str('The message; for a 422, the field messages joined'),
        request_id: str('The X-Request-Id of this answer'),
        ...(http === 422 || http === 409 ? { errors: Type.Optional(Type.Array(FieldError, { description: 'One entry per bad field' })) } : {}),
        ...(http === 409 ? { txn_id: Type.Optional(str('Errorcode 114: the transaction the reference_id already names')) } : {}),
      }),
    },
    // The title names the published component (http/openapi.ts shares it across routes).
    { title: `Error${http}`, description: describe(http) },
  );
}

function describe(http: number): string {
  const what: Record<number, string> = {
    400: 'Invalid JSON body (Errorcode 103)',
    401: 'No key, or an unknown, revoked or expired key (Errorcode 101)',
    402: 'Live wallet balance too low for the debit (Errorcode 105)',
    403: 'Client IP not on the allow-list, or live use not approved (Errorcode 102)',
    404: 'No such resource (Errorcode 109)',
    409: 'The same idempotency key is still in flight (Errorcode 106), or the reference_id already names another transaction of the account (Errorcode 114, with its txn_id; nothing was executed)',
    413: 'Body over the limit (Errorcode 111)',
    415: 'Content-Type is not application/json (Errorcode 112)',
    417: 'An Expect header other than 100-continue (Errorcode 103)',
    422: 'Validation failed (Errorcode 104, with errors[]) or an idempotency key reused with another payload (Errorcode 107)',
    429: 'Rate limited (Errorcode 108); see Retry-After',
    500: 'Internal error (Errorcode 199)',
    502: 'Partner network failed before any outcome; nothing was debited (Errorcode 113)',
    504: 'Partner network timed out before any outcome; nothing was debited (Errorcode 113)',
  };
  return what[http] ?? `HTTP ${http}`;
}

/** The envelope of a success: TXN, ok true. */
export const Envelope = (data: TSchema, description = 'Success') =>
  Type.Object({ statuscode: Type.Literal('TXN'), ok: Type.Literal(true), message: Type.String(), data }, { description });

/** The standard result fields every operation answers (CONTRACT §3), in every state. */
export const ResultFields = {
  status: Type.Union([Type.Literal('success'), Type.Literal('pending'), Type.Literal('failed')]),
  reference_id: Type.String(),
  verified_at: Nullable(Type.String({ format: 'date-time' }), { description: 'null while pending' }),
  message: Type.String(),
};

/** Fields a business failure adds to an operation's data (HTTP 200, statuscode ERR; http/envelope.ts resultEnvelope). */
const FailureFields = {
  Errorcode: Type.Integer({ description: `${ERRORCODE_BUSINESS_FAILURE} on a business failure (the seed's ${ERRORCODE_SUCCESS} on a document-locker success)` }),
  Status: Type.String({ description: '"Failed" on a business failure' }),
  Message: Type.String({ description: 'On a business failure: the detail' }),
  request_id: Type.String({ description: 'On a business failure: the X-Request-Id of this answer' }),
};

export type ResultStatus = 'success' | 'pending' | 'failed';
const PRESENT = Symbol('present in');

/**
 * A result field that every answer in `statuses` carries: required in those variants of the answer
 * (so a client that narrows on `statuscode` reads it without a check), optional in the others.
 */
export const PresentIn = <T extends TSchema>(statuses: ResultStatus[], schema: T) => ({ ...Type.Optional(schema), [PRESENT]: statuses }) as TOptional<T>;

export const presentIn = (schema: TSchema, status: ResultStatus) => ((schema as { [PRESENT]?: ResultStatus[] })[PRESENT] ?? []).includes(status);
/** The schema without its Optional modifier: a required property. */
const required = (schema: TSchema): TSchema => {
  const { [OptionalKind]: _, [PRESENT]: __, ...rest } = schema as TSchema & { [PRESENT]?: unknown };
  return rest as TSchema;
};

/** The three answers of an operation, by statuscode (http/envelope.ts resultEnvelope). */
const VARIANTS = [
  { statuscode: 'TXN', ok: true, status: 'success', verified_at: Type.String({ format: 'date-time', description: 'When it completed' }), title: 'Success' },
  // Not `type: 'null'` alone: openapi-fetch's Readable drops a property whose type is exactly null.
  { statuscode: 'TUP', ok: true, status: 'pending', verified_at: ResultFields.verified_at, title: 'Pending' },
  { statuscode: 'ERR', ok: false, status: 'failed', verified_at: ResultFields.verified_at, title: 'Business failure (HTTP 200, Errorcode 120)' },
] as const;

/**
 * The envelope of an operation result, one schema per statuscode (a union a typed client narrows on
 * `statuscode`): TXN with data.status success, TUP with pending, ERR (a business failure, HTTP 200 with
 * Errorcode 120, Status, Message and request_id) with failed. `fields` are the operation's own, required
 * in the variants PresentIn names; partners may add more, so data stays open.
 */
export const ResultEnvelope = (fields: Record<string, TSchema>, description: string) =>
  Type.Union(
    VARIANTS.map((v) => {
      const own = Object.fromEntries(Object.entries(fields).map(([k, s]) => [k, presentIn(s, v.status) ? required(s) : s]));
      const failure = v.status === 'failed' ? FailureFields : Object.fromEntries(Object.entries(FailureFields).map(([k, s]) => [k, Type.Optional(s)]));
      const data = Type.Object(
        { status: Type.Literal(v.status), reference_id: ResultFields.reference_id, verified_at: v.verified_at, message: ResultFields.message, ...own, ...failure },
        { additionalProperties: true },
      );
      return Type.Object({ statuscode: Type.Literal(v.statuscode), ok: Type.Literal(v.ok), message: Type.String(), data }, { description: v.title });
    }),
    { description },
  );

/**
 * An operation's answers after an erasure (transactions/erasure.ts): `erased_at` set, the fields in
 * `kept` (the outcome and the money facts) still required where they were, every other field optional.
 */
export const ErasedResultEnvelope = (fields: Record<string, TSchema>, kept: ReadonlySet<string>, description: string) =>
  ResultEnvelope(
    {
      ...Object.fromEntries(Object.entries(fields).map(([k, s]) => [k, kept.has(k) ? s : Type.Optional(required(s))])),
      erased_at: Type.String({ format: 'date-time', description: "When its content was erased: only the outcome and the money facts remain" }),
    },
    description,
  );

type Schema = TSchema & { headers?: Record<string, TSchema> };
const withHeaders = (s: TSchema, headers: Record<string, TSchema>): Schema => ({ ...s, headers });

export interface ResponseOptions {
  /** Behind the API key guard: 401, 403, 429 and the RateLimit headers. */
  authenticated?: boolean;
  /** Idempotent-Replayed on the 200: only answers of 200 are stored and replayed. */
  replayable?: boolean;
  /** Extra error statuses this route can give. */
  errors?: number[];
}

/** Statuses every route can give: a malformed request, an unmet Expect header, a field the input guard refuses, an internal error. */
const ALWAYS = [400, 417, 422, 500];

/**
 * The `response` map of a route: its 200 and the error envelope on every status it can give, each with
 * its headers. `ok` may be a schema (JSON) or a map of content types to schemas (the export).
 */
export function responses(ok: TSchema | { content: Record<string, { schema: TSchema }>; description?: string }, o: ResponseOptions = {}) {
  const auth = o.authenticated ?? true;
  const common = { ...REQUEST_ID, ...(auth ? RATE_LIMIT : {}) };
  const statuses = [...new Set([...ALWAYS, ...(auth ? [401, 403, 429] : []), ...(o.errors ?? [])])].sort((a, b) => a - b);
  const out: Record<string, Schema> = {
    200: withHeaders(ok as TSchema, { ...common, ...(o.replayable ? REPLAYED : {}) }),
  };
  for (const http of statuses) {
    // Refused before the key is known or allowed: no RateLimit headers.
    const headers = http === 401 || http === 403 ? REQUEST_ID : http === 429 ? { ...common, ...RETRY_AFTER } : common;
    out[http] = withHeaders(ErrorEnvelope(http), headers);
  }
  return out;
}

/** A list page: items and the cursor of the next page (null on the last). */
export const Page = (item: TObject, cursor: TSchema) =>
  Type.Object({ items: Type.Array(item), next_cursor: Nullable(cursor, { description: 'Pass as cursor for the next page; null on the last page' }) });
