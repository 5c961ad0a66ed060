// Owns what the Cashfree Verification emulator keeps across a restart (common/persist.ts): every penny drop
// by verification_id and reference_id, and the next reference_id; every BAV V2 check by reference_id and
// every UPI V2 check by verification_id, with their next reference_id. One a restart caught pending is
// settled as its plan says, one pendingMs after the start.
import type { Persisted } from '../common/persist.js';
import { pairs, refill } from '../common/persist.js';
import type { PennyDropState } from './state.js';
import type { PayeeState } from './payee-state.js';

export function pennyDropBooks(state: PennyDropState, payee: PayeeState, o: { pendingMs: () => number; later: (ms: number, fn: () => void) => void }): Persisted {
  return {
    save: () => ({ byId: pairs(state.byId), nextReference: state.nextReference, payee: { bav: pairs(payee.bavByRef), upi: pairs(payee.upiById), nextReference: payee.nextReference } }),
    restore(image) {
      const b = image as { byId: unknown; nextReference: number; payee?: { bav: unknown; upi: unknown; nextReference: number } };
      if (b.payee) {
        refill(payee.bavByRef, b.payee.bav);
        refill(payee.upiById, b.payee.upi);
        payee.nextReference = b.payee.nextReference;
        for (const rec of payee.bavByRef.values()) if (rec.view.account_status === 'RECEIVED') o.later(o.pendingMs(), () => payee.settleBav(rec));
        for (const rec of payee.upiById.values()) if (rec.view.status === 'PENDING') o.later(o.pendingMs(), () => payee.settleUpi(rec));
      }
      refill(state.byId, b.byId);
      state.nextReference = b.nextReference;
      state.byReference.clear();
      for (const rec of state.byId.values()) {
        state.byReference.set(rec.view.reference_id, rec);
        const plan = rec.plan;
        if (rec.view.status === 'PENDING' && plan.kind === 'pending') o.later(o.pendingMs(), () => rec.view.status === 'PENDING' && state.settle(rec, plan.then === 'valid' ? 'VALID' : 'INVALID'));
      }
    },
  };
}
