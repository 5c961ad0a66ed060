// Owns the client's batches page in the console: the account's batches in one environment (newest
// first, a page at a time, with their counts), one batch, an upload (a CSV or NDJSON file with the
// operation, client_batch_id, validate_only and on_error in the query string), cancel, and the results
// file. Submissions and cancels go through the shared admin actions (admin/actions/batches.ts: the same
// submission path as POST /api/v1/batches, with the batch's key_id `console:<email>`); uploads,
// answers and results are read and written by the API's own helpers (batches/routes.ts).
//
// Live batches are shown, cancelled and downloaded here but not submitted (403): a live batch moves
// money, and a live key is bound by the account's IP allow-list where a console session is not
// (docs/DECISIONS.md, "Batches from the console").
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Db } from '../../../db/client.js';
import { ApiError } from '../../../errors.js';
import { okEnvelope } from '../../../http/envelope.js';
import { OPERATIONS } from '../../../operations/registry.js';
import type { Batches } from '../../../batches/index.js';
import { UPLOAD_LIMIT, UploadText } from '../../../batches/upload.js';
import { acceptUploads, answer, cancelAnswer, ClientBatchId, IdParams, OnError, Operation, refuseLargeUpload, ResultsQuery, sendResults, uploadFormat, ValidateOnly } from '../../api/v1/batches.js';
import { batches as batchActions } from '../../../admin/actions/index.js';
import { accountOf, actorOf, Env } from './context.js';

const ListQuery = Type.Object({
  environment: Env,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, errorMessage: 'limit must be a whole number from 1 to 100' })),
  after: Type.Optional(Type.String({ pattern: IdParams.properties.id.pattern, errorMessage: 'after must be next_cursor from a previous page' })),
});
const EnvQuery = Type.Object({ environment: Env });
const UploadQuery = Type.Object({
  environment: Env,
  operation: Operation,
  client_batch_id: Type.Optional(ClientBatchId),
  validate_only: Type.Optional(ValidateOnly),
  on_error: Type.Optional(OnError),
  file_name: Type.Optional(Type.String({ maxLength: 255 })),
});
const CancelBody = Type.Object({ environment: Env });
const Results = Type.Composite([ResultsQuery, EnvQuery]);
type Id = { Params: Static<typeof IdParams> };

/** What the upload form offers: each operation and the fields a CSV header may name. */
const operations = OPERATIONS.map((o) => ({ slug: o.slug, fields: Object.keys(o.schema.properties) }));

/** A request the console acts on: the signed-in user's account in the environment asked for. */
const scope = (req: FastifyRequest<{ Querystring: { environment: 'sandbox' | 'live' } }>) => ({ accountId: accountOf(req), environment: req.query.environment });

/** Before the body is read: the upload's size, and a type the upload parser reads (a clear 4xx, never a 500). */
async function checkUpload(req: FastifyRequest): Promise<void> {
  await refuseLargeUpload(req);
  const type = String(req.headers['content-type'] ?? '');
  if (type === '' && !Number(req.headers['content-length'] ?? 0) && req.headers['transfer-encoding'] === undefined) {
    throw ApiError.validation([{ field: 'file', message: 'choose a file to upload: a .csv with a header row naming the fields, or an .ndjson file' }]);
  }
  if (!/^(text\/csv|application\/x-ndjson)\s*(;|$)/i.test(type)) {
    throw new ApiError('unsupported_media_type', `An upload is a .csv (text/csv) or .ndjson (application/x-ndjson) file, not ${type || 'a body without a Content-Type'}`);
  }
}

export function registerBatches(api: FastifyInstance, db: Db, batches: Batches): void {
  acceptUploads(api);
  const { store } = batches;

  api.get<{ Querystring: Static<typeof ListQuery> }>('/console/api/batches', { schema: { hide: true, querystring: ListQuery } }, async (req) => {
    const { accountId, environment } = scope(req);
    const limit = req.query.limit ?? 20;
    const items = await store.list(accountId, environment, { after: req.query.after, limit });
    return okEnvelope('Batches', { items, next_cursor: items.length === limit ? items.at(-1)!.id : null, operations });
  });

  api.get<Id & { Querystring: Static<typeof EnvQuery> }>('/console/api/batches/:id', { schema: { hide: true, params: IdParams, querystring: EnvQuery } }, async (req) => {
    const { accountId, environment } = scope(req);
    const b = await store.owned(accountId, environment, req.params.id);
    return okEnvelope(`Batch ${b.status}`, { ...(await store.view(b.id)) });
  });

  api.get<Id & { Querystring: Static<typeof Results> }>('/console/api/batches/:id/results', { schema: { hide: true, params: IdParams, querystring: Results } }, async (req, reply) => {
    const { accountId, environment } = scope(req);
    const b = await store.owned(accountId, environment, req.params.id);
    return sendResults(reply, batches, b, req.query.format ?? 'csv');
  });

  api.post<Id & { Body: Static<typeof CancelBody> }>('/console/api/batches/:id/cancel', { schema: { hide: true, params: IdParams, body: CancelBody } }, async (req) => {
    const r = await batchActions.cancel(db, store, actorOf(req), { accountId: accountOf(req), environment: req.body.environment, id: req.params.id });
    return cancelAnswer(r.cancelled, r.batch);
  });

  registerUpload(api, db, batches);
}

function registerUpload(api: FastifyInstance, db: Db, batches: Batches): void {
  api.post<{ Querystring: Static<typeof UploadQuery> }>(
    '/console/api/batches',
    // The body is the file, read by row (batches/upload.ts); the options are in the query string.
    { bodyLimit: UPLOAD_LIMIT, onRequest: checkUpload, schema: { hide: true, querystring: UploadQuery } },
    async (req, reply) => {
      const { accountId, environment } = scope(req);
      if (environment === 'live') {
        throw new ApiError('forbidden', 'Live batches are not submitted from the console: submit them with a live key (POST /api/v1/batches), which the IP allow-list and live approvals bind');
      }
      if (!(req.body instanceof UploadText)) throw ApiError.validation([{ field: 'file', message: 'choose a file to upload' }]);
      const q = req.query;
      const submitted = await batchActions.submitUpload(db, batches.submit, actorOf(req), {
        accountId,
        environment,
        operation: q.operation,
        format: uploadFormat(req),
        text: req.body.text,
        name: q.file_name ?? 'upload',
        ip: req.ip,
        clientBatchId: q.client_batch_id,
        validateOnly: q.validate_only ?? false,
        onError: q.on_error ?? 'continue',
      });
      if (submitted.kind === 'batch' && !submitted.existing) void batches.worker.wake();
      return answer(reply, submitted);
    },
  );
}
