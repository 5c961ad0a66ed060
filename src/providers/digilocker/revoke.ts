// Owns ending DigiLocker access tokens and never forgetting one that did not end. The partner's spec:
// POST /oauth2/1/revoke, an application/json body {token, token_type_hint}, the client authenticated by
// its credentials (clientCredentials security: HTTP Basic, app key as user name, secret as password);
// 200 when revoked, 400 "The token is invalid" (it is not alive: revoked, expired or unknown).
//
// One attempt is made at once. When it fails (unreachable, timeout, any answer but 200 or 400), the
// token is kept for retrying, durably, in the partner sessions (encrypted at rest, as the token was):
// `revoke:<id>` with the token, the transaction it belongs to and the attempts. Every process of the
// connector retries every such entry (found by its key's prefix, so no index can lose one) every
// REVOKE_RETRY_S seconds (default 30) until DigiLocker confirms, or the token's own life ends (the entry's
// expiry, an hour: the spec's `expires_in`), whichever comes first. Each failure is a warning in the log
// and a count in sangam_partner_alarms_total{kind="token_revoke_failed"}; after ALARM_AFTER failed
// attempts the transaction is flagged, so "Needs attention" shows a person that a withdrawn consent's
// (or a used grant's) token is still alive at DigiLocker, and until when.
//
// A retry made twice by two processes is harmless (the second one gets 400, "not alive", which is done).
import { randomBytes } from 'node:crypto';
import type { PartnerRouteHooks } from '../connector.js';
import { DECIDED_TTL_S } from './session.js';
import type { OAuthDeps } from './oauth.js';

/** What revoking needs beyond the OAuth steps: the core's hooks (once routes are mounted) and the retry pace. */
export interface RevokeDeps extends OAuthDeps {
  hooks: Partial<PartnerRouteHooks>;
  retryMs: number;
}

interface PendingRevoke {
  token: string;
  txnId: string;
  attempts: number;
  /** ISO time after which the token is dead at DigiLocker anyway (its lifetime at most). */
  until: string;
  lastError: string;
  flagged: boolean;
}

/** Failed attempts (the first one included) before the transaction is flagged for a person. */
export const ALARM_AFTER = 3;
const PREFIX = 'revoke:';
const key = (id: string) => `${PREFIX}${id}`;

/** One revoke: null when DigiLocker says the token is no longer alive, else why it is not known to be. */
async function attempt(d: OAuthDeps, token: string): Promise<string | null> {
  const basic = Buffer.from(`${d.clientId}:${d.clientSecret}`).toString('base64');
  try {
    const res = await d.http.call({
      method: 'POST',
      url: `${d.url}/oauth2/1/revoke`,
      headers: { authorization: `Basic ${basic}`, accept: 'application/json' },
      json: { token, token_type_hint: 'access_token' },
      timeoutMs: Math.min(d.ctx.timeoutFor('doclocker-download-aadhaar'), 5000),
    });
    // 400 is the spec's "The token is invalid": not alive any more, which is what a revoke wants.
    if (res.status === 200 || res.status === 400) return null;
    return `HTTP ${res.status}`;
  } catch (err) {
    return (err as Error).message;
  }
}

/**
 * Revokes `token` (of transaction `txnId`) at DigiLocker. A failure is not the caller's: it is recorded
 * for retrying and surfaced (see the module header), and this resolves all the same.
 */
export async function revokeToken(d: RevokeDeps, token: string, txnId: string, retrier: Retrier): Promise<void> {
  const error = await attempt(d, token);
  if (error === null) return;
  const id = randomBytes(12).toString('base64url');
  const pending: PendingRevoke = { token, txnId, attempts: 1, until: new Date(Date.now() + DECIDED_TTL_S * 1000).toISOString(), lastError: error, flagged: false };
  await d.sessions.store.put(key(id), pending, DECIDED_TTL_S);
  d.hooks.warn?.('token_revoke_failed', 'DigiLocker did not confirm revoking an access token; retrying', { txn_id: txnId, attempts: 1, error });
  retrier.soon();
}

/** One pass over the revokes waiting: each retried once; what is done or dead is forgotten. Answers how many are left. */
export async function retryRevokes(d: RevokeDeps): Promise<number> {
  let left = 0;
  for (const k of await d.sessions.store.keys(PREFIX)) {
    const p = await d.sessions.store.get<PendingRevoke>(k);
    if (!p) continue; // done by another process meanwhile, or expired
    if (Date.parse(p.until) <= Date.now()) {
      await d.sessions.store.delete(k); // the token's life is over: dead at DigiLocker too
      continue;
    }
    const error = await attempt(d, p.token);
    if (error === null) {
      await d.sessions.store.delete(k);
      if (p.flagged) d.hooks.warn?.('token_revoked_late', 'DigiLocker confirmed revoking an access token after earlier failures', { txn_id: p.txnId, attempts: p.attempts + 1 });
      continue;
    }
    const next: PendingRevoke = { ...p, attempts: p.attempts + 1, lastError: error };
    d.hooks.warn?.('token_revoke_failed', 'DigiLocker did not confirm revoking an access token; retrying', { txn_id: p.txnId, attempts: next.attempts, error });
    if (next.attempts >= ALARM_AFTER && !p.flagged && d.hooks.flag) {
      await d.hooks.flag(p.txnId, `DigiLocker has not confirmed revoking this request's access token after ${next.attempts} attempts (last: ${error}); retrying until ${p.until}, when it expires at DigiLocker anyway`);
      next.flagged = true;
    }
    await d.sessions.store.put(k, next, Math.max(1, Math.ceil((Date.parse(p.until) - Date.now()) / 1000)));
    left++;
  }
  return left;
}

/** Runs retryRevokes every retryMs while anything waits (and once after start, for what an earlier process left). */
export class Retrier {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private closed = false;

  constructor(private d: RevokeDeps) {}

  soon(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = retryRevokes(this.d)
        .then((left) => void (left > 0 && this.soon()))
        .catch(() => this.soon()) // the store was unreachable: try again later
        .finally(() => (this.running = undefined));
    }, this.d.retryMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
