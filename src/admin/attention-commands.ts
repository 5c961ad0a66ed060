// Owns the `sangam attention …` verbs: the "Needs attention" queue, one transaction's page, and
// resolving by hand through the same admin actions the console calls (admin/actions/attention.ts), so
// both are audited alike. A resolution needs a person: `--as EMAIL` names the admin console user the
// CLI acts as (actor `cli:<email>`), and maker-checker holds across the console and the CLI.
import type { Db } from '../db/client.js';
import type { Settlement } from '../settlement/settlement.js';
import { attention } from './actions/index.js';
import { attentionCounts, attentionQueue, REASONS, transactionPage, type Reason } from '../attention/queue.js';
import { ApiError } from '../errors.js';
import { TransactionStore } from '../transactions/store.js';
import { opts, UsageError } from './args.js';

/** What a command may need beyond the store: the settlement wiring of a server (or of the CLI's own). */
export interface CommandContext {
  settlement(): Promise<Settlement>;
}

type Command = (db: Db, args: string[], ctx: CommandContext) => Promise<Record<string, unknown>>;

function one(positionals: string[], usage: string): string {
  if (!positionals[0]) throw new UsageError(`usage: ${usage}`);
  return positionals[0];
}

/** The actor of `--as EMAIL`. Errors: UsageError when it is missing. */
function as(v: string | undefined) {
  if (!v) throw new UsageError('--as EMAIL is required: the admin console user this resolution is recorded for');
  return `cli:${v.trim().toLowerCase()}` as const;
}

const deps = async (db: Db, ctx: CommandContext) => ({ db, settlement: await ctx.settlement(), transactions: new TransactionStore(db) });

export const attentionCommands: Record<string, Command> = {
  async 'attention list'(db, args) {
    const { values } = opts(args, { reason: { type: 'string' }, limit: { type: 'string' } });
    if (values.reason !== undefined && !REASONS.includes(values.reason as Reason)) throw new UsageError(`--reason must be one of ${REASONS.join(', ')}`);
    const limit = values.limit === undefined ? 100 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError('--limit must be a whole number from 1 to 1000');
    return { counts: await attentionCounts(db), items: await attentionQueue(db, { reason: values.reason as Reason | undefined, limit }) };
  },

  async 'attention show'(db, args) {
    const txnId = one(opts(args, {}, 1).positionals, 'attention show TXN_ID');
    const page = await transactionPage(db, txnId, null);
    if (!page) throw new ApiError('not_found', `No transaction ${txnId}`);
    return page;
  },

  async 'attention propose'(db, args, ctx) {
    const { values, positionals } = opts(args, { action: { type: 'string' }, reason: { type: 'string' }, evidence: { type: 'string' }, as: { type: 'string' } }, 1);
    const txnId = one(positionals, 'attention propose TXN_ID --action A --reason R [--evidence E] --as EMAIL');
    if (!values.action) throw new UsageError(`--action is required: one of success, failed, reversal, dismiss`);
    return attention.propose(await deps(db, ctx), as(values.as), { txnId, action: values.action, reason: values.reason, evidence: values.evidence });
  },

  async 'attention approve'(db, args, ctx) {
    const { values, positionals } = opts(args, { as: { type: 'string' } }, 1);
    const id = one(positionals, 'attention approve RESOLUTION_ID --as EMAIL');
    return attention.approve(await deps(db, ctx), as(values.as), { id });
  },

  async 'attention reject'(db, args, ctx) {
    const { values, positionals } = opts(args, { reason: { type: 'string' }, as: { type: 'string' } }, 1);
    const id = one(positionals, 'attention reject RESOLUTION_ID --reason R --as EMAIL');
    return attention.reject(await deps(db, ctx), as(values.as), { id, reason: values.reason });
  },
};
