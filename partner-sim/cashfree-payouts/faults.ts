// Owns the emulator's misbehaviour switches (POST /_sim/faults), named in the style of the Sangam
// simulator and the RazorpayX emulator. Setting faults replaces the whole set: fields left out go back
// to "behave". The counters (common/faults.ts) are scoped to every /payout call ("any"), only
// POST /payout/transfers ("create_transfer") or only POST /payout/validatePayout ("validate"). Of
// error_status, 500 is documented; 502, 503 and 504 are what a gateway in front of it would answer. A throttled call answers 429 with x-ratelimit-retry.
import { NO_COUNTER_FAULTS, parseFaultSet, type CounterFaults } from '../common/faults.js';
import { NO_WEBHOOK_FAULTS, type WebhookFaults } from '../common/webhooks.js';

/**
 * The webhook faults: a duplicate is byte for byte (same timestamp and signature); out_of_order holds
 * non-final events (TRANSFER_SUCCESS before an acknowledgement or reversal, TRANSFER_APPROVED) until the final one.
 */
export interface Faults extends CounterFaults<'any' | 'create_transfer' | 'validate'>, WebhookFaults {
  /** The next N calls answer 429 with x-ratelimit-retry. */
  throttle_next: number;
  /** Every API call answers the documented 403 apis_not_enabled. */
  apis_not_enabled: boolean;
  /**
   * Every call in scope answers Cashfree's documented HTTP 500 `authentication_error` ("Unable to authenticate
   * the request…", the OpenAPI's AuthenticationError example of POST/GET /transfers): nothing is executed.
   */
  authentication_error: boolean;
  /** A repeat of a transfer_id with the same body answers 409 too, instead of the transfer ([G] both are plausible). */
  conflict_on_replay: boolean;
  /** Webhooks are signed with a wrong key. */
  bad_signature: boolean;
  /** Webhooks carry an x-webhook-timestamp this many ms in the past (correctly signed), to test a replay window. */
  webhook_timestamp_skew_ms: number;
}

export const NO_FAULTS: Faults = {
  ...NO_COUNTER_FAULTS,
  throttle_next: 0,
  apis_not_enabled: false,
  authentication_error: false,
  conflict_on_replay: false,
  ...NO_WEBHOOK_FAULTS,
  bad_signature: false,
  webhook_timestamp_skew_ms: 0,
};

/** The full fault set from a partial body, or an error text naming the bad field. */
export const parseFaults = (body: unknown): Faults | string => parseFaultSet(NO_FAULTS, body, { scopes: ['any', 'create_transfer', 'validate'] });
