// Owns the administrative commands (the `sangam` CLI verbs that change the store). The same table
// serves the command line directly and, when a running server holds the embedded store, through the
// server's admin socket. Each command returns one JSON-serialisable object.
import { parseArgs } from 'node:util';
import type { Db } from '../db/client.js';
import { createAccount, createKey, topUp } from '../accounts/store.js';
import { inrToPaise, paiseToInr } from '../money.js';
import { ApiError } from '../errors.js';
import { migrate } from '../db/migrate.js';

export class UsageError extends Error {}

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

  async 'keys revoke'(db, args) {
    const { positionals } = opts(args, {}, 1);
    const id = positionals[0];
    if (!id) throw new UsageError('usage: keys revoke KEY_ID');
    const row = await db
      .updateTable('api_keys')
      .set({ revoked_at: new Date() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .returning(['id', 'revoked_at'])
      .executeTakeFirst();
    if (!row) throw new ApiError('not_found', `no active key ${id}`);
    return { id: row.id, revoked_at: row.revoked_at!.toISOString() };
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
    const balance = await topUp(db, values.account!, paise, 'CLI top-up');
    return { account: values.account!, balance: paiseToInr(balance), currency: 'INR' };
  },
};

/** Splits argv into a known command and its arguments. */
export function resolveCommand(argv: string[]): { name: string; args: string[] } | null {
  for (const words of [2, 1]) {
    const name = argv.slice(0, words).join(' ');
    if (COMMANDS[name]) return { name, args: argv.slice(words) };
  }
  return null;
}
