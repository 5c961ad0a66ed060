// Owns the batches API (CONTRACT §12): submit (a JSON body of items, or a CSV or NDJSON upload with
// ?operation=), read a batch with its counts, page through its items in row order, download its results
// as CSV or NDJSON in row order, and cancel it. Always the calling key's account and environment. The
// console's batches page (routes/console/api/batches.ts) takes its uploads, answers, results and cancel
// message from here, so a batch reads the same whichever way it came.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { ApiError } from '../../../errors.js';
import { okEnvelope } from '../../../http/envelope.js';
import { compile, compileText, toFieldErrors } from '../../../http/validation.js';
import { Envelope, Nullable, Page, responses } from '../../../http/responses.js';
import { OPERATION_SLUGS } from '../../../operations/registry.js';
import type { BatchItemStatus } from '../../../db/schema.js';
import type { Batches } from '../../../batches/index.js';
import { itemRows, MAX_JSON_ITEMS, UPLOAD_LIMIT, UploadText, uploadRows, type RawRow, type UploadFormat } from '../../../batches/upload.js';
import { operationOf, submitBatch, type Submitted } from '../../../batches/submit.js';
import { resultsStream } from '../../../batches/results.js';
import type { BatchRow, BatchView } from '../../../batches/store.js';

const TAGS = ['Batches'];
export const Operation = Type.String({ enum: [...OPERATION_SLUGS], description: 'The operation every row runs', errorMessage: `operation must be one of ${OPERATION_SLUGS.join(', ')}` });
export const ClientBatchId = Type.String({ pattern: '^[A-Za-z0-9._:-]{1,64}$', description: 'Your id for the batch: the same one again answers the existing batch', errorMessage: 'client_batch_id must be 1-64 letters, digits, . _ : -' });
export const OnError = Type.Union([Type.Literal('continue'), Type.Literal('stop')], { description: 'continue (default): run every valid row; stop: refuse a batch with a bad row, and stop at the first failed row', errorMessage: 'on_error must be continue or stop' });
export const ValidateOnly = Type.Boolean({ description: 'Check every row and run none', errorMessage: 'validate_only must be true or false' });

const SubmitBody = Type.Object(
  {
    operation: Operation,
    items: Type.Array(Type.Object({}, { additionalProperties: true }), { minItems: 1, maxItems: MAX_JSON_ITEMS, description: "Each an operation body as that operation's own call takes it", errorMessage: `items must be 1 to ${MAX_JSON_ITEMS} objects` }),
    client_batch_id: Type.Optional(ClientBatchId),
    validate_only: Type.Optional(ValidateOnly),
    on_error: Type.Optional(OnError),
  },
  { additionalProperties: false },
);
const SubmitQuery = Type.Object({ operation: Type.Optional(Operation), client_batch_id: Type.Optional(ClientBatchId), validate_only: Type.Optional(ValidateOnly), on_error: Type.Optional(OnError) });

const Status = Type.Union(['validating', 'running', 'completed', 'cancelled', 'failed'].map((s) => Type.Literal(s)));
const Counts = Type.Object({ total: Type.Integer(), invalid: Type.Integer(), pending: Type.Integer({ description: 'Not yet run, running, or pending at the partner' }), success: Type.Integer(), failed: Type.Integer(), cancelled: Type.Integer({ description: 'Not started when the batch was cancelled or stopped' }) });
const Batch = Type.Object({
  id: Type.String(),
  operation: Type.String(),
  environment: Type.Union([Type.Literal('sandbox'), Type.Literal('live')]),
  status: Status,
  client_batch_id: Nullable(Type.String()),
  on_error: OnError,
  message: Nullable(Type.String({ description: 'Why it stopped or was cancelled' })),
  counts: Counts,
  created_at: Type.String({ format: 'date-time' }),
  completed_at: Nullable(Type.String({ format: 'date-time' })),
});
const RowError = Type.Object({ row: Type.Integer(), field: Type.String(), message: Type.String() });
const Validated = Type.Object({ validate_only: Type.Literal(true), operation: Type.String(), environment: Type.String(), counts: Counts, errors: Type.Array(RowError, { description: 'The bad rows (at most 1,000 listed)' }) });
const ItemStatus = Type.Union(['queued', 'running', 'pending', 'success', 'failed', 'invalid', 'cancelled'].map((s) => Type.Literal(s)));
const Item = Type.Object({
  row: Type.Integer({ description: '1 is the first item (the first line after a CSV header)' }),
  reference_id: Nullable(Type.String()),
  status: ItemStatus,
  http_status: Nullable(Type.Integer({ description: "The HTTP status the operation's own call would have answered" })),
  result: Nullable(Type.Object({}, { additionalProperties: true, description: "The operation's answer data (or the error's; an invalid row's errors)" })),
});
const Cursor = Type.String({ maxLength: 40, pattern: '^[A-Za-z0-9_-]+$', description: 'next_cursor of the previous page', errorMessage: 'cursor is not valid: use next_cursor from a previous page' });
const ItemsQuery = Type.Object({
  status: Type.Optional(ItemStatus),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100, errorMessage: 'limit must be 1 to 1000' })),
  cursor: Type.Optional(Cursor),
});
export const ResultsQuery = Type.Object({ format: Type.Optional(Type.Union([Type.Literal('csv'), Type.Literal('ndjson')], { default: 'csv', errorMessage: 'format must be csv or ndjson' })) });
export const IdParams = Type.Object({ id: Type.String({ pattern: '^bat_[A-Za-z0-9]{1,40}$', errorMessage: 'id must be a batch id (bat_…)' }) });

