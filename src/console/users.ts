// Owns console users and sessions: scrypt password hashes (node:crypto, N=2^15), sessions keyed by the
// SHA-256 of a random cookie token, each with its own CSRF token, expiring after 12 hours. A user's
// `is_admin` here is whether admin rights are in effect: an admin waiting for a second admin's approval
// (admin/actions/users.ts) signs in as a non-admin, with `admin_pending: true`.
import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/client.js';
import { newId } from '../ids.js';
import { requireAccount } from '../accounts/store.js';

const scrypt = (password: string, salt: Buffer, len: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(password, salt, len, opts, (err, key) => (err ? reject(err) : resolve(key))));
const PARAMS = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const SESSION_HOURS = 12;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, 32, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function checkPassword(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, key] = stored.split('$');
  if (alg !== 'scrypt' || !salt || !key) return false;
  const want = Buffer.from(key, 'base64');
  const got = await scrypt(password, Buffer.from(salt, 'base64'), want.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: PARAMS.maxmem });
  return timingSafeEqual(want, got);
}

/** A hash to compare against when the email is unknown, so the timing does not tell. */
let decoy: Promise<string> | null = null;

export interface ConsoleUser {
  id: string;
  email: string;
  /** Admin rights in effect. */
  is_admin: boolean;
  /** Made an admin, waiting for another admin's approval: not an admin until then. */
  admin_pending: boolean;
  account_id: string | null;
}

/** How a new admin's rights start: at once (the operator's CLI, the first admin) or after approval, and who made it. */
export interface AdminGrant {
  effective: boolean;
  createdBy: string | null;
}

/** `grant` matters for an admin only; without it an admin is effective at once (the operator's CLI). */
export async function createUser(db: Db, email: string, password: string, isAdmin: boolean, accountId: string | null, grant: AdminGrant = { effective: true, createdBy: null }): Promise<{ id: string }> {
  if (accountId) await requireAccount(db, accountId);
  const id = newId('usr', 16);
  await db
    .insertInto('console_users')
    .values({
      id,
      email: email.trim().toLowerCase(),
      password_hash: await hashPassword(password),
      is_admin: isAdmin,
      account_id: accountId,
      admin_since: isAdmin && grant.effective ? sql<Date>`now()` : null,
      admin_created_by: isAdmin ? grant.createdBy : null,
    })
    .execute();
  return { id };
}

const userOf = (row: { id: string; email: string; is_admin: boolean; admin_since: Date | null; account_id: string | null }): ConsoleUser => ({
  id: row.id,
  email: row.email,
  is_admin: row.is_admin && row.admin_since !== null,
  admin_pending: row.is_admin && row.admin_since === null,
  account_id: row.account_id,
});

export async function authenticateUser(db: Db, email: string, password: string): Promise<ConsoleUser | null> {
  const row = await db.selectFrom('console_users').selectAll().where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
  if (!row) {
    decoy ??= hashPassword('decoy-password');
    await checkPassword(password, await decoy);
    return null;
  }
  if (!(await checkPassword(password, row.password_hash))) return null;
  return userOf(row);
}

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export async function openSession(db: Db, userId: string): Promise<{ token: string; csrf: string; expires: Date }> {
  const token = randomBytes(32).toString('base64url');
  const csrf = randomBytes(24).toString('base64url');
  const expires = new Date(Date.now() + SESSION_HOURS * 3_600_000);
  await db.insertInto('console_sessions').values({ token_hash: tokenHash(token), user_id: userId, csrf_token: csrf, expires_at: expires }).execute();
  return { token, csrf, expires };
}

export async function sessionUser(db: Db, token: string): Promise<(ConsoleUser & { csrf: string }) | null> {
  const row = await db
    .selectFrom('console_sessions as s')
    .innerJoin('console_users as u', 'u.id', 's.user_id')
    .select(['u.id', 'u.email', 'u.is_admin', 'u.admin_since', 'u.account_id', 's.csrf_token', 's.expires_at'])
    .where('s.token_hash', '=', tokenHash(token))
    .executeTakeFirst();
  if (!row || row.expires_at.getTime() <= Date.now()) return null;
  return { ...userOf(row), csrf: row.csrf_token };
}

export async function closeSession(db: Db, token: string): Promise<void> {
  await db.deleteFrom('console_sessions').where('token_hash', '=', tokenHash(token)).execute();
}
