// Owns submitting a batch file for an account as an operator (`sangam batches submit`): the file read
// by row as the API reads an upload (CSV by its header, or NDJSON, by the extension), the batch accepted
// exactly as POST /api/v1/batches accepts it (live approval, the live reserve with its 402), and the
// submission recorded as an ADMIN audit event. The rows run in whichever server process runs the batch
// worker, each with its own audit row as an API batch's rows have.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../../db/client.js';
import type { Environment } from '../../db/schema.js';
import { ApprovalGuard } from '../../access/approvals.js';
import { Pricing } from '../../ledger/pricing.js';
import { OPERATIONS } from '../../operations/registry.js';
import { BatchStore } from '../../batches/store.js';
import { operationOf, submitBatch, type Submitted } from '../../batches/submit.js';
import { uploadRows } from '../../batches/upload.js';
import { UsageError } from '../args.js';
import { adminAction, type Actor } from './run.js';

export interface FileSubmission {
  accountId: string;
  environment: Environment;
  operation: string;
  file: string;
  clientBatchId?: string;
  validateOnly: boolean;
}

/** Errors: UsageError (the file), ApiError validation (422: the rows), forbidden (403), insufficient_funds (402). */
export async function submitFile(db: Db, actor: Actor, s: FileSubmission): Promise<Submitted> {
  const format = path.extname(s.file).toLowerCase() === '.csv' ? 'csv' : path.extname(s.file).toLowerCase() === '.ndjson' ? 'ndjson' : null;
  if (!format) throw new UsageError('FILE must be a .csv (a header naming the fields) or .ndjson file');
  let text: string;
  try {
    text = await readFile(path.resolve(s.file), 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${s.file}: ${(err as Error).message}`);
  }
  const def = operationOf(s.operation);
  const deps = { store: new BatchStore(db), routes: null, pricing: new Pricing(db, 0, new Map(OPERATIONS.map((o) => [o.slug, o.feePaise]))), approvals: new ApprovalGuard(db, 0) };
  const submitted = await submitBatch(deps, { accountId: s.accountId, environment: s.environment, keyId: actor, ip: '' }, {
    operation: def.slug,
    rows: uploadRows(def, format, text),
    source: format === 'csv' ? 'query' : 'body',
    clientBatchId: s.clientBatchId,
    validateOnly: s.validateOnly,
    onError: 'continue',
  });
  if (submitted.kind === 'batch' && !submitted.existing) {
    const detail = { batch: submitted.batch.id, operation: def.slug, environment: s.environment, rows: submitted.batch.counts.total, file: path.basename(s.file) };
    await adminAction(db, actor, async () => ({ result: null, event: { accountId: s.accountId, action: 'batch submit', detail } }));
  }
  return submitted;
}
