// Owns when and how long the SDK waits before trying again. A request is retried only where replaying
// it cannot do anything twice ("safe"): a GET, an operation carrying an Idempotency-Key, or an operation
// whose reference_id is its idempotency key. Safe requests are retried on network errors, timeouts,
// 409/106 (the same key still in flight) and 5xx. Every request is retried on 429, which the server
// answers before doing anything; its Retry-After is honoured.
import { SangamError } from './errors.js';

const BASE_MS = 500;
const CAP_MS = 8_000;
const RETRY_AFTER_CAP_MS = 60_000;

/** Whether an error answer may be tried again. */
export function retryable(err: SangamError, safe: boolean): boolean {
  if (err.status === 429) return true;
  if (!safe) return false;
  return (err.status === 409 && err.errorcode === 106) || err.status >= 500;
}

/** Exponential backoff with full jitter, or the server's Retry-After when it gave one. */
export function delayMs(attempt: number, retryAfterSeconds?: number): number {
  if (retryAfterSeconds !== undefined && retryAfterSeconds >= 0) return Math.min(retryAfterSeconds * 1000, RETRY_AFTER_CAP_MS);
  return Math.random() * Math.min(CAP_MS, BASE_MS * 2 ** attempt);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
