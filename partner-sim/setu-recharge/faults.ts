// Owns the misbehaviour switches of the Setu emulators (POST /_sim/faults), named like the other
// emulators' (razorpayx/faults.ts). Setting faults replaces the whole set: fields left out go back to
// "behave". Shared by the prepaid (setu-recharge) and the BBPS DTH (setu-dth) emulators. The counters
// (common/faults.ts) are scoped to every API call ("any") or only the call that pays ("payment"); there is
// no throttle_next.
//
// Setu's webhooks are unsigned (PARTNERS.md §4.6, §4.7 [G]), so there is no bad_signature fault; its place
// is taken by `forged_success`, a webhook that lies, which only a receiver that confirms with the status API
// (as the docs advise) catches.
import { NO_COUNTER_FAULTS, parseFaultSet, type CounterFaults } from '../common/faults.js';
import { NO_WEBHOOK_FAULTS, type WebhookFaults } from '../common/webhooks.js';

/** The webhook faults: a duplicate is byte for byte; out_of_order holds a payment's success webhook until its reversal / credit adjustment. */
export interface Faults extends CounterFaults<'any' | 'payment'>, WebhookFaults {
  /** Every payment webhook claims success (with an invented operator reference), whatever really happened. */
  forged_success: boolean;
}

export const NO_FAULTS: Faults = { ...NO_COUNTER_FAULTS, ...NO_WEBHOOK_FAULTS, forged_success: false };

/** The full fault set from a partial body, or an error text naming the bad field. */
export const parseFaults = (body: unknown): Faults | string => parseFaultSet(NO_FAULTS, body, { scopes: ['any', 'payment'] });
