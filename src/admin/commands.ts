// Owns the administrative commands (the `sangam` CLI verbs that change the store). The same table
// serves the command line directly and, when a running server holds the embedded store, through the
// server's admin socket. Each command returns one JSON-serialisable object.
import { parseArgs } from 'node:util';
import type { Db } from '../db/client.js';
import { createAccount, createKey, keyAccount, listKeys, requireAccount, revokeKey, rollKey, setLimits } from '../accounts/store.js';
import { topUp } from '../ledger/ledger.js';
import { checkLedger } from '../ledger/check.js';
import { addEntry, AllowlistEntryError, listEntries, removeEntry } from '../access/allowlist.js';
import { approve, SLUGS, unapprove, UnknownOperationError } from '../access/approvals.js';
import { listFees, setFee } from '../ledger/pricing.js';
import { purgeBefore, verifyChain } from '../audit/chain.js';
import { createUser } from '../console/users.js';
import { recordAdminEvent } from '../audit/admin-events.js';
import { inrToPaise, paiseToInr } from '../money.js';
import { ApiError } from '../errors.js';
import { migrate } from '../db/migrate.js';

export class UsageError extends Error {}

/** A check (`ledger check`, `audit verify`) found breaches: the output is the report, the exit code non-zero. */
export class LedgerBreach extends Error {
  constructor(readonly report: Record<string, unknown>) {
    super('ledger check failed');
  }
}

type Command = (db: Db, args: string[]) => Promise<Record<string, unknown>>;

function opts<T extends Record<string, { type: 'string' | 'boolean' }>>(args: string[], options: T, positionals = 0) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: positionals > 0, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (parsed.positionals.length > positionals) throw new UsageError(`unexpected argument ${parsed.positionals[positionals]}`);
  return parsed;
}

function required(values: Record<string, unknown>, ...names: string[]): void {
  for (const n of names) if (values[n] === undefined) throw new UsageError(`--${n} is required`);
}

const environment = (v: unknown) => {
  if (v !== 'sandbox' && v !== 'live') throw new UsageError('--env must be sandbox or live');
  return v;
};

