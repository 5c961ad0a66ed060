// Owns what a sandbox key's wallet read shows (CONTRACT §8): by default a simulated wallet, a fixed
// balance that nothing moves (no live top-up, debit or hold, and no sandbox call: the sandbox moves no
// money), so a sandbox key learns nothing of live money. An operator may opt an account in to showing
// its sandbox keys the live wallet (`sangam accounts sandbox-wallet`, the console's admin area); the
// setting is the account's own, off unless set.
import type { Db } from '../db/client.js';
import { ApiError } from '../errors.js';

/** The simulated sandbox wallet: ₹10,00,000.00 available, nothing held, never moved. */
export const SANDBOX_BALANCE_PAISE = 100_000_000;

export interface SandboxWalletSetting {
  /** `simulated` (the default) or `live`: the account's live wallet. */
  sandbox_wallet: 'simulated' | 'live';
}

const view = (live: boolean): SandboxWalletSetting => ({ sandbox_wallet: live ? 'live' : 'simulated' });

/** Errors: not_found (no such account). */
export async function readSandboxWallet(db: Db, accountId: string): Promise<SandboxWalletSetting> {
  const row = await db.selectFrom('accounts').select('sandbox_live_wallet').where('id', '=', accountId).executeTakeFirst();
  if (!row) throw new ApiError('not_found', `No account ${accountId}`);
  return view(row.sandbox_live_wallet);
}

/** Errors: not_found (no such account). */
export async function writeSandboxWallet(db: Db, accountId: string, show: SandboxWalletSetting['sandbox_wallet']): Promise<SandboxWalletSetting> {
  const row = await db.updateTable('accounts').set({ sandbox_live_wallet: show === 'live' }).where('id', '=', accountId).returning('sandbox_live_wallet').executeTakeFirst();
  if (!row) throw new ApiError('not_found', `No account ${accountId}`);
  return view(row.sandbox_live_wallet);
}
