// Owns a sandbox call from start to finish: the operation's declared sandbox answer (no wallet, no
// partner), then one group-committed database transaction holding the transaction row, any rows the
// operation writes beside it, the idempotency key stored as done with its response, and the request's
// audit row. No partner call sits between the key's claim and the effect, so the key is never left in
// flight: a concurrent duplicate finds it taken and replays the first answer. A pending answer (a
// sandbox pending) is settled by the finalizer, woken for its time.
import { answeredRow } from '../audit/row.js';
import { resultEnvelope } from '../http/envelope.js';
import type { Finalizer } from '../transactions/finalizer.js';
import type { TxRow } from '../transactions/store.js';
import { answerOf } from '../providers/answer.js';
import type { OperationRequest, Outcome, VpaHolder } from '../providers/connector.js';
import { SANDBOX_NO_SUCH_VPA, vpaHolderName } from '../../shared/people.js';
import { executeOperation, type OperationConnector, type OperationDef } from './operation.js';
import { operationBySlug } from './registry.js';
import { inFlight, recordClaimed, replayed, type Answer, type Call, type ClaimDeps, type Runner } from './runner.js';

export interface SandboxDeps extends ClaimDeps {
  finalizer: Finalizer;
  pendingMs: number;
}

/**
 * Every operation's declared sandbox answer behind one connector: the runner's, and the partner
 * simulator's, which answers the same table (CONTRACT §8). The answer is made public here, as the
 * router makes a live connector's (providers/answer.ts).
 */
export class SandboxConnector implements OperationConnector {
  constructor(private pendingMs: number) {}

  async execute(req: OperationRequest): Promise<Outcome> {
    const sandbox = operationBySlug.get(req.operation)?.sandbox;
    if (!sandbox) throw new Error(`${req.operation} declares no sandbox answer`);
    return answerOf(await sandbox(req, { pendingMs: this.pendingMs }));
  }

  async vpaHolder(vpa: string): Promise<VpaHolder> {
    if (vpa.toLowerCase() === SANDBOX_NO_SUCH_VPA) return { exists: false, name: null };
    return { exists: true, name: vpaHolderName(vpa) };
  }
}

export class SandboxRunner implements Runner {
  private sandbox: SandboxConnector;

  constructor(private deps: SandboxDeps) {
    this.sandbox = new SandboxConnector(deps.pendingMs);
  }

  connector(_def: OperationDef): OperationConnector {
    return this.sandbox;
  }

  async run(call: Call): Promise<Answer> {
    const { def, input, ctx, key, audit } = call;
    const outcome = await executeOperation(def, input, ctx);
    const strip = def.unstored?.strip;
    const answer = (r: TxRow, shown = r.result) => JSON.stringify(resultEnvelope(r.status, outcome.message, shown, ctx.requestId));
    // The client's answer, its audit row's and (unless something is stripped from what is stored) its
    // key's are one text: made once (the recorder calls these with the one row it recorded).
    let made: { row: TxRow; body: string } | undefined;
    const shown = (r: TxRow) => (made?.row === r ? made : (made = { row: r, body: answer(r) })).body;
    const t0 = performance.now();
    const recorded = await recordClaimed(this.deps, call, {
      tx: {
        id: ctx.txnId,
        accountId: ctx.accountId,
        environment: ctx.environment,
        operation: def.slug,
        referenceId: input.reference_id,
        amountPaise: def.amountPaise?.(input) ?? null,
        outcome,
        strip,
      },
      key: key && { ...key, response: (r) => (strip ? answer(r, strip(r.result)) : shown(r)) },
      // The answer is decided here, so its audit row is stored with the record, in the same transaction.
      audit: (r) => answeredRow(audit, 200, JSON.parse(shown(r)) as Record<string, unknown>),
      afterRecord: [...ctx.afterRecord, ...ctx.withAnswer],
      lane: ctx.lane,
    });
    ctx.timing?.add('record', performance.now() - t0);
    if (recorded.kind === 'replay') return replayed(call, recorded);
    if (recorded.kind === 'claimed') throw inFlight(); // sandbox keys are never left in flight
    if (outcome.settle) this.deps.finalizer.wake(recorded.row.created_at.getTime() + outcome.settle.after_ms);
    return { status: 200, body: shown(recorded.row), replayed: false, audited: true };
  }
}
