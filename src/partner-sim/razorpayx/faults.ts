// Owns the emulator's misbehaviour switches (POST /_sim/faults), named in the style of the Sangam
// simulator's Faults (src/partner-sim/server.ts). Setting faults replaces the whole set: fields left out
// go back to "behave".
export interface Faults {
  /** Which API calls the *_next counters consume: every /v1 call, or only POST /v1/payouts. */
  scope: 'any' | 'create_payout';
  /** The next N calls hang for timeout_ms, then are processed normally (the client has likely given up). */
  timeout_next: number;
  timeout_ms: number;
  /** The next N calls answer error_status before doing anything (safe to retry). */
  error_next: number;
  /** The next N payout creations create the payout, then answer error_status (the dangerous case). */
  error_after_accept_next: number;
  /** 500, 502, 503 or 504 (the documented 5xx). */
  error_status: number;
  /** The next N calls answer 429 before doing anything. */
  throttle_next: number;
  /** Each webhook event is delivered twice, with the same x-razorpay-event-id. */
  duplicate_webhooks: boolean;
  /** Each webhook event waits this long before its first delivery. */
  webhook_delay_ms: number;
  /** Events are not delivered at all (recorded as dropped in /_sim/webhooks). */
  drop_webhooks: boolean;
  /** Non-final events (initiated, pending, queued) are held back and delivered after the final one. */
  out_of_order: boolean;
  /** Events are signed with a wrong secret. */
  bad_signature: boolean;
}

export const NO_FAULTS: Faults = {
  scope: 'any',
  timeout_next: 0,
  timeout_ms: 30_000,
  error_next: 0,
  error_after_accept_next: 0,
  error_status: 500,
  throttle_next: 0,
  duplicate_webhooks: false,
  webhook_delay_ms: 0,
  drop_webhooks: false,
  out_of_order: false,
  bad_signature: false,
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
  if (f.scope !== 'any' && f.scope !== 'create_payout') return 'scope must be "any" or "create_payout"';
  if (![500, 502, 503, 504].includes(f.error_status)) return 'error_status must be 500, 502, 503 or 504';
  return f;
}
