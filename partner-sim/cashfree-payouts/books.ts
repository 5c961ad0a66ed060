// Owns what the Cashfree Payouts emulator keeps across a restart (common/persist.ts): transfers with their
// plans, fingerprints and histories, beneficiaries, request counts and the fund source balance. A transfer a
// restart caught mid-lifecycle runs its remaining stages (the first one pendingMs after the start).
import type { Persisted } from '../common/persist.js';
import { namedMaps } from '../common/persist.js';
import { PLANS, STAGES } from './outcomes.js';
import type { TransferBook } from './transfers.js';

export function cashfreeBooks(book: TransferBook): Persisted {
  const maps = namedMaps({ transfers: book.transfers, beneficiaries: book.beneficiaries, requests: book.requests });
  return {
    save: () => ({ balance: book.balance, ...maps.save() }),
    restore(image) {
      const b = image as Record<string, unknown>;
      book.balance = b.balance as number;
      maps.restore(b);
      book.byCfId.clear();
      for (const [id, rec] of book.transfers) {
        book.byCfId.set(rec.transfer.cf_transfer_id, id);
        // The stages of its plan after the one it is in (all of them while it is still RECEIVED).
        const plan = PLANS[rec.plan];
        let at = -1;
        plan.forEach((n, i) => void (STAGES[n].status === rec.transfer.status && STAGES[n].status_code === rec.transfer.status_code && (at = i)));
        const left = plan.slice(at + 1);
        if (left.length) book.schedule(rec, left);
      }
    },
  };
}
