// Owns the emulator's misbehaviour switches (POST /_sim/faults), named in the style of the Sangam
// simulator and the RazorpayX emulator. Setting faults replaces the whole set: fields left out go back
// to "behave".
export interface Faults {
  /** Which API calls the *_next counters consume: every /payout call, or only POST /payout/transfers. */
  scope: 'any' | 'create_transfer';
  /** The next N calls hang for timeout_ms, then are processed normally (the client has likely given up). */
  timeout_next: number;
  timeout_ms: number;
  /** The next N calls answer error_status before doing anything (safe to retry). */
  error_next: number;
  /** The next N transfer creations create the transfer, then answer error_status (the dangerous case). */
  error_after_accept_next: number;
  /** 500 is documented; 502, 503 and 504 are what a gateway in front of it would answer. */
  error_status: number;
  /** The next N calls answer 429 with x-ratelimit-retry. */
  throttle_next: number;
  /** Every API call answers the documented 403 apis_not_enabled. */
  apis_not_enabled: boolean;
  /** A repeat of a transfer_id with the same body answers 409 too, instead of the transfer ([G] both are plausible). */
  conflict_on_replay: boolean;
  /** Each webhook is delivered twice, byte for byte (same timestamp and signature). */
  duplicate_webhooks: boolean;
  /** Each webhook waits this long before its first delivery. */
  webhook_delay_ms: number;
  /** Webhooks are not delivered at all (recorded as dropped in /_sim/webhooks). */
  drop_webhooks: boolean;
  /** Non-final events (TRANSFER_SUCCESS before an acknowledgement or reversal, TRANSFER_APPROVED) are held and sent after the final one. */
  out_of_order: boolean;
  /** Webhooks are signed with a wrong key. */
  bad_signature: boolean;
  /** Webhooks carry an x-webhook-timestamp this many ms in the past (correctly signed), to test a replay window. */
  webhook_timestamp_skew_ms: number;
}

export const NO_FAULTS: Faults = {
  scope: 'any',
  timeout_next: 0,
  timeout_ms: 30_000,
  error_next: 0,
  error_after_accept_next: 0,
  error_status: 500,
  throttle_next: 0,
  apis_not_enabled: false,
  conflict_on_replay: false,
  duplicate_webhooks: false,
  webhook_delay_ms: 0,
  drop_webhooks: false,
  out_of_order: false,
  bad_signature: false,
  webhook_timestamp_skew_ms: 0,
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
  if (f.scope !== 'any' && f.scope !== 'create_transfer') return 'scope must be "any" or "create_transfer"';
  if (![500, 502, 503, 504].includes(f.error_status)) return 'error_status must be 500, 502, 503 or 504';
  return f;
}
