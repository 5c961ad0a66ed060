// Owns what the RazorpayX emulator keeps across a restart (common/persist.ts): contacts, fund accounts and
// their dedup keys, payouts with their plans and histories, the balance, the idempotency book and the fund
// account validations. A payout a restart caught mid-lifecycle carries on from where it was (its next step
// one pendingMs after the start), through the same documented moves the admin route forces.
import type { Persisted } from '../common/persist.js';
import { pairs, refill } from '../common/persist.js';
import type { IdempotencyBook } from './idempotency.js';
import type { RazorpayxState } from './state.js';
import type { ValidationBook } from './validations.js';

export function razorpayxBooks(o: { state: RazorpayxState; idem: IdempotencyBook; validations: ValidationBook; pendingMs: () => number; validationMs: () => number; later: (ms: number, fn: () => void) => void }): Persisted {
  const { state, idem, validations } = o;
  return {
    save: () => ({
      balance: state.balance,
      contacts: pairs(state.contacts),
      fundAccounts: pairs(state.fundAccounts),
      contactByKey: pairs(state.contactByKey),
      faByKey: pairs(state.faByKey),
      payouts: pairs(state.payouts),
      idempotency: pairs(idem.saved),
      requests: pairs(idem.requests),
      validations: pairs(validations.validations),
    }),
    restore(image) {
      const b = image as Record<string, unknown>;
      state.balance = b.balance as number;
      refill(state.contacts, b.contacts);
      refill(state.fundAccounts, b.fundAccounts);
      refill(state.contactByKey, b.contactByKey);
      refill(state.faByKey, b.faByKey);
      refill(state.payouts, b.payouts);
      refill(idem.saved, b.idempotency);
      refill(idem.requests, b.requests);
      refill(validations.validations, b.validations);
      for (const rec of state.payouts.values()) resume(rec.payout.id);
      for (const v of validations.validations.values()) if (v.status === 'created') o.later(o.validationMs(), () => v.status === 'created' && validations.finish(v));
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