export const COMMANDS: Record<string, Command> = {
  async migrate(db) {
    return { applied: await migrate(db) };
  },

  async 'accounts create'(db, args) {
    const { values } = opts(args, { name: { type: 'string' } });
    required(values, 'name');
    if (!values.name!.trim()) throw new UsageError('--name must not be empty');
    return createAccount(db, values.name!.trim());
  },

  async 'keys create'(db, args) {
    const { values } = opts(args, { account: { type: 'string' }, env: { type: 'string' } });
    required(values, 'account', 'env');
    return createKey(db, values.account!, environment(values.env));
  },

  async 'keys list'(db, args) {
    const { values } = opts(args, { account: { type: 'string' } });
    required(values, 'account');
    return { keys: await listKeys(db, values.account!) };
  },

  async 'keys roll'(db, args) {
    const { values, positionals } = opts(args, { grace: { type: 'string' } }, 1);
    const id = positionals[0];
    if (!id) throw new UsageError('usage: keys roll KEY_ID --grace SECONDS');
    const grace = values.grace === undefined ? 86_400 : Number(values.grace);
    if (!Number.isInteger(grace) || grace < 0) throw new UsageError('--grace must be a whole number of seconds, 0 or more');
    const owner = await keyAccount(db, id);
    const rolled = await rollKey(db, id, grace);
    await recordAdminEvent(db, { accountId: owner!.account_id, environment: owner!.environment, action: 'keys roll', detail: { key_id: id, new_key_id: rolled.id, grace_s: grace } });
    return rolled;
  },

  async 'keys revoke'(db, args) {
    const { positionals } = opts(args, {}, 1);
    const id = positionals[0];
    if (!id) throw new UsageError('usage: keys revoke KEY_ID');
    const owner = await keyAccount(db, id);
    const revoked = await revokeKey(db, id);
    await recordAdminEvent(db, { accountId: owner!.account_id, environment: owner!.environment, action: 'keys revoke', detail: { key_id: id } });
    return revoked;
  },

  async 'allowlist add'(db, args) {
    return changeAllowlist(db, args, 'add');
  },

  async 'allowlist remove'(db, args) {
    return changeAllowlist(db, args, 'remove');
  },

  async 'allowlist list'(db, args) {
    const { values } = opts(args, { account: { type: 'string' }, env: { type: 'string' } });
    required(values, 'account', 'env');
    await requireAccount(db, values.account!);
    return { account: values.account!, environment: values.env!, entries: await listEntries(db, values.account!, environment(values.env)) };
  },

  async approve(db, args) {
    return changeApproval(db, args, 'approve');
  },

  async unapprove(db, args) {
    return changeApproval(db, args, 'unapprove');
  },

  async 'accounts limits'(db, args) {
    const { values } = opts(args, { account: { type: 'string' }, 'per-sec': { type: 'string' }, burst: { type: 'string' } });
    required(values, 'account');
    const num = (v: string | undefined, name: string, min: number) => {
      if (v === undefined || v === 'default') return null;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be a whole number ≥ ${min}, or "default"`);
      return n;
    };
    const perSec = num(values['per-sec'], 'per-sec', 1);
    const burst = num(values.burst, 'burst', 1);
    await setLimits(db, values.account!, perSec, burst);
    await recordAdminEvent(db, { accountId: values.account!, action: 'accounts limits', detail: { per_sec: perSec, burst } });
    return { account: values.account!, rate_limit_per_sec: perSec, rate_limit_burst: burst };
  },

  async 'users create'(db, args) {
    const { values } = opts(args, { email: { type: 'string' }, password: { type: 'string' }, admin: { type: 'boolean' }, account: { type: 'string' } });
    required(values, 'email', 'password');
    if (!/^[^@\s]+@[^@\s]+$/.test(values.email!)) throw new UsageError('--email must be an email address');
    if (!values.password) throw new UsageError('--password must not be empty');
    try {
      return await createUser(db, values.email!, values.password!, values.admin === true, values.account ?? null);
    } catch (err) {
      if (/unique|duplicate/i.test((err as Error).message)) throw new UsageError(`a console user with email ${values.email} already exists`);
      throw err;
    }
  },

  async 'ledger check'(db, args) {
    opts(args, {});
    const result = await checkLedger(db);
    if (!result.ok) throw new LedgerBreach(result);
    return result;
  },

  async 'audit verify'(db, args) {
    opts(args, {});
    const result = await verifyChain(db);
    if (!result.ok) throw new LedgerBreach(result as unknown as Record<string, unknown>);
    return result as unknown as Record<string, unknown>;
  },

  async 'audit purge'(db, args) {
    const { values } = opts(args, { before: { type: 'string' }, days: { type: 'string' } });
    let before: Date;
    if (values.before !== undefined) before = new Date(values.before);
    else if (values.days !== undefined && /^\d+$/.test(values.days)) before = new Date(Date.now() - Number(values.days) * 86_400_000);
    else throw new UsageError('give --before ISO_DATE or --days N (rows older than N days)');
    if (Number.isNaN(before.getTime())) throw new UsageError('--before must be an ISO 8601 date');
    const result = await purgeBefore(db, before);
    return { before: before.toISOString(), ...result };
  },

  async 'pricing list'(db, args) {
    opts(args, {});
    return { fees: (await listFees(db)).map((f) => ({ operation: f.operation, fee: paiseToInr(f.fee_paise) })) };
  },

  async 'pricing set'(db, args) {
    const { values } = opts(args, { operation: { type: 'string' }, fee: { type: 'string' } });
    required(values, 'operation', 'fee');
    if (!SLUGS.includes(values.operation!)) throw new UsageError(`unknown operation ${values.operation}; one of: ${SLUGS.join(', ')}`);
    let paise: number;
    try {
      paise = inrToPaise(Number(values.fee));
    } catch {
      throw new UsageError('--fee must be an INR amount with at most 2 decimals');
    }
    if (paise < 0) throw new UsageError('--fee must not be negative');
    await setFee(db, values.operation!, paise);
    return { operation: values.operation!, fee: paiseToInr(paise) };
  },

  async 'wallet topup'(db, args) {
    const { values } = opts(args, { account: { type: 'string' }, amount: { type: 'string' } });
    required(values, 'account', 'amount');
    const inr = Number(values.amount);
    let paise: number;
    try {
      paise = inrToPaise(inr);
    } catch {
      throw new UsageError('--amount must be an INR amount with at most 2 decimals');
    }
    if (!(paise > 0)) throw new UsageError('--amount must be greater than 0');
    await requireAccount(db, values.account!);
    const balance = await topUp(db, values.account!, paise, 'CLI top-up');
    return { account: values.account!, balance: paiseToInr(balance), currency: 'INR' };
  },
};

async function changeAllowlist(db: Db, args: string[], how: 'add' | 'remove') {
  const { values, positionals } = opts(args, { account: { type: 'string' }, env: { type: 'string' } }, 1);
  required(values, 'account', 'env');
  const env = environment(values.env);
  if (!positionals[0]) throw new UsageError(`usage: allowlist ${how} --account ID --env sandbox|live CIDR_OR_IP`);
  await requireAccount(db, values.account!);
  let entry: string;
  try {
    entry = how === 'add' ? await addEntry(db, values.account!, env, positionals[0]) : positionals[0];
    if (how === 'remove' && !(await removeEntry(db, values.account!, env, positionals[0]))) throw new ApiError('not_found', `${positionals[0]} is not on the list`);
  } catch (err) {
    if (err instanceof AllowlistEntryError) throw new UsageError(err.message);
    throw err;
  }
  await recordAdminEvent(db, { accountId: values.account!, environment: env, action: `allowlist ${how}`, detail: { entry } });
  return { account: values.account!, environment: env, entries: await listEntries(db, values.account!, env) };
}

async function changeApproval(db: Db, args: string[], how: 'approve' | 'unapprove') {
  const { values } = opts(args, { account: { type: 'string' }, operation: { type: 'string' } });
  required(values, 'account', 'operation');
  await requireAccount(db, values.account!);
  try {
    const approved = how === 'approve' ? await approve(db, values.account!, values.operation!) : await unapprove(db, values.account!, values.operation!);
    await recordAdminEvent(db, { accountId: values.account!, environment: 'live', action: how, detail: { operation: values.operation! } });
    return { account: values.account!, approved };
  } catch (err) {
    if (err instanceof UnknownOperationError) throw new UsageError(err.message);
    throw err;
  }
}

/** Splits argv into a known command and its arguments. */
export function resolveCommand(argv: string[]): { name: string; args: string[] } | null {
  for (const words of [2, 1]) {
    const name = argv.slice(0, words).join(' ');
    if (COMMANDS[name]) return { name, args: argv.slice(words) };
  }
  return null;
}
