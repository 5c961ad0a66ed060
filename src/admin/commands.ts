// Owns the administrative commands (the `sangam` CLI verbs that change the store). The same table
// serves the command line directly and, when a running server holds the embedded store, through the
// server's admin socket. Each command parses its arguments and calls the shared admin action
// (admin/actions/, the same the console calls) as actor `cli`; it returns one JSON-serialisable object.
import type { Db } from '../db/client.js';
import type { Environment } from '../db/schema.js';
import { listKeys } from '../accounts/store.js';
import { checkLedger } from '../ledger/check.js';
import { OPERATION_SLUGS } from '../operations/registry.js';
import { eraseReference } from '../transactions/erasure.js';
import { defaultPublicKey, loadSigningKey, publicKeyFrom, purgeAudit, verifyAudit, writeCheckpoint } from '../audit/checkpoints.js';
import { loadConfig } from '../config.js';
import { inrToPaise, paiseToInr } from '../money.js';
import { migrate } from '../db/migrate.js';
import { vacuumStore } from '../db/maintenance.js';
import { accounts, allowlist, keys, pricing, users, wallet } from './actions/index.js';
import { submitFile } from './actions/batches.js';
import { eraseIdentityRowsBefore, redactFinalIdentityRows } from '../batches/retention.js';
import { opts, required, UsageError } from './args.js';
import { attentionCommands, type CommandContext } from './attention-commands.js';
import { floatCommands } from './float-commands.js';
import { loadReceiptKey, publicKeyFrom as receiptPublicKey, receiptHash, verifyReceipt } from '../consents/receipt.js';
import { readFileSync } from 'node:fs';
import type { KeyObject } from 'node:crypto';

export { UsageError, type CommandContext };

/** A check (`ledger check`, `audit verify`) found breaches: the output is the report, the exit code non-zero. */
export class LedgerBreach extends Error {
  constructor(readonly report: Record<string, unknown>) {
    super('ledger check failed');
  }
}

type Command = (db: Db, args: string[], ctx: CommandContext) => Promise<Record<string, unknown>>;

/** The audit signing key from config (the CLI reads the same environment as the server). */
const signingKeyConfig = () => loadConfig().auditCheckpoint.signingKey;

