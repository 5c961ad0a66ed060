// Owns the `sangam float …` verbs (docs/RELIABILITY.md, "Float reconciliation"): recording a prepaid
// partner's opening balance and its fundings, the floats as last checked, a partner's movements, one
// drift item's page, and resolving a drift through the same admin actions the console calls
// (admin/actions/float.ts). A resolution needs a person (`--as EMAIL`, actor `cli:<email>`);
// maker-checker holds across the console and the CLI.
import type { Db } from '../db/client.js';
import { ApiError } from '../errors.js';
import { float } from './actions/index.js';
import { driftPage, floatQueue, floatStatus, movementView } from '../attention/float.js';
import { movements } from '../float/store.js';
import { TransactionStore } from '../transactions/store.js';
import { opts, required, UsageError } from './args.js';
import type { CommandContext } from './attention-commands.js';

type Command = (db: Db, args: string[], ctx: CommandContext) => Promise<Record<string, unknown>>;

/** INR text (signed when `signed`) to paise, exactly. Errors: UsageError. */
function paiseOf(v: string | undefined, signed: boolean): number {
  const m = /^(-?)(\d{1,10})(?:\.(\d{1,2}))?$/.exec((v ?? '').trim());
  if (!m || (m[1] && !signed)) throw new UsageError(`--amount must be an INR amount with at most 2 decimals${signed ? ' (signed: --amount=-12.50)' : ''}`);
  const paise = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -paise : paise;
}

function as(v: string | undefined) {
  if (!v) throw new UsageError('--as EMAIL is required: the admin console user this resolution is recorded for');
  return `cli:${v.trim().toLowerCase()}` as const;
}

function one(positionals: string[], usage: string): string {
  if (!positionals[0]) throw new UsageError(`usage: ${usage}`);
  return positionals[0];
}

const movement = (kind: 'opening' | 'fund') =>
  (async (db, args) => {
    const { values } = opts(args, { partner: { type: 'string' }, amount: { type: 'string' }, memo: { type: 'string' } });
    required(values, 'partner', 'amount');
    const input = { partner: values.partner, amountPaise: paiseOf(values.amount, false), memo: values.memo };
    return kind === 'opening' ? float.opening(db, 'cli', input) : float.fund(db, 'cli', input);
  }) satisfies Command;

export const floatCommands: Record<string, Command> = {
  'float opening': movement('opening'),
  'float fund': movement('fund'),

  async 'float status'(db) {
    return { partners: await floatStatus(db), drifts: await floatQueue(db) };
  },

  async 'float statement'(db, args) {
    const { values } = opts(args, { partner: { type: 'string' }, limit: { type: 'string' } });
    required(values, 'partner');
    const limit = values.limit === undefined ? 100 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new UsageError('--limit must be a whole number from 1 to 10000');
    return { partner: values.partner!, movements: (await movements(db, values.partner!.trim().toLowerCase(), limit)).map(movementView) };
  },

  async 'float show'(db, args) {
    const id = one(opts(args, {}, 1).positionals, 'float show DRIFT_ID');
    const page = await driftPage(db, id);
    if (!page) throw new ApiError('not_found', `No float drift ${id}`);
    return page;
  },

  async 'float propose'(db, args, ctx) {
    const o = { action: { type: 'string' }, txn: { type: 'string' }, amount: { type: 'string' }, reason: { type: 'string' }, evidence: { type: 'string' }, as: { type: 'string' } } as const;
    const { values, positionals } = opts(args, o, 1);
    const driftId = one(positionals, 'float propose DRIFT_ID --action reversal|adjustment|dismiss [--txn TXN_ID] [--amount=INR] --reason R [--evidence E] --as EMAIL');
    if (!values.action) throw new UsageError('--action is required: one of reversal, adjustment, dismiss');
    const actor = as(values.as);
    const amountPaise = values.amount === undefined ? undefined : paiseOf(values.amount, true);
    const deps = { db, settlement: await ctx.settlement(), transactions: new TransactionStore(db) };
    return float.propose(deps, actor, { driftId, action: values.action, txnId: values.txn, amountPaise, reason: values.reason, evidence: values.evidence });
  },

  async 'float approve'(db, args) {
    const { values, positionals } = opts(args, { as: { type: 'string' } }, 1);
    return float.approve(db, as(values.as), { id: one(positionals, 'float approve RESOLUTION_ID --as EMAIL') });
  },

  async 'float reject'(db, args) {
    const { values, positionals } = opts(args, { reason: { type: 'string' }, as: { type: 'string' } }, 1);
    return float.reject(db, as(values.as), { id: one(positionals, 'float reject RESOLUTION_ID --reason R --as EMAIL'), reason: values.reason });
  },
};
