// Owns what the RazorpayX emulator keeps across a restart (common/persist.ts): contacts, fund accounts (of VPAs
// and of bank accounts) and
// their dedup keys, payouts with their plans and histories, the balance, the idempotency book and the fund
// account validations. A payout a restart caught mid-lifecycle carries on from where it was (its next step
// one pendingMs after the start), through the same documented moves the admin route forces.
import type { Persisted } from '../common/persist.js';
import { namedMaps } from '../common/persist.js';
import type { IdempotencyBook } from './idempotency.js';
import type { RazorpayxState } from './state.js';
import type { ValidationBook } from './validations.js';

export function razorpayxBooks(o: { state: RazorpayxState; idem: IdempotencyBook; validations: ValidationBook; pendingMs: () => number; later: (ms: number, fn: () => void) => void }): Persisted {
  const { state, idem, validations } = o;
  const maps = namedMaps({
    contacts: state.contacts,
    fundAccounts: state.fundAccounts,
    bankFundAccounts: state.bankFundAccounts,
    contactByKey: state.contactByKey,
    faByKey: state.faByKey,
    payouts: state.payouts,
    idempotency: idem.saved,
    requests: idem.requests,
    validations: validations.validations,
  });
  return {
    save: () => ({ balance: state.balance, ...maps.save() }),
    restore(image) {
      const b = image as Record<string, unknown>;
      state.balance = b.balance as number;
      maps.restore(b);
      for (const rec of state.payouts.values()) resume(rec.payout.id);
      for (const v of validations.validations.values()) if (v.status === 'created') o.later(validations.waitFor(v), () => v.status === 'created' && validations.finish(v));
    },
  };

  /** The step a payout was waiting for when the process died, as the lifecycle in state.ts would take it. */
  function resume(id: string): void {
    const rec = state.payouts.get(id)!;
    const step = o.pendingMs();
    const then = (from: string, to: 'processed' | 'failed' | 'reversed' | 'rejected', ms: number) =>
      o.later(ms, () => {
        if (rec.payout.status === from) state.force(id, to);
        if (to === 'processed' && rec.plan === 'reversed') then('processed', 'reversed', 2 * step);
      });
    const s = rec.payout.status;
    if (s === 'processing' && (rec.plan === 'processed' || rec.plan === 'reversed')) then('processing', 'processed', step);
    else if (s === 'processing' && rec.plan === 'failed') then('processing', 'failed', step);
    else if (s === 'processed' && rec.plan === 'reversed') then('processed', 'reversed', 2 * step);
    else if (s === 'pending' && rec.plan === 'rejected') then('pending', 'rejected', step);
  }
}
