// Owns what the Setu prepaid emulator keeps across a restart (common/persist.ts): recharges with their plans
// and histories, request counts and the wallet. A recharge a restart caught mid-lifecycle carries on (one
// pendingMs after the start) through the same documented moves the admin route forces.
import type { Persisted } from '../common/persist.js';
import { namedMaps } from '../common/persist.js';
import type { RechargeState } from './state.js';

export function rechargeBooks(state: RechargeState, o: { pendingMs: () => number; later: (ms: number, fn: () => void) => void }): Persisted {
  const maps = namedMaps({ recharges: state.recharges, requests: state.requests });
  return {
    save: () => ({ wallet: state.wallet, ...maps.save() }),
    restore(image) {
      const b = image as Record<string, unknown>;
      state.wallet = b.wallet as number;
      maps.restore(b);
      for (const [ref, rec] of state.recharges) {
        if (rec.plan === 'reversal' && rec.status === 'Successful' && !rec.reversed) o.later(o.pendingMs(), () => void state.force(ref, 'REVERSED'));
        if ((rec.plan === 'pending_success' || rec.plan === 'pending_failure') && rec.status === 'Processing') {
          o.later(o.pendingMs(), () => void state.force(ref, rec.plan === 'pending_success' ? 'Successful' : 'Failure'));
        }
      }
    },
  };
}
