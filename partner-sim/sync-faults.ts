// Owns the misbehaviour switches of the synchronous emulators (no webhooks: cashfree-verification,
// surepass-signature), in the naming style of the Sangam simulator and the RazorpayX emulator. Setting
// faults replaces the whole set: fields left out go back to "behave". The counters (common/faults.ts) are
// scoped to every call ("any") or only the one that does the work ("create"). Each emulator supplies its
// own error bodies.
import { NO_COUNTER_FAULTS, parseFaultSet, type CounterFaults } from './common/faults.js';

export interface SyncFaults extends CounterFaults<'any' | 'create'> {
  /** The next N calls answer 429 before doing anything. */
  throttle_next: number;
}

export const NO_SYNC_FAULTS: SyncFaults = { ...NO_COUNTER_FAULTS, throttle_next: 0 };

/** The full fault set from a partial body, or an error text naming the bad field. */
export const parseSyncFaults = (body: unknown): SyncFaults | string => parseFaultSet(NO_SYNC_FAULTS, body, { scopes: ['any', 'create'] });
