// Owns the emulator's misbehaviour switches (POST /_sim/faults), named in the style of the Sangam
// simulator's Faults (partner-sim/server.ts). Setting faults replaces the whole set: fields left out
// go back to "behave". The counters (common/faults.ts) are scoped to every /v1 call ("any"), only
// POST /v1/payouts ("create_payout") or only fund account validations ("validate"):
// error_after_accept_next creates the payout (or the validation), then answers error_status, one of the documented 5xx
// (500, 502, 503, 504).
import { NO_COUNTER_FAULTS, parseFaultSet, type CounterFaults } from '../common/faults.js';
import { NO_WEBHOOK_FAULTS, type WebhookFaults } from '../common/webhooks.js';

/** The webhook faults: a duplicate keeps its x-razorpay-event-id; out_of_order holds initiated, pending and queued events until the final one. */
export interface Faults extends CounterFaults<'any' | 'create_payout' | 'validate'>, WebhookFaults {
  /** The next N calls answer 429 before doing anything. */
  throttle_next: number;
  /** Events are signed with a wrong secret. */
  bad_signature: boolean;
}

export const NO_FAULTS: Faults = { ...NO_COUNTER_FAULTS, throttle_next: 0, ...NO_WEBHOOK_FAULTS, bad_signature: false };

/** The full fault set from a partial body, or an error text naming the bad field. */
export const parseFaults = (body: unknown): Faults | string => parseFaultSet(NO_FAULTS, body, { scopes: ['any', 'create_payout', 'validate'] });