const environment = (v: unknown): Environment => {
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
    return accounts.create(db, 'cli', { name: values.name! });
  },

  async 'keys create'(db, args) {
    const { values } = opts(args, { account: { type: 'string' }, env: { type: 'string' }, name: { type: 'string' } });
    required(values, 'account', 'env');
    return keys.create(db, 'cli', { accountId: values.account!, environment: environment(values.env), name: values.name });
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
    return keys.roll(db, 'cli', { keyId: id, graceS: grace });
  },

  async 'keys revoke'(db, args) {
    const { positionals } = opts(args, {}, 1);
    const id = positionals[0];
    if (!id) throw new UsageError('usage: keys revoke KEY_ID');
    return keys.revoke(db, 'cli', { keyId: id });
  },

  async 'allowlist add'(db, args) {
    return allowlist.add(db, 'cli', allowlistChange(args, 'add'));
  },

  async 'allowlist remove'(db, args) {
    return allowlist.remove(db, 'cli', allowlistChange(args, 'remove'));
  },

  async 'allowlist list'(db, args) {
    const { values } = opts(args, { account: { type: 'string' }, env: { type: 'string' } });
    required(values, 'account', 'env');
    return allowlist.list(db, values.account!, environment(values.env));
  },

  async approve(db, args) {
    return accounts.setApproval(db, 'cli', { ...approvalArgs(args), approved: true });
  },

  async unapprove(db, args) {
    return accounts.setApproval(db, 'cli', { ...approvalArgs(args), approved: false });
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
    return accounts.setLimits(db, 'cli', { accountId: values.account!, perSec: num(values['per-sec'], 'per-sec', 1), burst: num(values.burst, 'burst', 1) });
  },

  async 'accounts name-match'(db, args) {
    const { values } = opts(args, { account: { type: 'string' }, 'approve-at': { type: 'string' }, 'review-at': { type: 'string' }, 'on-review': { type: 'string' } });
    required(values, 'account');
    const given = ['approve-at', 'review-at', 'on-review'].some((k) => values[k as keyof typeof values] !== undefined);
    if (!given) return { account: values.account!, ...(await accounts.nameMatchSettings(db, values.account!)) };
    const score = (v: string | undefined, name: string) => {
      if (v === undefined) return undefined;
      if (v === 'default') return null;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 100) throw new UsageError(`--${name} must be a whole number from 0 to 100, or "default"`);
      return n;
    };
    const onReview = values['on-review'];
    if (onReview !== undefined && !['pay', 'hold', 'default'].includes(onReview)) throw new UsageError('--on-review must be pay, hold or default');
    return accounts.setNameMatch(db, 'cli', {
      accountId: values.account!,
      approve_at: score(values['approve-at'], 'approve-at'),
      review_at: score(values['review-at'], 'review-at'),
      on_review: onReview === undefined ? undefined : onReview === 'default' ? null : (onReview as 'pay' | 'hold'),
    });
  },

  async 'accounts consent'(db, args) {
    const { values } = opts(args, { account: { type: 'string' }, 'require-live': { type: 'string' } });
    required(values, 'account');
    const v = values['require-live'];
    if (v === undefined) return { account: values.account!, ...(await accounts.consentSettings(db, values.account!)) };
    if (v !== 'on' && v !== 'off') throw new UsageError('--require-live must be on or off');
    return accounts.setConsentRequired(db, 'cli', { accountId: values.account!, requireLive: v === 'on' });
  },

  async 'accounts sandbox-wallet'(db, args) {
    const { values } = opts(args, { account: { type: 'string' }, show: { type: 'string' } });
    required(values, 'account');
    const show = values.show;
    if (show === undefined) return { account: values.account!, ...(await accounts.sandboxWallet(db, values.account!)) };
    if (show !== 'simulated' && show !== 'live') throw new UsageError('--show must be simulated or live');
    return accounts.setSandboxWallet(db, 'cli', { accountId: values.account!, show });
  },

  async 'accounts verification-reuse'(db, args) {
    const { values } = opts(args, { account: { type: 'string' }, window: { type: 'string' } });
    required(values, 'account');
    const w = values.window;
    if (w === undefined) return { account: values.account!, ...(await accounts.verificationReuse(db, values.account!)) };
    const n = Number(w);
    if (w !== 'default' && (!Number.isSafeInteger(n) || n < 0)) throw new UsageError('--window must be a whole number of seconds ≥ 0 (30 days at most), or "default"');
    return accounts.setVerificationReuse(db, 'cli', { accountId: values.account!, windowS: w === 'default' ? null : n });
  },

  async 'consents verify'(db, args) {
    const { values, positionals } = opts(args, { 'public-key': { type: 'string' } }, 1);
    const receipt = positionals[0];
    if (!receipt) throw new UsageError('the receipt (a compact JWS) is required');
    let key: KeyObject | ((kid: string | undefined) => KeyObject);
    try {
      key = values['public-key'] !== undefined ? (kid) => receiptPublicKey(readFileSync(values['public-key']!, 'utf8'), kid) : (await loadReceiptKey(db)).publicKey;
    } catch (err) {
      throw new UsageError(`--public-key: ${(err as Error).message}`);
    }
    const verdict = verifyReceipt(receipt, key);
    if (!verdict.ok) throw new LedgerBreach({ ok: false, reason: verdict.reason });
    return { ok: true, header: verdict.header, claims: verdict.claims, receipt_sha256: receiptHash(receipt) };
  },

  async 'users create'(db, args) {
    const { values } = opts(args, { email: { type: 'string' }, password: { type: 'string' }, admin: { type: 'boolean' }, account: { type: 'string' } });
    required(values, 'email', 'password');
    if (!/^[^@\s]+@[^@\s]+$/.test(values.email!)) throw new UsageError('--email must be an email address');
    const { id } = await users.create(db, 'cli', { email: values.email!, password: values.password!, isAdmin: values.admin === true, accountId: values.account ?? null });
    return { id };
  },

  async 'users list'(db, args) {
    opts(args, {});
    return { users: await users.list(db) };
  },

  // Deciding on an admin made from the console (admin/actions/users.ts): as the operator, or --as a named admin.
  async 'users approve-admin'(db, args) {
    const { values, positionals } = opts(args, { as: { type: 'string' } }, 1);
    if (!positionals[0]) throw new UsageError('usage: users approve-admin USER_ID [--as EMAIL]');
    return users.approveAdmin(db, asAdmin(values.as), { userId: positionals[0] });
  },

  async 'users reject-admin'(db, args) {
    const { values, positionals } = opts(args, { as: { type: 'string' }, reason: { type: 'string' } }, 1);
    if (!positionals[0]) throw new UsageError('usage: users reject-admin USER_ID --reason R [--as EMAIL]');
    return users.rejectAdmin(db, asAdmin(values.as), { userId: positionals[0], reason: values.reason });
  },

  async 'ledger check'(db, args) {
    opts(args, {});
    const result = await checkLedger(db);
    if (!result.ok) throw new LedgerBreach(result);
    return result;
  },

  async 'store vacuum'(db, args) {
    opts(args, {});
    return { ...(await vacuumStore(db)) };
  },

  async 'audit verify'(db, args) {
    const { values } = opts(args, { 'public-key': { type: 'string' }, checkpoint: { type: 'boolean' } });
    let key;
    try {
      key = values['public-key'] !== undefined ? publicKeyFrom(values['public-key']) : await defaultPublicKey(db, signingKeyConfig());
    } catch (err) {
      throw new UsageError(`--public-key: ${(err as Error).message}`);
    }
    const result = await verifyAudit(db, key);
    if (!result.ok) throw new LedgerBreach(result as unknown as Record<string, unknown>);
    // A checkpoint only after a clean walk: it vouches for the heads as they are now.
    const signed = values.checkpoint ? await writeCheckpoint(db, await loadSigningKey(db, signingKeyConfig()), 'audit verify --checkpoint') : undefined;
    return { ...result, ...(signed && { signed_checkpoint_id: signed.id }) } as unknown as Record<string, unknown>;
  },

  async 'audit checkpoint'(db, args) {
    opts(args, {});
    const signed = await writeCheckpoint(db, await loadSigningKey(db, signingKeyConfig()), 'audit checkpoint');
    return { id: signed.id, merkle_root: signed.merkle_root, key_id: signed.key_id, chains: Object.keys(signed.heads).length };
  },

  async 'audit public-key'(db, args) {
    opts(args, {});
    const key = await loadSigningKey(db, signingKeyConfig());
    return {
      key_id: key.keyId,
      public_key_pem: key.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      public_key_base64: key.publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    };
  },

  async 'audit purge'(db, args) {
    const { values } = opts(args, { before: { type: 'string' }, days: { type: 'string' }, 'identity-days': { type: 'string' }, 'bodies-days': { type: 'string' } });
    const daysAgo = (flag: string, v: string) => {
      if (!/^\d+$/.test(v)) throw new UsageError(`--${flag} must be a whole number of days`);
      return new Date(Date.now() - Number(v) * 86_400_000);
    };
    const cut: { identity?: Date; bodies?: Date; metadata?: Date } = {};
    if (values.before !== undefined) cut.metadata = new Date(values.before);
    else if (values.days !== undefined) cut.metadata = daysAgo('days', values.days);
    if (cut.metadata && Number.isNaN(cut.metadata.getTime())) throw new UsageError('--before must be an ISO 8601 date');
    if (values['identity-days'] !== undefined) cut.identity = daysAgo('identity-days', values['identity-days']);
    if (values['bodies-days'] !== undefined) cut.bodies = daysAgo('bodies-days', values['bodies-days']);
    if (Object.keys(cut).length === 0) {
      throw new UsageError('give --before ISO_DATE or --days N (delete rows older than that), and/or --identity-days N / --bodies-days N (erase content older than that)');
    }
    const result = await purgeAudit(db, cut, signingKeyConfig());
    // Batch rows of identity operations follow the identity class: final rows redacted, older rows erased.
    const batchRows = { redacted: await redactFinalIdentityRows(db), erased: cut.identity ? await eraseIdentityRowsBefore(db, cut.identity) : 0 };
    return { ...Object.fromEntries(Object.entries(cut).map(([c, d]) => [`${c}_before`, d.toISOString()])), ...result, batch_rows: batchRows };
  },

  async 'audit erase'(db, args) {
    const { values } = opts(args, { account: { type: 'string' }, environment: { type: 'string' }, reference: { type: 'string' } });
    required(values, 'account', 'environment', 'reference');
    if (values.environment !== 'sandbox' && values.environment !== 'live') throw new UsageError('--environment must be sandbox or live');
    return { ...(await eraseReference(db, { accountId: values.account!, environment: values.environment, referenceId: values.reference! }, 'cli')) };
  },

  async 'pricing list'(db, args) {
    opts(args, {});
    return { fees: (await pricing.list(db)).map((f) => ({ operation: f.operation, fee: paiseToInr(f.fee_paise) })) };
  },

  async 'pricing set'(db, args) {
    const { values } = opts(args, { operation: { type: 'string' }, fee: { type: 'string' } });
    required(values, 'operation', 'fee');
    if (!OPERATION_SLUGS.includes(values.operation!)) throw new UsageError(`unknown operation ${values.operation}; one of: ${OPERATION_SLUGS.join(', ')}`);
    let paise: number;
    try {
      paise = inrToPaise(Number(values.fee));
    } catch {
      throw new UsageError('--fee must be an INR amount with at most 2 decimals');
    }
    if (paise < 0) throw new UsageError('--fee must not be negative');
    await pricing.setFee(db, 'cli', { operation: values.operation!, feePaise: paise });
    return { operation: values.operation!, fee: paiseToInr(paise) };
  },

  // Submits a batch file for an account directly in the store (no key needed: the operator acts for the
  // account); whichever server process runs the batch worker picks it up within SANGAM_BATCH_POLL_MS.
  async 'batches submit'(db, args) {
    const { values, positionals } = opts(args, { account: { type: 'string' }, env: { type: 'string' }, operation: { type: 'string' }, 'client-batch-id': { type: 'string' }, 'validate-only': { type: 'boolean' } }, 1);
    required(values, 'account', 'env', 'operation');
    if (positionals.length !== 1) throw new UsageError('give one FILE: a .csv (a header naming the fields) or .ndjson file');
    const submitted = await submitFile(db, 'cli', { accountId: values.account!, environment: environment(values.env), operation: values.operation!, file: positionals[0]!, clientBatchId: values['client-batch-id'], validateOnly: values['validate-only'] ?? false });
    return submitted.kind === 'batch' ? { ...submitted.batch, existing: submitted.existing } : { validate_only: true, total: submitted.total, invalid: submitted.invalid, errors: submitted.errors };
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
    const { balance_paise } = await wallet.topUp(db, 'cli', { accountId: values.account!, amountPaise: paise });
    return { account: values.account!, balance: paiseToInr(balance_paise), currency: 'INR' };
  },

  ...attentionCommands,
  ...floatCommands,
};

/** The operator (`cli`), or the named admin console user with --as EMAIL (`cli:<email>`). */
const asAdmin = (email: string | undefined) => (email === undefined ? 'cli' : (`cli:${email.trim().toLowerCase()}` as const));

function allowlistChange(args: string[], how: 'add' | 'remove') {
  const { values, positionals } = opts(args, { account: { type: 'string' }, env: { type: 'string' } }, 1);
  required(values, 'account', 'env');
  const env = environment(values.env);
  if (!positionals[0]) throw new UsageError(`usage: allowlist ${how} --account ID --env sandbox|live CIDR_OR_IP`);
  return { accountId: values.account!, environment: env, entry: positionals[0] };
}

function approvalArgs(args: string[]) {
  const { values } = opts(args, { account: { type: 'string' }, operation: { type: 'string' } });
  required(values, 'account', 'operation');
  return { accountId: values.account!, operation: values.operation! };
}

/** Splits argv into a known command and its arguments. */
export function resolveCommand(argv: string[]): { name: string; args: string[] } | null {
  for (const words of [2, 1]) {
    const name = argv.slice(0, words).join(' ');
    if (COMMANDS[name]) return { name, args: argv.slice(words) };
  }
  return null;
}
