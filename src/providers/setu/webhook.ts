// Owns what both Setu connectors' webhooks share. Setu documents no signature for its webhooks [G], so
// the URL given to Setu carries a secret path segment ({SANGAM_PUBLIC_URL}/partners/<name>/webhooks/<WEBHOOK_SECRET>),
// compared here in constant time: a call without it is a 401 and changes nothing. A webhook is only a
// trigger — the status API (authenticated) is asked, and its answer applied — so a webhook route asks it
// through `confirm`, which turns a status API that cannot be asked into a 502/504 (Setu retries).
import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../../errors.js';
import { PartnerError } from '../connector.js';

/** The shared secret of an unsigned webhook URL, compared in constant time. */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Refuses (401) a webhook whose secret path segment is not the configured one. */
export function guardSecret(given: string, expected: string, label: string): void {
  if (!sameSecret(given, expected)) throw new ApiError('unauthenticated', `Not the webhook URL configured for this ${label} partner`);
}

/** Asks the status API for a webhook; a PartnerError is the webhook's 502 (504 on a timeout), so Setu retries. */
export async function confirm<T>(ask: () => Promise<T>): Promise<T> {
  try {
    return await ask();
  } catch (err) {
    if (err instanceof PartnerError) throw new ApiError(err.kind === 'timeout' ? 'partner_timeout' : 'partner_failed', err.message);
    throw err;
  }
}
