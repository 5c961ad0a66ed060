// Owns the account actions: creating an account (with its wallet), its rate limits, its settings
// (name match, consent, what its sandbox keys' wallet read shows, its verification reuse window), and which operations it is approved
// for with live keys.
import type { Db } from '../../db/client.js';
import { createAccount, requireAccount, setLimits as storeLimits } from '../../accounts/store.js';
import { approve, unapprove } from '../../access/approvals.js';
import { OPERATION_SLUGS } from '../../operations/registry.js';
import { ApiError } from '../../errors.js';
import { adminAction, type Actor } from './run.js';
import { readNameMatchSettings, writeNameMatchSettings, type NameMatchChange } from '../../accounts/name-match-settings.js';
import { readConsentSettings, writeConsentSettings } from '../../consents/settings.js';
import { readSandboxWallet, writeSandboxWallet, type SandboxWalletSetting } from '../../accounts/sandbox-wallet.js';
import { readVerificationReuse, writeVerificationReuse } from '../../accounts/verification-reuse.js';

/** Errors: validation (empty name). */
export function create(db: Db, actor: Actor, input: { name: string }) {
  const name = input.name.trim();
  if (!name) throw ApiError.validation([{ field: 'name', message: 'name must not be empty' }]);
  return adminAction(db, actor, async (trx) => {
    const account = await createAccount(trx, name);
    return { result: account, event: { accountId: account.id, action: 'accounts create', detail: { name } } };
  });
}

/** Per-second rate and burst; null means the server's default. Errors: not_found (account). */
export function setLimits(db: Db, actor: Actor, input: { accountId: string; perSec: number | null; burst: number | null }) {
  return adminAction(db, actor, async (trx) => {
    await storeLimits(trx, input.accountId, input.perSec, input.burst);
    const result = { account: input.accountId, rate_limit_per_sec: input.perSec, rate_limit_burst: input.burst };
    return { result, event: { accountId: input.accountId, action: 'accounts limits', detail: { per_sec: input.perSec, burst: input.burst } } };
  });
}

/** The account's name-match settings, defaults filled in. Errors: not_found (account). */
export const nameMatchSettings = (db: Db, accountId: string) => readNameMatchSettings(db, accountId);

/**
 * Changes the account's name-match thresholds and payout review rule (null: back to the default).
 * Errors: not_found (account), validation (approve_at, review_at, on_review).
 */
export function setNameMatch(db: Db, actor: Actor, input: { accountId: string } & NameMatchChange) {
  const { accountId, ...change } = input;
  return adminAction(db, actor, async (trx) => {
    const settings = await writeNameMatchSettings(trx, accountId, change);
    return { result: { account: accountId, ...settings }, event: { accountId, action: 'accounts name-match', detail: { ...change } } };
  });
}

/** Whether the account's live calls must cite a consent_id. Errors: not_found (account). */
export const consentSettings = (db: Db, accountId: string) => readConsentSettings(db, accountId);

/** Requires (or stops requiring) consent_id on the account's live calls. Errors: not_found (account). */
export function setConsentRequired(db: Db, actor: Actor, input: { accountId: string; requireLive: boolean }) {
  return adminAction(db, actor, async (trx) => {
    const settings = await writeConsentSettings(trx, input.accountId, input.requireLive);
    return { result: { account: input.accountId, ...settings }, event: { accountId: input.accountId, action: 'accounts consent', detail: { require_consent_live: input.requireLive } } };
  });
}

/** What the account's sandbox keys read at GET /account/wallet. Errors: not_found (account). */
export const sandboxWallet = (db: Db, accountId: string) => readSandboxWallet(db, accountId);

/**
 * The operator's opt-in (`live`) to showing the account's sandbox keys its live wallet, or back to the
 * simulated wallet (`simulated`, the default). Errors: not_found (account), validation (`sandbox_wallet`).
 */
export function setSandboxWallet(db: Db, actor: Actor, input: { accountId: string; show: string }) {
  const show = input.show as SandboxWalletSetting['sandbox_wallet'];
  if (show !== 'live' && show !== 'simulated') throw ApiError.validation([{ field: 'sandbox_wallet', message: 'sandbox_wallet must be simulated or live' }]);
  return adminAction(db, actor, async (trx) => {
    const setting = await writeSandboxWallet(trx, input.accountId, show);
    return { result: { account: input.accountId, ...setting }, event: { accountId: input.accountId, action: 'accounts sandbox-wallet', detail: { ...setting } } };
  });
}

/** How long the account's vpa-verifications stand in for a payout's name check. Errors: not_found (account). */
export const verificationReuse = (db: Db, accountId: string) => readVerificationReuse(db, accountId);

/** Sets the reuse window in seconds (null: the default, 24 h). Errors: not_found (account), validation (`reuse_window_s`). */
export function setVerificationReuse(db: Db, actor: Actor, input: { accountId: string; windowS: number | null }) {
  return adminAction(db, actor, async (trx) => {
    const setting = await writeVerificationReuse(trx, input.accountId, input.windowS);
    return { result: { account: input.accountId, ...setting }, event: { accountId: input.accountId, action: 'accounts verification-reuse', detail: { reuse_window_s: input.windowS } } };
  });
}

/** `all`, or one operation's slug; any other name is a 422 on `operation`. */
function expandOperation(operation: string): string[] {
  if (operation === 'all') return [...OPERATION_SLUGS];
  if (OPERATION_SLUGS.includes(operation)) return [operation];
  throw ApiError.validation([{ field: 'operation', message: `unknown operation ${operation}; one of: all, ${OPERATION_SLUGS.join(', ')}` }]);
}

/**
 * Approves (or withdraws approval of) one operation, or `all`, for live keys; returns the approved
 * list. Errors: not_found (account), validation (field `operation`: unknown slug).
 */
export function setApproval(db: Db, actor: Actor, input: { accountId: string; operation: string; approved: boolean }) {
  return adminAction(db, actor, async (trx) => {
    await requireAccount(trx, input.accountId);
    const ops = expandOperation(input.operation);
    const approved = input.approved ? await approve(trx, input.accountId, ops) : await unapprove(trx, input.accountId, ops);
    const event = { accountId: input.accountId, environment: 'live' as const, action: input.approved ? 'approve' : 'unapprove', detail: { operation: input.operation } };
    return { result: { account: input.accountId, approved }, event };
  });
}
