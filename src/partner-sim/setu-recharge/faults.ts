// Owns the misbehaviour switches of the Setu emulators (POST /_sim/faults), named like the other
// emulators' (razorpayx/faults.ts). Setting faults replaces the whole set: fields left out go back to
// "behave". Shared by the prepaid (setu-recharge) and the BBPS DTH (setu-dth) emulators.
//
// Setu's webhooks are unsigned (PARTNERS.md §4.6, §4.7 [G]), so there is no bad_signature fault; its place
// is taken by `forged_success`, a webhook that lies, which only a receiver that confirms with the status API
// (as the docs advise) catches.
export interface Faults {
  /** Which API calls the *_next counters consume: every API call, or only the call that pays. */
  scope: 'any' | 'payment';
  /** The next N calls hang for timeout_ms, then are processed normally (the client has likely given up). */
  timeout_next: number;
  timeout_ms: number;
  /** The next N calls answer error_status before doing anything (safe to retry). */
  error_next: number;
  /** The next N payments are accepted and executed, then answer error_status (the dangerous case). */
  error_after_accept_next: number;
  /** 500, 502, 503 or 504. */
  error_status: number;
  /** Each webhook is delivered twice, byte for byte. */
  duplicate_webhooks: boolean;
  /** Each webhook waits this long before its first delivery. */
  webhook_delay_ms: number;
  /** Webhooks are not delivered (recorded as dropped in /_sim/webhooks). */
  drop_webhooks: boolean;
  /** A payment's success webhook is held back and delivered after its reversal / credit adjustment. */
  out_of_order: boolean;
  /** Every payment webhook claims success (with an invented operator reference), whatever really happened. */
  forged_success: boolean;
}

export const NO_FAULTS: Faults = {
  scope: 'any',
  timeout_next: 0,
  timeout_ms: 30_000,
  error_next: 0,
  error_after_accept_next: 0,
  error_status: 500,
  duplicate_webhooks: false,
  webhook_delay_ms: 0,
  drop_webhooks: false,
  out_of_order: false,
  forged_success: false,
};

/** The full fault set from a partial body, or an error text naming the bad field. */
export function parseFaults(body: unknown): Faults | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'faults must be a JSON object';
  const out: Record<string, unknown> = { ...NO_FAULTS };
  for (const [k, v] of Object.entries(body)) {
    if (!(k in NO_FAULTS)) return `unknown fault: ${k}`;
    const want = typeof NO_FAULTS[k as keyof Faults];
    if (typeof v !== want) return `${k} must be a ${want}`;
    if (want === 'number' && (!Number.isInteger(v) || (v as number) < 0)) return `${k} must be a whole number ≥ 0`;
    out[k] = v;
  }
  const f = out as unknown as Faults;
  if (f.scope !== 'any' && f.scope !== 'payment') return 'scope must be "any" or "payment"';
  if (![500, 502, 503, 504].includes(f.error_status)) return 'error_status must be 500, 502, 503 or 504';
  return f;
}

/** Consumes the before-anything faults for one API call: throws `fail(status)` or hangs, as set. */
export async function misbehave(f: Faults, isPayment: boolean, sleep: (ms: number) => Promise<void>, fail: (status: number) => Error): Promise<void> {
  const counts = f.scope === 'any' || isPayment;
  if (counts && f.error_next > 0) {
    f.error_next--;
    throw fail(f.error_status);
  }
  if (counts && f.timeout_next > 0) {
    f.timeout_next--;
    await sleep(f.timeout_ms);
  }
}

/** After a payment was executed: throws `fail(status)` if error_after_accept_next is armed. */
export function failAfterAccept(f: Faults, fail: (status: number) => Error): void {
  if (f.error_after_accept_next > 0) {
    f.error_after_accept_next--;
    throw fail(f.error_status);
  }
}
