// Owns what the two runners (sandbox-runner.ts, live-runner.ts) share: the call they are handed, the
// answer they give back, and recording through the group commit when the idempotency key may already
// be taken. route.ts validates the request, builds the call and chooses the runner for the
// environment; the runner owns the call's idempotency key from its claim to its completion.
import { ApiError } from '../errors.js';
import type { Transaction } from 'kysely';
import type { RequestAudit } from '../audit/row.js';
import type { DB } from '../db/schema.js';
import type { Claim, IdempotencyStore, IdemScope } from '../idempotency/store.js';
import type { OperationConnector, OperationContext, OperationDef } from './operation.js';
import type { Recorded, Recorder, Recording } from './recorder.js';
import type { TransactionStore } from '../transactions/store.js';

export type Input = Record<string, unknown> & { reference_id: string; idempotency_key?: string };

/**
 * Money set aside for a call before it runs (a live batch's reserve, src/batches/): its hold takes
 * `paise` from there instead of the wallet's balance, and `take` marks it used, in the transaction
 * that records the hold (so it is used exactly once, or not at all when the call records nothing).
 */
export interface Reserve {
  paise: number;
  take(trx: Transaction<DB>): Promise<void>;
}

/** One validated operation request, as route.ts (or a batch) hands it to a runner. */
export interface Call {
  def: OperationDef;
  input: Input;
  ctx: OperationContext;
  /** The idempotency key and the hash of the request it was first used for; null when unkeyed. */
  key: { scope: IdemScope; hash: string } | null;
  /** The call's audit row before its answer: an HTTP request's (audit/hook.ts) or a batch row's. */
  audit: RequestAudit;
  reserve?: Reserve;
}

/** What the client is told: the stored or new envelope, and whether it is a replay. */
export interface Answer {
  status: number;
  body: string;
  replayed: boolean;
  /** True when the call's audit row went in with its record: then nothing else writes it. */
  audited: boolean;
}

export interface Runner {
  /** The connector an operation's request goes to in this runner's environment. */
  connector(def: OperationDef): OperationConnector;
  run(call: Call): Promise<Answer>;
}

export interface ClaimDeps {
  recorder: Recorder;
  idempotency: IdempotencyStore;
  transactions: Pick<TransactionStore, 'holder'>;
}

export const inFlight = () => new ApiError('idempotency_in_flight', 'A request with this idempotency key is still being processed; retry shortly');

/**
 * Records through the group commit. A key already taken is settled by claim(): a replay, a 422/107
 * or 409/106 (thrown), or the take-over of a crashed holder's claim (with the live transaction it had
 * started, if any). A reference_id another transaction holds is 409/114 (thrown), unless the call's
 * key already answers (CONTRACT §5: a replay, 422/107, 409/106).
 */
export async function recordClaimed(deps: ClaimDeps, call: Call, recording: Recording): Promise<Extract<Recorded, { kind: 'recorded' }> | Claim> {
  const first = await deps.recorder.record(recording);
  if (first.kind === 'recorded') return first;
  if (first.kind === 'reference_taken') return referenceTaken(deps, call);
  if (!call.key) throw new Error('only a keyed recording can find its key taken');
  const claim = await deps.idempotency.claim(call.key.scope, call.key.hash);
  if (claim.kind === 'replay' || claim.txnId) return claim;
  await deps.idempotency.release(call.key.scope); // a crashed holder's claim with nothing started: record afresh
  const again = await deps.recorder.record(recording);
  if (again.kind === 'recorded') return again;
  if (again.kind === 'reference_taken') return referenceTaken(deps, call);
  throw inFlight();
}

/** A call whose reference_id another transaction holds: what its key answers if it exists, else 409/114. */
async function referenceTaken(deps: ClaimDeps, call: Call): Promise<Claim> {
  const existing = call.key && (await deps.idempotency.existing(call.key.scope, call.key.hash));
  if (existing) return existing;
  const { ctx, input } = call;
  const holder = await deps.transactions.holder({ accountId: ctx.accountId, environment: ctx.environment, referenceId: input.reference_id });
  if (!holder) throw inFlight(); // let go since (its call did nothing): a retry may take it
  throw ApiError.referenceTaken(input.reference_id, holder);
}

/** The stored first answer, with what the store does not keep (a sandbox photo) put back. */
export function replayed(call: Call, claim: Extract<Claim, { kind: 'replay' }>): Answer {
  const { unstored } = call.def;
  if (!unstored) return { status: claim.status, body: claim.body, replayed: true, audited: false };
  const env = JSON.parse(claim.body) as { data: Record<string, unknown> };
  return { status: claim.status, body: JSON.stringify({ ...env, data: unstored.hydrate(env.data, call.ctx.environment) }), replayed: true, audited: false };
}