const validateBody = compile(SubmitBody);

const rowAfter = (cursor: string | undefined): number => {
  if (!cursor) return 0;
  const n = Number(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!Number.isSafeInteger(n) || n < 0) throw ApiError.validation([{ field: 'cursor', message: 'cursor is not valid: use next_cursor from a previous page' }]);
  return n;
};

/** The rows and options of a submission: a JSON body, or an upload with its options in the query string. */
function readSubmission(req: FastifyRequest<{ Querystring: Static<typeof SubmitQuery> }>) {
  const q = req.query;
  if (req.body instanceof UploadText) {
    if (!q.operation) throw ApiError.validation([{ field: 'operation', message: 'operation is required in the query string of an upload (?operation=)' }]);
    const format = uploadFormat(req);
    const rows: RawRow[] = uploadRows(operationOf(q.operation), format, req.body.text);
    return { operation: q.operation, rows, source: format === 'csv' ? ('query' as const) : ('body' as const), clientBatchId: q.client_batch_id, validateOnly: q.validate_only ?? false, onError: q.on_error ?? 'continue' };
  }
  if (!validateBody(req.body)) throw ApiError.validation(toFieldErrors(validateBody.errors, 'body'));
  const b = req.body as Static<typeof SubmitBody>;
  return { operation: b.operation, rows: itemRows(b.items), source: 'body' as const, clientBatchId: b.client_batch_id, validateOnly: b.validate_only ?? false, onError: b.on_error ?? 'continue' };
}

/** The format of an upload: its Content-Type, one of the two the upload parser accepts. */
export const uploadFormat = (req: FastifyRequest): UploadFormat => (/^text\/csv/i.test(String(req.headers['content-type'])) ? 'csv' : 'ndjson');

/** What a batch submission takes (a 415 names them). */
export const UPLOAD_MEDIA_TYPES = ['application/json', 'text/csv', 'application/x-ndjson'];

/** Reads a text/csv or application/x-ndjson body (up to UPLOAD_LIMIT) as an UploadText, in `scope` only. */
export function acceptUploads(scope: FastifyInstance): void {
  const upload = { parseAs: 'string' as const, bodyLimit: UPLOAD_LIMIT };
  scope.addContentTypeParser(['text/csv', 'application/x-ndjson'], upload, (_req: FastifyRequest, body: string, done: (err: Error | null, body?: unknown) => void) => done(null, new UploadText(body)));
}

/** An upload declared larger than a batch takes is refused before its body is read. */
export async function refuseLargeUpload(req: FastifyRequest): Promise<void> {
  const length = Number(req.headers['content-length'] ?? 0);
  if (length > UPLOAD_LIMIT) {
    throw new ApiError('body_too_large', `The upload is ${(length / 1048576).toFixed(1)} MiB; a batch takes at most ${UPLOAD_LIMIT / 1048576} MiB (100,000 rows): split it into several batches`);
  }
}

/** The answer to a submission: the batch (TUP), or what validate_only found. */
export function answer(reply: FastifyReply, s: Submitted) {
  if (s.kind === 'validated') {
    const counts = { total: s.total, invalid: s.invalid, pending: 0, success: 0, failed: 0, cancelled: 0 };
    const message = s.invalid ? `Checked: ${s.invalid} of ${s.total} rows are invalid; nothing was run` : `Checked: all ${s.total} rows are valid; nothing was run`;
    return reply.send(okEnvelope(message, { validate_only: true, operation: s.operation, environment: s.environment, counts, errors: s.errors }));
  }
  const message = s.existing ? 'The batch with this client_batch_id (submitted before)' : 'Batch accepted: its rows run in the background';
  return reply.send({ statuscode: 'TUP', ok: true, message, data: s.batch });
}

const TupEnvelope = Type.Object({ statuscode: Type.Literal('TUP'), ok: Type.Literal(true), message: Type.String(), data: Batch }, { description: 'The batch, accepted (or the existing one with this client_batch_id)' });

/** Streams a batch's results file (CSV with a header row, or NDJSON), in row order. */
export function sendResults(reply: FastifyReply, batches: Batches, b: NonNullable<BatchRow>, format: 'csv' | 'ndjson') {
  reply
    .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
    .header('content-disposition', `attachment; filename="${b.id}-results.${format}"`);
  return reply.send(resultsStream(batches.store, b.id, format));
}

/** The answer to a cancel: whether it ended the batch, and the batch. */
export const cancelAnswer = (cancelled: boolean, view: BatchView) =>
  okEnvelope(cancelled ? 'Cancelled: rows not yet started will not run' : `The batch had already ended (${view.status})`, { ...view });

