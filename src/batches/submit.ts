// Owns accepting a batch: every row checked as its operation's own call would check it (the one schema,
// its aliases, text coerced for CSV, the operation's admit), repeated references and idempotency keys
// within the batch refused, a row of an operation keyed by idempotency_key given a key of its own when it
// has none (derived from the batch and the row, so it stays the same across restarts), and, for a live
// batch, the sum of its rows' debits (amounts less commission, plus fees) reserved at once (402 when the
// wallet is short). A repeated client_batch_id answers the existing batch; `validate_only` stores nothing.
// Rows that fail their operation's checks are `invalid` and never run (with on_error=stop, they refuse
// the whole batch instead).
import { createHash } from 'node:crypto';
import { ApiError, type FieldError } from '../errors.js';
import type { Environment } from '../db/schema.js';
import { newId } from '../ids.js';
import { debitOf } from '../ledger/ledger.js';
import type { Pricing } from '../ledger/pricing.js';
import type { ApprovalGuard } from '../access/approvals.js';
import type { OperationContext, OperationDef } from '../operations/operation.js';
import { operationBySlug } from '../operations/registry.js';
import { validateInput, type OperationRoutes } from '../operations/route.js';
import type { Input } from '../operations/runner.js';
import type { BatchStore, BatchView, NewItem } from './store.js';
import type { RawRow } from './upload.js';
import { turn } from '../cooperative.js';

export interface SubmitDeps {
  store: BatchStore;
  /** The operations' runners, for admit() at submission; null (the CLI) leaves admit to each row's run. */
  routes: OperationRoutes | null;
  pricing: Pricing;
  approvals: ApprovalGuard;
}

/** Who submits: the key's account, environment and id, and the client address (null from the CLI). */
export interface Submitter {
  accountId: string;
  environment: Environment;
  keyId: string;
  ip: string | null;
}

export interface Submission {
  operation: string;
  rows: RawRow[];
  /** `query`: the rows' values are text to coerce to the schema's types (CSV). */
  source: 'body' | 'query';
  clientBatchId?: string;
  validateOnly: boolean;
  onError: 'continue' | 'stop';
}

export type RowError = FieldError & { row: number };

export type Submitted =
  | { kind: 'validated'; operation: string; environment: Environment; total: number; invalid: number; errors: RowError[] }
  | { kind: 'batch'; batch: BatchView; existing: boolean };

/** At most this many bad rows are listed in an answer (the rest are counted). */
export const MAX_LISTED_ERRORS = 1000;

