// Owns submitting and cancelling a batch for an account as a person rather than a key: an operator's
// file (`sangam batches submit`: CSV by its header, or NDJSON, by the extension) or a console user's
// upload. The upload is read by row as the API reads one (batches/upload.ts) and accepted exactly as
// POST /api/v1/batches accepts it (batches/submit.ts: live approval, the live reserve with its 402);
// the batch's key_id is the actor (`cli`, `console:<email>`), so each row's audit row names who sent it,
// and a submission or a cancel is also recorded as an ADMIN audit event. The rows run in whichever
// server process runs the batch worker, each with its own audit row as an API batch's rows have.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../../db/client.js';
import type { Environment } from '../../db/schema.js';
import { ApprovalGuard } from '../../access/approvals.js';
import { Pricing } from '../../ledger/pricing.js';
import { OPERATIONS } from '../../operations/registry.js';
import { BatchStore, type BatchView } from '../../batches/store.js';
import { operationOf, submitBatch, type SubmitDeps, type Submitted } from '../../batches/submit.js';
import { uploadRows, type UploadFormat } from '../../batches/upload.js';
import { UsageError } from '../args.js';
import { adminAction, type Actor } from './run.js';
import { redactText } from '../../audit/redact.js';

export interface FileSubmission {
  accountId: string;
  environment: Environment;
  operation: string;
  file: string;
  clientBatchId?: string;
  validateOnly: boolean;
}

/** An upload's text with what to do with it; `name` (the file's) goes into the audit event, redacted. */
export interface UploadSubmission {
  accountId: string;
  environment: Environment;
  operation: string;
  format: UploadFormat;
  text: string;
  name: string;
  /** The client address (a console user's), kept with the batch as an API submission's is. */
  ip?: string;
  clientBatchId?: string;
  validateOnly: boolean;
  onError: 'continue' | 'stop';
}

/** Errors: ApiError validation (422: the upload or its rows), forbidden (403), insufficient_funds (402). */
export async function submitUpload(db: Db, deps: SubmitDeps, actor: Actor, s: UploadSubmission): Promise<Submitted> {
  const def = operationOf(s.operation);
  const submitted = await submitBatch(deps, { accountId: s.accountId, environment: s.environment, keyId: actor, ip: s.ip ?? null }, {
    operation: def.slug,
    rows: uploadRows(def, s.format, s.text),
    source: s.format === 'csv' ? 'query' : 'body',
    clientBatchId: s.clientBatchId,
    validateOnly: s.validateOnly,
    onError: s.onError,
  });
  if (submitted.kind === 'batch' && !submitted.existing) {
    const detail = { batch: submitted.batch.id, operation: def.slug, environment: s.environment, rows: submitted.batch.counts.total, file: redactText(s.name) };
    await adminAction(db, actor, async () => ({ result: null, event: { accountId: s.accountId, environment: s.environment, action: 'batch submit', detail } }));
  }
  return submitted;
}

/** Errors: UsageError (the file), and those of submitUpload. */
export async function submitFile(db: Db, actor: Actor, s: FileSubmission): Promise<Submitted> {
  const ext = path.extname(s.file).toLowerCase();
  const format = ext === '.csv' ? 'csv' : ext === '.ndjson' ? 'ndjson' : null;
  if (!format) throw new UsageError('FILE must be a .csv (a header naming the fields) or .ndjson file');
  let text: string;
  try {
    text = await readFile(path.resolve(s.file), 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${s.file}: ${(err as Error).message}`);
  }
  // No runners here (the CLI runs none): each row's admit() runs when the row does.
  const deps = { store: new BatchStore(db), routes: null, pricing: new Pricing(db, 0, new Map(OPERATIONS.map((o) => [o.slug, o.feePaise]))), approvals: new ApprovalGuard(db, 0) };
  return submitUpload(db, deps, actor, { ...s, format, text, name: path.basename(s.file), onError: 'continue' });
}

/** Cancels the account's batch: rows not yet started are not run. Answers whether this call ended it, and the batch. */
export async function cancel(db: Db, store: BatchStore, actor: Actor, b: { accountId: string; environment: Environment; id: string }): Promise<{ cancelled: boolean; batch: BatchView }> {
  const { id } = await store.owned(b.accountId, b.environment, b.id);
  const cancelled = await store.end(id, true);
  if (cancelled) await adminAction(db, actor, async () => ({ result: null, event: { accountId: b.accountId, environment: b.environment, action: 'batch cancel', detail: { batch: id } } }));
  return { cancelled, batch: await store.view(id) };
}
