// Owns `X-Payout-Idempotency` as documented (PARTNERS.md §2.5): the header is mandatory on create
// payout; the first successful response under a key is saved and returned to every later request with
// the same key and the same body; a different body under a used key is a 400.
//
// [G] decisions where the docs are silent:
// - Only a created payout is saved. A request rejected by validation saves nothing, so a corrected
//   retry under the same key goes through.
// - "Same body" compares the parsed JSON with keys sorted, not the raw bytes.
// - A repeat while the first is still in flight cannot happen here: creation is synchronous once the
//   request's latency has elapsed, so the later request always finds the saved answer.
import { badRequest, idempotencyMissing } from './errors.js';
import { IDEMPOTENCY_KEY } from './validate.js';
import { canonicalJson } from '../common/canonical.js';

export function readKey(header: string | string[] | undefined): string {
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined || key === '') throw idempotencyMissing();
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw badRequest('The idempotency key must be 4 to 36 characters of letters, numbers, hyphens, underscores and spaces.', 'X-Payout-Idempotency');
  }
  return key;
}

export class IdempotencyBook {
  /** The first answer per key (books.ts keeps it across a restart). */
  readonly saved = new Map<string, { body: string; response: unknown; payoutId: string }>();
  /** Create-payout requests seen per key, replays included (for /_sim/payouts). */
  readonly requests = new Map<string, number>();

  /** The saved response for a replay, `undefined` for a fresh key; throws on a different body. */
  lookup(key: string, body: unknown): unknown {
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
    const saved = this.saved.get(key);
    if (!saved) return undefined;
    // [G] text; the docs say only that a different payload "will be rejected as a BAD_REQUEST".
    if (saved.body !== canonicalJson(body)) {
      throw badRequest('Different request body sent for the same idempotency key. Use a new key for a new payout.', 'X-Payout-Idempotency');
    }
    return saved.response;
  }

  save(key: string, body: unknown, payoutId: string, response: unknown): void {
    this.saved.set(key, { body: canonicalJson(body), response, payoutId });
  }
}