export function registerBatchRoutes(api: FastifyInstance, batches: Batches): void {
  acceptUploads(api);
  registerSubmit(api, batches);
  registerReads(api, batches);
  registerCancel(api, batches);
}

function registerSubmit(api: FastifyInstance, batches: Batches): void {
  api.post<{ Querystring: Static<typeof SubmitQuery> }>(
    '/api/v1/batches',
    {
      bodyLimit: UPLOAD_LIMIT,
      schema: {
        operationId: 'createBatch',
        summary: 'Submit a batch: many rows of one operation, each run as its own call',
        description:
          'A JSON body { operation, items, client_batch_id?, validate_only?, on_error? } with 1 to 1,000 items, or a text/csv (a header naming the fields) ' +
          'or application/x-ndjson upload of up to 100,000 rows (20 MiB) with ?operation=. Rows that fail their checks are invalid and never run; ' +
          'an upload that cannot be read (no header, an unknown column, a NUL, too many rows) is a 422 naming the row and field, and nothing is created. ' +
          'A live batch reserves the sum of its rows (amounts less commission, plus fees) at once: 402 if the balance is short.',
        tags: TAGS,
        querystring: SubmitQuery,
        body: SubmitBody,
        response: responses(Type.Union([TupEnvelope, Envelope(Validated, 'validate_only: the rows checked, none run')]), { errors: [402, 404, 413, 415] }),
      },
      // The body is a JSON object, or an upload read by row (upload.ts): readSubmission validates it.
      validatorCompiler: ({ schema, httpPart }) => (httpPart === 'body' ? () => true : compileText(schema)),
      onRequest: refuseLargeUpload,
      config: { mediaTypes: UPLOAD_MEDIA_TYPES },
    },
    async (req, reply) => {
      const { accountId, environment, keyId } = req.auth!;
      const submitted = await submitBatch(batches.submit, { accountId, environment, keyId, ip: req.ip }, readSubmission(req));
      if (submitted.kind === 'batch' && !submitted.existing) void batches.worker.wake();
      return answer(reply, submitted);
    },
  );

}

/** The batch, its items, its results file, and cancel: always the caller's own batch (404 otherwise). */
function registerReads(api: FastifyInstance, batches: Batches): void {
  api.get<{ Params: Static<typeof IdParams> }>(
    '/api/v1/batches/:id',
    { schema: { operationId: 'getBatch', summary: 'A batch: status and counts', tags: TAGS, params: IdParams, response: responses(Envelope(Batch), { errors: [404] }) } },
    async (req) => {
      const b = await batches.store.owned(req.auth!.accountId, req.auth!.environment, req.params.id);
      return okEnvelope(`Batch ${b.status}`, { ...(await batches.store.view(b.id)) });
    },
  );

  api.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof ItemsQuery> }>(
    '/api/v1/batches/:id/items',
    { schema: { operationId: 'listBatchItems', summary: "A batch's rows in row order, page by page", tags: TAGS, params: IdParams, querystring: ItemsQuery, response: responses(Envelope(Page(Item, Cursor)), { errors: [404] }) } },
    async (req) => {
      const b = await batches.store.owned(req.auth!.accountId, req.auth!.environment, req.params.id);
      const limit = req.query.limit ?? 100;
      const items = await batches.store.items(b.id, { status: req.query.status as BatchItemStatus | undefined, afterRow: rowAfter(req.query.cursor), limit });
      const next = items.length === limit ? Buffer.from(String(items.at(-1)!.row)).toString('base64url') : null;
      return okEnvelope('Batch items', { items, next_cursor: next });
    },
  );

  api.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof ResultsQuery> }>(
    '/api/v1/batches/:id/results',
    {
      schema: {
        operationId: 'getBatchResults',
        summary: "Every row's result in row order, as CSV or NDJSON (streamed)",
        tags: TAGS,
        params: IdParams,
        querystring: ResultsQuery,
        response: responses(
          {
            description: 'CSV with a header (row, reference_id, status, http_status, message, errors, result), or one JSON object a line',
            content: { 'text/csv': { schema: Type.String() }, 'application/x-ndjson': { schema: Type.String() } },
          },
          { errors: [404] },
        ),
      },
    },
    async (req, reply) => {
      const b = await batches.store.owned(req.auth!.accountId, req.auth!.environment, req.params.id);
      return sendResults(reply, batches, b, req.query.format ?? 'csv');
    },
  );
}

function registerCancel(api: FastifyInstance, batches: Batches): void {
  api.post<{ Params: Static<typeof IdParams> }>(
    '/api/v1/batches/:id/cancel',
    {
      config: { bodyOptional: true },
      schema: { operationId: 'cancelBatch', summary: 'Cancel a batch: rows not yet started are not run', tags: TAGS, params: IdParams, response: responses(Envelope(Batch), { errors: [404, 413, 415] }) },
    },
    async (req) => {
      const b = await batches.store.owned(req.auth!.accountId, req.auth!.environment, req.params.id);
      const cancelled = await batches.store.end(b.id, true);
      return cancelAnswer(cancelled, await batches.store.view(b.id));
    },
  );
}
