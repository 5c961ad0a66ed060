// Owns the emulator's test controls under /_sim (not part of Cashfree): faults, the list of every penny
// drop made (to prove one verification_id never paid its rupee twice), every BAV V2 and UPI V2 check, and
// the magic numbers, account numbers and VPAs. Answers here
// use a plain `{ error }` body.
import type { FastifyInstance } from 'fastify';
import { registerFaultRoutes } from '../common/faults.js';
import { parseSyncFaults, type SyncFaults } from '../sync-faults.js';
import { MAGIC_MOBILES } from './directory.js';
import type { PennyDropState } from './state.js';
import { MAGIC_ACCOUNTS, MAGIC_VPAS, type PayeeState } from './payee-state.js';

export interface AdminDeps {
  state: PennyDropState;
  payee: PayeeState;
  getFaults: () => SyncFaults;
  setFaults: (f: SyncFaults) => void;
}

export function pennyDropLedger(state: PennyDropState) {
  const verifications = [...state.byId.values()].map((r) => ({
    ...r.view,
    name: r.input.name,
    user_consent: r.input.user_consent,
    requests: r.requests,
    penny_drops: 1,
    created_at: r.created_at,
    history: r.history,
  }));
  return { count: verifications.length, verifications };
}

export async function registerAdmin(app: FastifyInstance, d: AdminDeps): Promise<void> {
  registerFaultRoutes(app, d.getFaults, d.setFaults, parseSyncFaults);
  app.get('/_sim/verifications', async () => pennyDropLedger(d.state));
  app.get('/_sim/magic', async () => ({ ...MAGIC_MOBILES, bank_accounts: MAGIC_ACCOUNTS, vpas: MAGIC_VPAS }));
  app.get('/_sim/payee-verifications', async () => ({ bank_accounts: [...d.payee.bavByRef.values()], vpas: [...d.payee.upiById.values()] }));
}
