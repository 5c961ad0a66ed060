// Owns what the Setu BBPS (DTH) emulator keeps across a restart (common/persist.ts): bill fetches with their
// payments and histories, and the request counts. A fetch or payment a restart caught mid-lifecycle carries on
// (one fetchMs / pendingMs after the start); payments through the documented moves the admin route forces.
import type { Persisted } from '../common/persist.js';
import { namedMaps } from '../common/persist.js';
import { subscriberFor, type Biller } from './billers.js';
import { REASONS, type BbpsState } from './state.js';

export function bbpsBooks(state: BbpsState, o: { pendingMs: () => number; fetchMs: () => number; later: (ms: number, fn: () => void) => void }): Persisted {
  const maps = namedMaps({ fetches: state.fetches, byPaymentRef: state.byPaymentRef, paymentRequests: state.paymentRequests });
  return {
    save: maps.save,
    restore(image) {
      maps.restore(image as Record<string, unknown>);
      for (const [refId, rec] of state.fetches) {
        if (rec.status === 'Processing') {
          o.later(o.fetchMs(), () => {
            if (rec.status !== 'Processing') return;
            if (rec.plan === 'not_found') Object.assign(rec, { status: 'Failure', error: REASONS.notFound });
            else Object.assign(rec, { status: 'Success', subscriber: subscriberFor(rec.input.biller as Biller, rec.input.subscriber) });
          });
        }
        const p = rec.payment;
        if (rec.plan === 'refund' && p?.status === 'Success') o.later(o.pendingMs(), () => void state.force(refId, 'Credit_Adjustment'));
        if ((rec.plan === 'pending_success' || rec.plan === 'pending_failure') && p?.status === 'Processing') {
          o.later(o.pendingMs(), () => void state.force(refId, rec.plan === 'pending_success' ? 'Success' : 'Failure'));
        }
      }
    },
  };
}