/** A row's own idempotency key when it brings none: a UUID from the batch and the row. */
export function derivedKey(batchId: string, row: number): string {
  const h = createHash('sha256').update(`${batchId}:${row}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function operationOf(slug: unknown): OperationDef {
  const def = typeof slug === 'string' ? operationBySlug.get(slug) : undefined;
  if (!def) throw ApiError.validation([{ field: 'operation', message: `operation must be one of ${[...operationBySlug.keys()].join(', ')}` }]);
  return def;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One row checked as its operation's call would be; its errors, each naming the row. */
async function checkRow(def: OperationDef, batchId: string, raw: RawRow, source: Submission['source'], ctx: OperationContext | null): Promise<{ input?: Input; errors: RowError[] }> {
  const value = isObject(raw.value) ? { ...raw.value } : raw.value;
  if (isObject(value) && def.idempotency?.by === 'idempotency_key' && value.idempotency_key === undefined) value.idempotency_key = derivedKey(batchId, raw.row);
  try {
    const input = validateInput(def, value, source);
    if (ctx) await def.admit?.(structuredClone(input), ctx);
    return { input, errors: [] };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err; // a refusal of admit (a client id that is not the caller's) is the row's too
    const errors = err.extra.errors ?? [{ field: 'body', message: err.message }];
    return { errors: errors.map((e) => ({ row: raw.row, field: e.field, message: e.message })) };
  }
}

/** Refuses a second row with the same reference_id or idempotency key: the second would replay or clash with the first. */
function repeats(input: Input, row: number, seen: Map<string, number>): RowError[] {
  const errors: RowError[] = [];
  for (const field of ['reference_id', 'idempotency_key'] as const) {
    const v = input[field];
    if (v === undefined) continue;
    const first = seen.get(`${field}:${v}`);
    if (first !== undefined) errors.push({ row, field, message: `${field} repeats row ${first}: every row needs its own` });
    else seen.set(`${field}:${v}`, row);
  }
  return errors;
}

/** What a live row sets aside: its amount less commission, plus the operation's fee. */
function reserveOf(def: OperationDef, input: Input, feePaise: number): number {
  let commissionPaise = 0;
  try {
    commissionPaise = def.commissionPaise?.(input) ?? 0;
  } catch {
    // An operator resolve() will look up later: reserve without the commission (it is given back at the row's hold).
  }
  return Math.max(0, debitOf({ principalPaise: def.amountPaise?.(input) ?? 0, commissionPaise, feePaise }));
}

async function checkRows(deps: SubmitDeps, who: Submitter, def: OperationDef, batchId: string, s: Submission): Promise<{ items: NewItem[]; errors: RowError[] }> {
  const { routes } = deps;
  const ctx: OperationContext | null = routes && {
    accountId: who.accountId,
    environment: who.environment,
    requestId: batchId,
    txnId: batchId,
    connector: (who.environment === 'live' ? routes.live : routes.sandbox).connector(def),
    deps: routes.deps,
    afterRecord: [],
    withAnswer: [],
  };
  const feePaise = who.environment === 'live' ? await deps.pricing.fee(def.slug) : 0;
  const seen = new Map<string, number>();
  const items: NewItem[] = [];
  const errors: RowError[] = [];
  for (const raw of s.rows) {
    await turn(); // a long upload does not hold back other requests
    const checked = await checkRow(def, batchId, raw, s.source, ctx);
    const rowErrors = checked.input ? repeats(checked.input, raw.row, seen) : checked.errors;
    errors.push(...rowErrors);
    const input = checked.input ?? (isObject(raw.value) ? raw.value : { value: raw.value });
    const referenceId = typeof input.reference_id === 'string' ? input.reference_id : null;
    const valid = rowErrors.length === 0;
    items.push({ row: raw.row, referenceId, input, reservedPaise: valid && who.environment === 'live' ? reserveOf(def, input as Input, feePaise) : 0, ...(valid ? {} : { errors: rowErrors }) });
  }
  return { items, errors };
}

/**
 * Accepts a batch (or checks it only). Errors: validation (422: the operation; with on_error=stop, any
 * bad row), forbidden (403: live use of the operation not approved), insufficient_funds (402).
 */
export async function submitBatch(deps: SubmitDeps, who: Submitter, s: Submission): Promise<Submitted> {
  const def = operationOf(s.operation);
  if (who.environment === 'live' && !(await deps.approvals.approved(who.accountId, def.slug))) {
    throw new ApiError('forbidden', `Live use of ${def.slug} is not approved for this account yet (compliance review)`);
  }
  if (s.clientBatchId && !s.validateOnly) {
    const existing = await deps.store.byClientId(who.accountId, who.environment, s.clientBatchId);
    if (existing) return { kind: 'batch', batch: await deps.store.view(existing.id), existing: true };
  }
  const batchId = newId('bat', 20);
  const { items, errors } = await checkRows(deps, who, def, batchId, s);
  const listed = errors.slice(0, MAX_LISTED_ERRORS);
  if (s.validateOnly) {
    const invalid = items.filter((i) => i.errors).length;
    return { kind: 'validated', operation: def.slug, environment: who.environment, total: items.length, invalid, errors: listed };
  }
  if (s.onError === 'stop' && errors.length > 0) throw ApiError.validation(listed);
  const batch = { id: batchId, accountId: who.accountId, environment: who.environment, keyId: who.keyId, clientIp: who.ip, operation: def.slug, clientBatchId: s.clientBatchId ?? null, onError: s.onError };
  try {
    await deps.store.create(batch, items);
  } catch (err) {
    // Two submissions with one client_batch_id at once: the second finds the first's.
    const existing = s.clientBatchId ? await deps.store.byClientId(who.accountId, who.environment, s.clientBatchId) : undefined;
    if (!existing) throw err;
    return { kind: 'batch', batch: await deps.store.view(existing.id), existing: true };
  }
  return { kind: 'batch', batch: await deps.store.view(batchId), existing: false };
}
