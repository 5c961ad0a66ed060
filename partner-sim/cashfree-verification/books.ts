// Owns what the Cashfree Verification emulator keeps across a restart (common/persist.ts): every penny drop
// by verification_id and reference_id, and the next reference_id. One a restart caught PENDING is settled as
// its plan says, one pendingMs after the start.
import type { Persisted } from '../common/persist.js';
import { pairs, refill } from '../common/persist.js';
import type { PennyDropState } from './state.js';

export function pennyDropBooks(state: PennyDropState, o: { pendingMs: () => number; later: (ms: number, fn: () => void) => void }): Persisted {
  return {
    save: () => ({ byId: pairs(state.byId), nextReference: state.nextReference }),
    restore(image) {
      const b = image as { byId: unknown; nextReference: number };
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
